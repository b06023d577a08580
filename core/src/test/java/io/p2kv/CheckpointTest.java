package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link P2kv#checkpoint(Path)}: a checkpoint opens as the store at the cut, under every
 * durability mode; under concurrent cross-shard transfers and causal writers every checkpoint
 * keeps the total and never holds an effect without its cause; bad targets and incomplete copies
 * are refused with clear messages. The kill -9 cycles are in src-test ({@code CrashTest}).
 */
class CheckpointTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @EnumSource(Durability.class)
  void shouldOpenACheckpointAsExactlyTheStoreAtTheCut(Durability durability) {
    TestSeeds.run(getClass(), "shouldOpenACheckpointAsExactlyTheStoreAtTheCut: " + durability, seed -> {
      Random rnd = new Random(seed);
      TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);
      Path copy = tmp.resolve("copy");
      try (P2kv store = P2kv.builder().shards(4).durability(durability).open(tmp.resolve("store"))) {
        writeRandomly(store, model, rnd, 2000);
        store.checkpoint(copy);
        writeRandomly(store, new TreeMap<>(Keys.UNSIGNED), rnd, 500); // after the cut
      }
      assertFalse(Files.exists(copy.resolve("INCOMPLETE")), "a finished checkpoint is published");
      try (P2kv opened = P2kv.builder().open(copy)) {
        assertEquals(4, opened.shardCount());
        List<KeyValue> all = opened.range(null, null);
        assertEquals(model.size(), all.size());
        int i = 0;
        for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
          assertArrayEquals(e.getKey(), all.get(i).key());
          assertArrayEquals(e.getValue(), all.get(i++).value());
        }
        opened.put(Keys.key("writable"), Keys.key("yes"));
        assertArrayEquals(Keys.key("yes"), opened.get(Keys.key("writable")));
      }
    });
  }

  private static void writeRandomly(P2kv store, TreeMap<byte[], byte[]> model, Random rnd, int ops) {
    for (int op = 0; op < ops; op++) {
      byte[] key = Keys.key("k" + rnd.nextInt(500));
      if (rnd.nextInt(5) == 0) {
        store.delete(key);
        model.remove(key);
      } else if (rnd.nextInt(5) == 0) {
        byte[] other = Keys.key("k" + rnd.nextInt(500));
        byte[] v = Keys.randomValue(rnd, 100);
        store.write(new Batch().put(key, v).delete(other));
        model.put(key, v);
        model.remove(other);
        if (java.util.Arrays.equals(key, other)) {
          model.remove(key);
        }
      } else {
        byte[] v = Keys.randomValue(rnd, 100);
        store.put(key, v);
        model.put(key, v);
      }
    }
  }

  /**
   * 8 writers transfer between accounts on different shards and 4 writers write A then B on
   * another shard, while checkpoints are taken in a loop; every reopened checkpoint has the
   * accounts' total, no B without its A, and every pair acknowledged before it was asked for.
   * With {@code SYNC} the store recycles its logs, and from the second checkpoint on (each one
   * flushes first, which switches logs) the logs at the cut are old files written over.
   */
  @ParameterizedTest
  @EnumSource(value = Durability.class, names = {"WAL", "SYNC"})
  void shouldKeepTheGuaranteeInEveryCheckpointTakenUnderLoad(Durability durability) throws Exception {
    TestSeeds.run(getClass(), "shouldKeepTheGuaranteeInEveryCheckpointTakenUnderLoad: " + durability, seed -> {
      int checkpoints = 8;
      byte[][][] owned;
      long total;
      long[][] before = new long[checkpoints][];
      CausalPairs pairs;
      try (P2kv store = P2kv.builder().shards(4).durability(durability).open(tmp.resolve("store"))) {
        owned = Transfers.accounts(store, 8, 3);
        total = Transfers.fund(store, owned, 1000);
        Transfers.Writers transfers = new Transfers.Writers(store, owned, 1000, seed);
        pairs = new CausalPairs(store, 4);
        try {
          for (int c = 0; c < checkpoints; c++) {
            before[c] = pairs.acknowledged();
            store.checkpoint(tmp.resolve("cp" + c));
          }
        } finally {
          pairs.stop();
          transfers.stop();
        }
      }
      for (int c = 0; c < checkpoints; c++) {
        try (P2kv cp = P2kv.builder().open(tmp.resolve("cp" + c))) {
          assertEquals(total, Transfers.total(cp, owned), "total in checkpoint " + c);
          pairs.check(cp::get, before[c], "checkpoint " + c);
        }
      }
    });
  }

  /**
   * All three kinds of cut at once, under the same load (8 transfer writers, 4 causal writers): one
   * thread takes snapshots in a loop and checks each at once, while the test thread takes a
   * checkpoint and a backup in turn, so cuts of different kinds are in flight together. Every
   * snapshot, reopened checkpoint and restored backup has the accounts' total, no B without its
   * A, and every pair acknowledged before it was asked for. Fails when a checkpoint copies each
   * shard's log past its size at the cut. It is not the guard of the barrier itself (with the
   * barrier broken it passed: checkpoints slow the transfers down to a few hundred per second, so
   * few batches straddle a cut); SnapshotTest and the jcstress tests are.
   */
  @Test
  @Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void shouldKeepTheGuaranteeWithSnapshotsCheckpointsAndBackupsTakenTogether() throws Exception {
    TestSeeds.run(getClass(), "shouldKeepTheGuaranteeWithSnapshotsCheckpointsAndBackupsTakenTogether", seed -> {
      int rounds = 4;
      Path backups = tmp.resolve("backups");
      byte[][][] owned;
      long total;
      long[][] beforeCheckpoint = new long[rounds][];
      long[][] beforeBackup = new long[rounds][];
      CausalPairs pairs;
      int snapshots;
      try (P2kv store = P2kv.builder().shards(4).open(tmp.resolve("store"))) {
        owned = Transfers.accounts(store, 8, 3);
        total = Transfers.fund(store, owned, 1000);
        Transfers.Writers transfers = new Transfers.Writers(store, owned, 1000, seed);
        pairs = new CausalPairs(store, 4);
        AtomicBoolean stop = new AtomicBoolean();
        CausalPairs causal = pairs;
        CompletableFuture<Integer> snapshotter = CompletableFuture.supplyAsync(() -> {
          int n = 0;
          while (!stop.get()) {
            long[] before = causal.acknowledged();
            try (Snapshot s = store.snapshot()) {
              assertEquals(total, Transfers.total(s::multiGet, owned), "total in snapshot " + n);
              causal.check(s::get, before, "snapshot " + n);
            }
            n++;
          }
          return n;
        });
        try {
          for (int r = 0; r < rounds; r++) {
            beforeCheckpoint[r] = pairs.acknowledged();
            store.checkpoint(tmp.resolve("cp" + r));
            beforeBackup[r] = pairs.acknowledged();
            assertEquals(r + 1, store.backup(backups).id());
          }
        } finally {
          stop.set(true);
          snapshots = snapshotter.get(60, TimeUnit.SECONDS);
          pairs.stop();
          transfers.stop();
        }
        assertTrue(store.stats().cuts().count() >= snapshots + 2L * rounds, store.stats().cuts().toString());
      }
      assertTrue(snapshots > 0, "snapshots were taken meanwhile");
      for (int r = 0; r < rounds; r++) {
        try (P2kv cp = P2kv.builder().open(tmp.resolve("cp" + r))) {
          assertEquals(total, Transfers.total(cp, owned), "total in checkpoint " + r);
          pairs.check(cp::get, beforeCheckpoint[r], "checkpoint " + r);
        }
        Path restored = tmp.resolve("restored" + r);
        P2kv.restore(backups, r + 1, restored);
        try (P2kv b = P2kv.builder().open(restored)) {
          assertEquals(total, Transfers.total(b, owned), "total in backup " + (r + 1));
          pairs.check(b::get, beforeBackup[r], "backup " + (r + 1));
        }
      }
    });
  }

  @Test
  void shouldRefuseToOpenAnIncompleteCopy() throws Exception {
    Path copy = tmp.resolve("copy");
    try (P2kv store = P2kv.builder().shards(2).open(tmp.resolve("store"))) {
      store.put(Keys.key("a"), Keys.key("1"));
      store.checkpoint(copy);
    }
    // What a crash before the publishing step leaves: everything written, the marker still there.
    Files.writeString(copy.resolve("INCOMPLETE"), "interrupted");
    StoreCorruptedException e = assertThrows(StoreCorruptedException.class, () -> P2kv.builder().open(copy));
    assertTrue(e.getMessage().contains("incomplete copy") && e.getMessage().contains("INCOMPLETE"), e.getMessage());
    // An interrupted copy that got only as far as the marker is refused the same way, not created.
    Path early = Files.createDirectories(tmp.resolve("early"));
    Files.writeString(early.resolve("INCOMPLETE"), "interrupted");
    assertThrows(StoreCorruptedException.class, () -> P2kv.builder().open(early));
    assertEquals(List.of(early.resolve("INCOMPLETE")), Files.list(early).toList());
  }

  /**
   * The hidden siblings a kill leaves beside a copy ({@code .<name>.p2kv-incomplete-<pid>-<n>}) are
   * deleted by the next checkpoint into their directory, and by opening a store there, only when
   * they are p2kv's beyond doubt and their process has ended: a marked or empty directory. The
   * look-alikes stay: one of a running process (this one: a copy in progress), an unmarked
   * non-empty directory, a file, a link to a marked directory (and what it points to), a name
   * without a process id, and anything else.
   */
  @Test
  void shouldDeleteOnlyTheAbandonedLeftoversOfInterruptedCopies() throws Exception {
    Path parent = Files.createDirectories(tmp.resolve("copies"));
    long ended = endedProcessId();
    long running = ProcessHandle.current().pid();
    // A kill in StoreCopy.begin after the marker, with a shard directory begun; one before it
    // (empty); one while deleting, after the marker went (empty).
    Path staged = marked(parent.resolve(".cp1.p2kv-incomplete-" + ended + "-1a"));
    Files.createDirectories(staged.resolve("shard-000"));
    Files.writeString(staged.resolve("shard-000/000012.sst"), "sst");
    Path empty = Files.createDirectories(parent.resolve(".cp2.p2kv-incomplete-" + ended + "-2b"));
    List<Path> abandoned = List.of(staged, empty);

    Path inFlight = marked(parent.resolve(".cp3.p2kv-incomplete-" + running + "-3c"));
    Path unmarked = Files.createDirectories(parent.resolve(".cp4.p2kv-incomplete-" + ended + "-4d"));
    Files.writeString(unmarked.resolve("data"), "not ours");
    Path file = Files.writeString(parent.resolve(".cp5.p2kv-incomplete-" + ended + "-5e"), "a file");
    Path pointedTo = marked(tmp.resolve("elsewhere"));
    Path link = Files.createSymbolicLink(parent.resolve(".cp6.p2kv-incomplete-" + ended + "-6f"), pointedTo);
    Path noPid = marked(parent.resolve(".cp7.p2kv-incomplete-123456789"));
    Path other = marked(parent.resolve(".cp8"));
    Path visible = marked(parent.resolve("cp9.p2kv-incomplete-" + ended + "-9a"));
    List<Path> kept = List.of(inFlight, unmarked, file, link, pointedTo.resolve("INCOMPLETE"), noPid, other, visible);

    try (P2kv store = P2kv.builder().shards(2).open(tmp.resolve("store"))) {
      store.put(Keys.key("a"), Keys.key("1"));
      store.checkpoint(parent.resolve("cp"));
    }
    for (Path p : abandoned) {
      assertFalse(Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS), "deleted by the checkpoint: " + p);
    }
    for (Path p : kept) {
      assertTrue(Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS), "kept: " + p);
    }

    // Opening a store deletes them in its parent directory too.
    Path again = marked(parent.resolve(".cp1.p2kv-incomplete-" + ended + "-1b"));
    try (P2kv cp = P2kv.builder().open(parent.resolve("cp"))) {
      assertArrayEquals(Keys.key("1"), cp.get(Keys.key("a")));
    }
    assertFalse(Files.exists(again), "deleted by the open");
    for (Path p : kept) {
      assertTrue(Files.exists(p, java.nio.file.LinkOption.NOFOLLOW_LINKS), "kept: " + p);
    }
  }

  /** A directory holding the INCOMPLETE marker. */
  private static Path marked(Path dir) throws java.io.IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("INCOMPLETE"), "interrupted");
    return dir;
  }

  /** The id of a process that has ended (and been reaped). */
  private static long endedProcessId() throws Exception {
    Process p = new ProcessBuilder("true").start();
    assertEquals(0, p.waitFor());
    long pid = p.pid();
    assertFalse(ProcessHandle.of(pid).isPresent());
    return pid;
  }

  @Test
  void shouldRefuseBadTargets() throws Exception {
    Path storeDir = tmp.resolve("store");
    try (P2kv store = P2kv.builder().shards(2).open(storeDir)) {
      Path full = Files.createDirectories(tmp.resolve("full"));
      Files.writeString(full.resolve("x"), "x");
      IllegalArgumentException notEmpty = assertThrows(IllegalArgumentException.class, () -> store.checkpoint(full));
      assertTrue(notEmpty.getMessage().contains("not empty"), notEmpty.getMessage());
      IllegalArgumentException inside =
          assertThrows(IllegalArgumentException.class, () -> store.checkpoint(storeDir.resolve("cp")));
      assertTrue(inside.getMessage().contains("inside the store"), inside.getMessage());
      assertThrows(IllegalArgumentException.class, () -> store.checkpoint(full.resolve("x")));
      Path empty = Files.createDirectories(tmp.resolve("empty"));
      store.checkpoint(empty);
      assertTrue(Files.exists(empty.resolve("MANIFEST")));
    }
  }

  @Test
  void shouldRefuseACheckpointOfAClosedStore() {
    P2kv store = P2kv.builder().shards(2).open(tmp.resolve("store"));
    store.close();
    assertThrows(StoreClosedException.class, () -> store.checkpoint(tmp.resolve("cp")));
    assertFalse(Files.exists(tmp.resolve("cp")));
  }
}
