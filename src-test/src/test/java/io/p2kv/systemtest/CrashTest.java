package io.p2kv.systemtest;

import io.p2kv.TestSeeds;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.P2kv;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.HashSet;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kills a process that is writing to a store with SIGKILL at random moments, many times, and
 * checks after each kill that: every write whose acknowledgement the child reported (durable,
 * {@code Durability.SYNC}) is there; no cross-shard transfer is torn (the accounts keep their
 * total); every acknowledged increment and update is there and none was applied twice (each
 * counter is at least its largest acknowledged value and at most its value before the cycle plus
 * the increments issued; each update log is 0, 1, ..., n with no gap or repeat, n at least the last
 * acknowledged and at most the last issued); no key of an acknowledged range delete is back and
 * every key of a batch acknowledged before its range delete was issued is there; every batch
 * written without the log ({@code Durability.NO_WAL}, into this {@code SYNC} store) before a
 * {@code flush()} that returned is there; the store opens and accepts new writes.
 *
 * <p>Cycles: 30 by default (under 3 minutes); {@code -Dp2kv.crash.cycles=1000} for a soak run,
 * e.g. {@code mvn -B verify -pl src-test -am -Dp2kv.crash.cycles=1000}.
 */
class CrashTest {
  @TempDir Path tmp;

  private static void awaitReadyThenKill(
      Process child, CountDownLatch ready, CountDownLatch covered, Random rnd, int cycle, int maxDelayMillis)
      throws InterruptedException {
    assertTrue(ready.await(60, TimeUnit.SECONDS), "child opened the store (cycle " + cycle + ")");
    if (cycle == 0) {
      // The first kill waits until the child has acknowledged a range-delete round's batch and a
      // flushed unlogged bulk batch, so the checks of both run whatever the machine's speed; the
      // later kills land anywhere.
      assertTrue(covered.await(60, TimeUnit.SECONDS), "child acknowledged a range batch and a flushed bulk batch");
    }
    Thread.sleep(50 + rnd.nextInt(maxDelayMillis)); // the kill lands at a random moment of the workload
    // SIGKILL through the process handle: Process.destroyForcibly() would also close our end of
    // the child's stdout and lose acknowledgements still in the pipe.
    child.toHandle().destroyForcibly();
    assertTrue(child.waitFor(60, TimeUnit.SECONDS));
  }

  /** Copies the store of a failed cycle to target/crash-failures for inspection. */
  private static void preserve(Path dir, int cycle) throws java.io.IOException {
    Path to = Path.of("target", "crash-failures", "kill-" + cycle + "-" + System.currentTimeMillis());
    try (java.util.stream.Stream<Path> walk = java.nio.file.Files.walk(dir)) {
      for (Path p : walk.toList()) {
        Path target = to.resolve(dir.relativize(p).toString());
        if (java.nio.file.Files.isDirectory(p)) {
          java.nio.file.Files.createDirectories(target);
        } else {
          java.nio.file.Files.copy(p, target);
        }
      }
    }
    System.err.println("crash test: the store of the failed cycle is preserved in " + to.toAbsolutePath());
  }

  /** The child's last report lines about the key's writer thread, for a failure message. */
  private static List<String> about(List<String> transcript, String key) {
    String writer = key.substring(0, key.lastIndexOf('-'));
    List<String> lines;
    synchronized (transcript) {
      lines = transcript.stream().filter(l -> l.contains(writer)).toList();
    }
    return lines.subList(Math.max(0, lines.size() - 12), lines.size());
  }

  @Test
  void shouldNeverLoseAnAcknowledgedDurableWriteNorTearACrossShardBatchAcrossKills() throws Exception {
    TestSeeds.run(getClass(), "shouldNeverLoseAnAcknowledgedDurableWriteNorTearACrossShardBatchAcrossKills",
        seed -> crashCycles(seed, null));
  }

  /**
   * The same kills while the child takes checkpoints back to back: besides the source's checks,
   * every finished checkpoint opens with the accounts' total, and every interrupted one is refused
   * as incomplete (never opened as a partial store); at least one kill must have interrupted one.
   */
  @Test
  void shouldLeaveInterruptedCheckpointsRefusedAndFinishedOnesConsistentAcrossKills() throws Exception {
    TestSeeds.run(getClass(), "shouldLeaveInterruptedCheckpointsRefusedAndFinishedOnesConsistentAcrossKills",
        seed -> crashCycles(seed, "checkpoints"));
  }

  /**
   * The same kills while the child adds backups back to back (keeping the last 3): after every
   * kill, the last backup the child reported is still listed, every listed backup verifies, and
   * the newest restores as a store with the accounts' total; at least one kill must have
   * interrupted a backup.
   */
  @Test
  void shouldKeepCompletedBackupsRestorableAcrossKillsDuringBackups() throws Exception {
    TestSeeds.run(getClass(), "shouldKeepCompletedBackupsRestorableAcrossKillsDuringBackups",
        seed -> crashCycles(seed, "backups"));
  }

  /**
   * Checks the backup directory after a kill.
   *
   * @return 1 if the kill interrupted a backup (it left a staged checkpoint or unpublished files)
   */
  private static int checkBackups(Path backups, Path store, Set<String> reported, long expectedTotal, int cycle, Path tmp)
      throws Exception {
    boolean interrupted =
        java.nio.file.Files.exists(store.resolve(".backup-staging")) || unpublished(backups);
    List<io.p2kv.BackupInfo> listed = P2kv.listBackups(backups);
    long lastReported = reported.stream().mapToLong(Long::parseLong).max().orElse(0);
    assertTrue(listed.stream().anyMatch(b -> b.id() == lastReported) || lastReported == 0,
        "the last backup reported done (" + lastReported + ") is listed after kill " + cycle + ": " + listed);
    for (io.p2kv.BackupInfo b : listed) {
      P2kv.verifyBackup(backups, b.id());
    }
    if (!listed.isEmpty()) {
      Path restored = tmp.resolve("restored-" + cycle);
      P2kv.restoreLatest(backups, restored);
      try (P2kv r = CrashWorkload.open(restored)) {
        assertEquals(expectedTotal, CrashWorkload.total(r), "total in the newest backup after kill " + cycle);
      }
      deleteTree(restored);
    }
    return interrupted ? 1 : 0;
  }

  /** Whether a backup directory holds files of a backup that was never published. */
  private static boolean unpublished(Path backups) throws Exception {
    Path priv = backups.resolve("private");
    if (!java.nio.file.Files.isDirectory(priv)) {
      return false;
    }
    try (java.util.stream.Stream<Path> walk = java.nio.file.Files.walk(backups)) {
      if (walk.anyMatch(p -> p.getFileName().toString().endsWith(".tmp"))) {
        return true;
      }
    }
    try (java.util.stream.Stream<Path> list = java.nio.file.Files.list(priv)) {
      return list.anyMatch(p -> !java.nio.file.Files.exists(backups.resolve("meta").resolve(p.getFileName())));
    }
  }

  /**
   * Checks the copies one cycle's child made: each reported one must open with the total; each
   * unreported one either finished just before the kill (then it opens with the total too) or is
   * refused as incomplete. A hidden leftover beside them (a copy's directory made aside before it
   * is renamed into place, or set aside to be deleted; a kill may leave it before its marker) is
   * never a target: p2kv deletes it when a store beside it opens, its process (the killed child)
   * having ended. Deletes the copies after.
   *
   * @return how many were refused as incomplete or left hidden
   */
  private static int checkCheckpoints(Path target, Set<String> reported, long expectedTotal, int cycle) throws Exception {
    int incomplete = 0;
    boolean opened = false;
    for (Path copy : list(target)) {
      String name = copy.getFileName().toString();
      if (name.startsWith(".")) {
        incomplete++;
        continue;
      }
      try (P2kv cp = CrashWorkload.open(copy)) {
        opened = true;
        assertEquals(expectedTotal, CrashWorkload.total(cp), "total in checkpoint " + name + " after kill " + cycle);
      } catch (io.p2kv.StoreCorruptedException e) {
        assertTrue(!reported.contains(name), "checkpoint " + name + " was reported finished but is refused: " + e);
        assertTrue(e.getMessage().contains("incomplete copy"), "refused clearly: " + e.getMessage());
        incomplete++;
      }
    }
    List<Path> left = list(target);
    if (opened) {
      assertTrue(left.stream().noneMatch(p -> p.getFileName().toString().startsWith(".")),
          "opening a store beside them deleted the hidden leftovers of the killed child, after kill " + cycle + ": " + left);
    }
    for (Path copy : left) {
      deleteTree(copy);
    }
    return incomplete;
  }

  private static List<Path> list(Path dir) throws java.io.IOException {
    try (java.util.stream.Stream<Path> list = java.nio.file.Files.list(dir)) {
      return list.sorted().toList();
    }
  }

  private static void deleteTree(Path dir) throws java.io.IOException {
    try (java.util.stream.Stream<Path> walk = java.nio.file.Files.walk(dir)) {
      for (Path p : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        java.nio.file.Files.delete(p);
      }
    }
  }

  /**
   * The seed times the kills; the child of cycle {@code c} runs its workload with seed {@code seed + c}
   * (distinct per cycle, so its keys, which carry it, are never written twice).
   */
  private void crashCycles(long seed, String cuts) throws Exception {
    int cycles = Integer.getInteger("p2kv.crash.cycles", 30);
    Path dir = tmp.resolve("store");
    Path cutsDir = java.nio.file.Files.createDirectories(tmp.resolve("cuts"));
    int incompleteCopies = 0;
    int finishedCopies = 0;
    CrashWorkload.initAccounts(dir);
    Map<String, String> acknowledged = new LinkedHashMap<>();
    Set<String> deleted = new HashSet<>();
    Random rnd = new Random(seed);
    long expectedTotal = CrashWorkload.TRANSFER_THREADS * CrashWorkload.ACCOUNTS_PER_THREAD * CrashWorkload.INITIAL_BALANCE;
    int totalAcks = 0;
    long[] counterBase = new long[CrashWorkload.COUNTERS]; // each counter's value after the last reopen
    long totalIncrementAcks = 0;
    long totalAppendAcks = 0;
    int rangeChecks = 0;
    int bulkChecks = 0;
    int loadChecks = 0;
    for (int cycle = 0; cycle < cycles; cycle++) {
      Path java = Path.of(System.getProperty("java.home"), "bin", "java");
      List<String> command =
          new ArrayList<>(List.of(
              java.toString(), "-Xmx256m", "-cp", System.getProperty("java.class.path"),
              CrashWorkload.class.getName(), dir.toString(), String.valueOf(seed + cycle)));
      if (cuts != null) {
        command.addAll(List.of(cuts, cutsDir.toString()));
      }
      Process child = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
      CountDownLatch ready = new CountDownLatch(1);
      CountDownLatch covered = new CountDownLatch(2); // a range batch and a flushed bulk batch acknowledged
      Map<String, String> cycleAcks = new LinkedHashMap<>();
      Set<String> cycleDeletes = new HashSet<>();
      Set<String> cycleInFlightDeletes = new HashSet<>();
      Map<String, Long> incrementsIssued = new java.util.concurrent.ConcurrentHashMap<>();
      Map<String, Long> largestIncrementAck = new java.util.concurrent.ConcurrentHashMap<>();
      Map<String, Integer> lastAppendIssued = new java.util.concurrent.ConcurrentHashMap<>();
      Map<String, Integer> lastAppendAck = new java.util.concurrent.ConcurrentHashMap<>();
      Set<String> cycleCopies = Collections.synchronizedSet(new HashSet<>());
      Set<String> rangesPut = Collections.synchronizedSet(new HashSet<>());
      Set<String> rangesDeleting = Collections.synchronizedSet(new HashSet<>());
      Set<String> rangesDeleted = Collections.synchronizedSet(new HashSet<>());
      java.util.concurrent.atomic.AtomicInteger lastBulk = new java.util.concurrent.atomic.AtomicInteger(-1);
      java.util.concurrent.atomic.AtomicInteger lastLoad = new java.util.concurrent.atomic.AtomicInteger(-1);
      List<String> transcript = Collections.synchronizedList(new ArrayList<>());
      java.util.concurrent.atomic.AtomicReference<Exception> readFailure = new java.util.concurrent.atomic.AtomicReference<>();
      Thread reader = new Thread(() -> {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
          for (String line; (line = r.readLine()) != null; ) {
            transcript.add(line);
            if (!line.endsWith(";")) {
              continue; // torn by the kill: never acknowledged to anyone
            }
            String[] f = line.substring(0, line.length() - 1).split(" ");
            switch (f[0]) {
              case "READY" -> ready.countDown();
              case "PUT" -> cycleAcks.put(f[1], f[2]);
              case "DELETING" -> cycleInFlightDeletes.add(f[1]);
              case "DEL" -> cycleDeletes.add(f[1]);
              case "INCING" -> incrementsIssued.merge(f[1], 1L, Long::sum);
              case "INC" -> largestIncrementAck.merge(f[1], Long.parseLong(f[2]), Math::max);
              case "APPENDING" -> lastAppendIssued.merge(f[1], Integer.parseInt(f[2]), Math::max);
              case "APPENDED" -> lastAppendAck.merge(f[1], Integer.parseInt(f[2]), Math::max);
              case "CHECKPOINT", "BACKUP" -> cycleCopies.add(f[1]);
              case "RDPUT" -> {
                if (rangesPut.isEmpty()) {
                  covered.countDown();
                }
                rangesPut.add(f[1]);
              }
              case "RDELETING" -> rangesDeleting.add(f[1]);
              case "RDEL" -> rangesDeleted.add(f[1]);
              case "BULK" -> {
                if (lastBulk.getAndAccumulate(Integer.parseInt(f[1]), Math::max) < 0) {
                  covered.countDown();
                }
              }
              case "LOAD" -> lastLoad.accumulateAndGet(Integer.parseInt(f[1]), Math::max);
              default -> throw new IllegalStateException("unexpected line " + line);
            }
          }
        } catch (java.io.IOException e) {
          readFailure.set(e); // must not happen: the pipe is read to its end (EOF)
        }
      });
      reader.start();
      try {
        // Copies take a while: let the child finish some and be killed in the middle of others.
        awaitReadyThenKill(child, ready, covered, rnd, cycle, cuts == null ? 400 : 2000);
      } finally {
        if (child.isAlive()) {
          child.toHandle().destroyForcibly(); // never leave a writer behind, whatever failed
        }
      }

      reader.join(60_000);
      assertTrue(!reader.isAlive() && readFailure.get() == null, "read every acknowledgement: " + readFailure.get());
      acknowledged.putAll(cycleAcks);
      deleted.addAll(cycleDeletes);
      cycleInFlightDeletes.removeAll(cycleDeletes);
      totalAcks += cycleAcks.size();

      if ("backups".equals(cuts)) {
        incompleteCopies += checkBackups(cutsDir, dir, cycleCopies, expectedTotal, cycle, tmp);
        finishedCopies += cycleCopies.size();
      } else if (cuts != null) {
        int refused = checkCheckpoints(cutsDir, cycleCopies, expectedTotal, cycle);
        incompleteCopies += refused;
        finishedCopies += cycleCopies.size();
      }
      try (P2kv store = CrashWorkload.open(dir)) {
        assertEquals(expectedTotal, CrashWorkload.total(store), "no cross-shard transfer is torn after kill " + cycle);
        List<Path> hidden = list(dir).stream().filter(p -> p.getFileName().toString().contains("backup-staging")).toList();
        assertTrue(hidden.isEmpty(), "the open deleted what a killed backup staged in the store, after kill " + cycle + ": " + hidden);
        List<String> lost = new ArrayList<>();
        int present = 0;
        for (Map.Entry<String, String> e : cycleAcks.entrySet()) {
          byte[] v = store.get(e.getKey().getBytes(StandardCharsets.UTF_8));
          if (deleted.contains(e.getKey())) {
            assertNull(v, "acknowledged delete of " + e.getKey() + " survived kill " + cycle);
          } else if (cycleInFlightDeletes.contains(e.getKey())) {
            // The kill hit while this delete was in flight: either outcome is correct; settle it.
            if (v == null) {
              deleted.add(e.getKey());
            }
          } else if (v == null || !Arrays.equals(v, e.getValue().getBytes(StandardCharsets.UTF_8))) {
            lost.add(e.getKey() + (v == null ? " (absent)" : " (other value)"));
          } else {
            present++;
          }
        }
        if (!lost.isEmpty()) {
          String first = lost.get(0).split(" ")[0];
          preserve(dir, cycle);
          throw new AssertionError("kill " + cycle + ": acknowledged writes lost: " + lost + " while " + present
              + " others survived; child's last lines on the first: " + about(transcript, first));
        }
        for (int c = 0; c < CrashWorkload.COUNTERS; c++) {
          String key = CrashWorkload.counter(c);
          byte[] v = store.get(key.getBytes(StandardCharsets.UTF_8));
          long value = v == null ? 0 : CrashWorkload.amount(v);
          long acked = largestIncrementAck.getOrDefault(key, counterBase[c]);
          long issued = incrementsIssued.getOrDefault(key, 0L);
          if (value < acked || value > counterBase[c] + issued) {
            preserve(dir, cycle);
          }
          assertTrue(value >= acked, "kill " + cycle + ": counter " + key + " is " + value + " but " + acked + " was acknowledged");
          assertTrue(value <= counterBase[c] + issued, "kill " + cycle + ": counter " + key + " is " + value + ", more than "
              + counterBase[c] + " before the cycle plus " + issued + " increments issued: one was applied twice");
          counterBase[c] = value;
          totalIncrementAcks += largestIncrementAck.containsKey(key) ? 1 : 0;
        }
        for (Map.Entry<String, Integer> issued : lastAppendIssued.entrySet()) {
          byte[] v = store.get(issued.getKey().getBytes(StandardCharsets.UTF_8));
          int n = v == null ? 0 : v.length / 4;
          ByteBuffer b = v == null ? ByteBuffer.allocate(0) : ByteBuffer.wrap(v);
          for (int i = 0; i < n; i++) {
            assertEquals(i, b.getInt(), "kill " + cycle + ": update log " + issued.getKey() + " holds 0.." + (i - 1)
                + " then not " + i + ": an update lost, repeated or reordered");
          }
          int acked = lastAppendAck.getOrDefault(issued.getKey(), -1);
          assertTrue(n - 1 >= acked, "kill " + cycle + ": update log holds " + n + " entries but " + acked + " was acknowledged");
          assertTrue(n - 1 <= issued.getValue(), "kill " + cycle + ": update log holds " + n + " entries, only up to "
              + issued.getValue() + " issued");
          totalAppendAcks += acked + 1;
        }
        for (String prefix : rangesPut) {
          int inRange = store.range(prefix.getBytes(StandardCharsets.UTF_8), CrashWorkload.rangeEnd(prefix)).size();
          if (rangesDeleted.contains(prefix)) {
            assertEquals(0, inRange, "kill " + cycle + ": keys of " + prefix + " survived their acknowledged range delete");
          } else if (!rangesDeleting.contains(prefix)) {
            assertEquals(CrashWorkload.RANGE_KEYS, inRange, "kill " + cycle + ": acknowledged batch under " + prefix + " lost");
          }
          rangeChecks++;
        }
        for (int n = 0; n <= lastBulk.get(); n++) {
          for (int i = 0; i < CrashWorkload.BULK_KEYS; i++) {
            assertArrayEquals(CrashWorkload.amount(n), store.get(CrashWorkload.bulkKey(seed + cycle, n, i)),
                "kill " + cycle + ": unlogged bulk batch " + n + " lost after the flush that followed it returned");
          }
          bulkChecks++;
        }
        for (int n = 0; n <= lastLoad.get(); n += 2) {
          for (int i = 0; i < CrashWorkload.BULK_KEYS; i++) {
            assertArrayEquals(CrashWorkload.amount(n), store.get(CrashWorkload.bulkKey(seed + cycle, n, i)),
                "kill " + cycle + ": bulk load " + n + " lost after it returned");
          }
          loadChecks++;
        }
        byte[] probe = ("after-kill-" + cycle).getBytes(StandardCharsets.UTF_8);
        store.put(probe, probe);
        assertArrayEquals(probe, store.get(probe), "the store accepts writes after kill " + cycle);
      }
    }
    // Every acknowledgement of every cycle is still there at the end.
    try (P2kv store = CrashWorkload.open(dir)) {
      for (Map.Entry<String, String> e : acknowledged.entrySet()) {
        byte[] v = store.get(e.getKey().getBytes(StandardCharsets.UTF_8));
        if (deleted.contains(e.getKey())) {
          assertNull(v);
        } else {
          assertArrayEquals(e.getValue().getBytes(StandardCharsets.UTF_8), v);
        }
      }
    }
    assertTrue(totalAcks > cycles, "the workload made progress: " + totalAcks + " acknowledgements");
    assertTrue(totalIncrementAcks > 0 && totalAppendAcks > 0, "increments and updates were acknowledged");
    assertTrue(rangeChecks > 0 && bulkChecks > 0, "range deletes (" + rangeChecks + ") and flushed bulk batches (" + bulkChecks + ") were checked");
    assertTrue(loadChecks > 0, "bulk loads were checked");
    System.out.printf("crash test: %d kills, %d acknowledged puts, %d appending updates, %d range rounds, %d flushed"
        + " unlogged batches, %d bulk loads checked; counters at %s%n",
        cycles, totalAcks, totalAppendAcks, rangeChecks, bulkChecks, loadChecks, Arrays.toString(counterBase));
    if (cuts != null) {
      System.out.printf("crash test: %d %s finished, %d interrupted by a kill%n", finishedCopies, cuts, incompleteCopies);
      assertTrue(finishedCopies > 0, "the child finished some " + cuts);
      assertTrue(incompleteCopies > 0, "some kill interrupted one of the " + cuts);
    }
  }
}
