package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Iterators the application drops without closing them are reclaimed once the garbage collector
 * finds them unreachable: their native iterators are freed (memory and pinned files come back),
 * they leave the store's registry, they are counted in {@link StoreStats#leakedIterators()} and
 * reported; closed and still reachable iterators are never taken; and reclaiming never races the
 * store's close into a crash or a double free (issue 14).
 */
class IteratorLeakTest {
  private static final Path STATUS = Path.of("/proc/self/status");
  private static final Path FDS = Path.of("/proc/self/fd");
  private static final int KEYS = 4000;

  @TempDir Path tmp;

  private static P2kv.Builder builder(int shards) {
    return P2kv.builder().shards(shards).memoryBudgetBytes(64L << 20);
  }

  private static byte[] key(int i) {
    return Keys.key(String.format("k%06d", i));
  }

  private static void fill(P2kv store, int keys, int generation) {
    List<CompletableFuture<Void>> fs = new ArrayList<>();
    byte[] value = new byte[100];
    for (int i = 0; i < keys; i++) {
      value[0] = (byte) generation;
      fs.add(store.putAsync(key(i), value.clone()));
    }
    fs.forEach(CompletableFuture::join);
  }

  /**
   * Opens an iterator, reads a little and drops it open. A method of its own, so that no frame of
   * the caller keeps the last one reachable.
   */
  private static void abandon(P2kv store, int i) {
    KvIterator it =
        switch (i % 4) {
          case 0 -> store.iterator(null, null); // unbounded: a pooled engine iterator per shard
          case 1 -> store.reverseIterator(key(100), key(3000));
          case 2 -> store.prefixIterator(Keys.key("k001"));
          default -> store.iterator(key(i % KEYS), null);
        };
    for (int n = i % 7; n > 0 && it.hasNext(); n--) {
      it.next();
    }
  }

  /** Collects garbage until the condition holds, or fails after a minute. */
  static void awaitAfterGc(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        fail("not reclaimed within a minute: " + what);
      }
      System.gc();
      try {
        Thread.sleep(10);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
  }

  private static void awaitOpenIterators(P2kv store, int expected) {
    awaitAfterGc(
        "expected " + expected + " open iterators",
        () -> store.core().openIteratorCount() == expected);
  }

  /** Resident set size in KiB, or -1 without /proc. */
  private static long rssKib() {
    if (!Files.exists(STATUS)) {
      return -1;
    }
    try (Stream<String> lines = Files.lines(STATUS)) {
      return lines
          .filter(l -> l.startsWith("VmRSS:"))
          .mapToLong(l -> Long.parseLong(l.replaceAll("[^0-9]", "")))
          .findFirst()
          .orElse(-1);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Open file descriptors of this process, or -1 without /proc. */
  private static long openFiles() {
    if (!Files.isDirectory(FDS)) {
      return -1;
    }
    try (Stream<Path> fds = Files.list(FDS)) {
      return fds.count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Test
  void shouldReclaimAbandonedIteratorsSoThatMemoryAndFilesStayBounded() {
    int rounds = 20;
    int perRound = 1000;
    try (P2kv store = builder(4).open(tmp)) {
      fill(store, KEYS, 0);
      store.flush();
      System.gc();
      long rssBefore = rssKib();
      long filesBefore = openFiles();
      long peakRss = rssBefore;
      for (int round = 0; round < rounds; round++) {
        for (int i = 0; i < perRound; i++) {
          abandon(store, round * perRound + i);
          if (i == perRound / 2 && round % 4 == 3) {
            // Half of this round's iterators are unreachable but not yet reclaimed: their views
            // pin the files this rewrite and compaction make obsolete.
            fill(store, KEYS, round);
            store.compact();
          }
        }
        awaitOpenIterators(store, 0);
        peakRss = Math.max(peakRss, rssKib());
      }
      awaitAfterGc("all leaks counted", () -> store.stats().leakedIterators() == (long) rounds * perRound);
      // Each leak is counted once: another collection changes nothing.
      System.gc();
      assertEquals((long) rounds * perRound, store.stats().leakedIterators());
      assertEquals(0, store.core().openIteratorCount());
      assertEquals(KEYS, store.range(null, null).size(), "the store still reads");

      long rssAfter = rssKib();
      long filesAfter = openFiles();
      System.out.printf(
          "IteratorLeakTest: %d abandoned iterators reclaimed; RSS %d -> %d KiB (peak %d, growth %d KiB);"
              + " open files %d -> %d%n",
          rounds * perRound, rssBefore, rssAfter, peakRss, rssAfter - rssBefore, filesBefore, filesAfter);
      Assumptions.assumeTrue(rssBefore > 0, "no /proc/self/status: RSS not checked");
      // Leaked, 20,000 iterators would hold about 55 KB of native memory each: over 1 GB.
      assertTrue(rssAfter - rssBefore < 150L << 10, "RSS grew by " + (rssAfter - rssBefore) + " KiB");
      // Leaked, the iterators would pin every generation of files the compactions replaced.
      assertTrue(filesAfter - filesBefore < 16, "open files " + filesBefore + " -> " + filesAfter);
    }
  }

  @Test
  void shouldNeverReclaimAClosedIteratorOrOneStillReachable() {
    try (P2kv store = builder(3).open(tmp)) {
      fill(store, 1000, 0);
      KvIterator kept = store.iterator(null, null);
      for (int i = 0; i < 10; i++) {
        assertEquals(i, Integer.parseInt(new String(kept.next().key(), StandardCharsets.UTF_8).substring(1)));
      }
      for (int i = 0; i < 500; i++) {
        try (KvIterator it = i % 2 == 0 ? store.iterator(key(i), null) : store.reverseIterator(null, key(i))) {
          it.hasNext();
        }
      }
      for (int i = 0; i < 300; i++) {
        abandon(store, i);
      }
      awaitOpenIterators(store, 1);
      awaitAfterGc("300 leaks counted", () -> store.stats().leakedIterators() == 300);
      for (int gc = 0; gc < 5; gc++) {
        System.gc();
        assertEquals(1, store.core().openIteratorCount(), "the reachable iterator stays open");
      }
      assertEquals(300, store.stats().leakedIterators(), "closed iterators are not leaks");

      // The kept iterator carries on where it stopped, and seeks.
      int rest = 0;
      while (kept.hasNext()) {
        kept.next();
        rest++;
      }
      assertEquals(990, rest);
      kept.seek(key(500));
      assertEquals("k000500", new String(kept.next().key(), StandardCharsets.UTF_8));
      kept.close();
      for (int gc = 0; gc < 3; gc++) {
        System.gc();
      }
      assertEquals(0, store.core().openIteratorCount());
      assertEquals(300, store.stats().leakedIterators(), "a closed iterator is not counted once collected");
    }
  }

  @Test
  void shouldLogEachLeakWithWhereTheIteratorWasCreatedWhenLeakDetectionIsOn() {
    try (P2kv store = builder(2).leakDetection(true).open(tmp)) {
      fill(store, 100, 0);
      LeakLog leaks = LeakLog.of(store);
      List<String> messages = leaks.messages;
      List<Throwable> traces = leaks.traces;
      for (int i = 0; i < 5; i++) {
        abandon(store, i);
      }
      awaitOpenIterators(store, 0);
      awaitAfterGc("5 leaks seen", () -> messages.size() == 5);
      System.gc();
      assertEquals(5, store.stats().leakedIterators());
      assertEquals(5, messages.size(), "each leak is reported once");
      for (int i = 0; i < 5; i++) {
        assertTrue(messages.get(i).contains(store.dir().toString()), messages.get(i));
        Throwable trace = traces.get(i);
        assertNotNull(trace, "the creation site was recorded");
        StringWriter text = new StringWriter();
        trace.printStackTrace(new PrintWriter(text));
        assertTrue(
            text.toString().contains("shouldLogEachLeakWithWhereTheIteratorWasCreatedWhenLeakDetectionIsOn"),
            "the logged trace names the test method: " + text);
        assertTrue(text.toString().contains("P2kv."), "and the API call that opened it: " + text);
      }
    }
  }

  @Test
  void shouldLogOnlyTheFirstLeakWithAHintAndCountTheRestWhenLeakDetectionIsOff() {
    try (P2kv store = builder(2).open(tmp)) {
      fill(store, 100, 0);
      LeakLog leaks = LeakLog.of(store);
      List<String> messages = leaks.messages;
      List<Throwable> traces = leaks.traces;
      for (int i = 0; i < 100; i++) {
        abandon(store, i);
      }
      awaitOpenIterators(store, 0);
      awaitAfterGc("100 leaks seen", () -> messages.size() == 100);
      assertEquals(100, store.stats().leakedIterators());
      List<String> logged = messages.stream().filter(m -> m != null).toList();
      assertEquals(1, logged.size(), "only the first leak is logged: " + logged);
      assertNotNull(messages.get(0), "the first one");
      assertTrue(logged.get(0).contains("leakDetection(true)"), logged.get(0));
      assertTrue(traces.stream().allMatch(t -> t == null), "nothing is captured when leak detection is off");
    }
  }

  /** Waits, without collecting garbage, until the condition holds or the time is up. */
  private static void spinUntil(BooleanSupplier condition, long millis) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
    while (!condition.getAsBoolean() && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
  }

  /**
   * Closing the store while dropped iterators wait for the cleaner, or while the cleaner is
   * reclaiming them: every dropped iterator is freed exactly once, either by the cleaner (counted
   * as a leak) or by the close (counted as left open), never after its engine closed; nothing
   * crashes and the store reopens intact.
   */
  @Test
  void shouldCloseTheStoreSafelyWhileDroppedIteratorsAwaitOrUndergoCleaning() throws Exception {
    for (int round = 0; round < 12; round++) {
      Path dir = tmp.resolve("round-" + round);
      int shards = 1 + round % 4;
      P2kv store = builder(shards).leakDetection(round % 4 == 1).open(dir);
      fill(store, 500, 0);
      AtomicInteger reclaimed = new AtomicInteger();
      store.core().onIteratorLeak((message, createdAt) -> reclaimed.incrementAndGet());
      int dropped = 1000 + 100 * round;
      for (int i = 0; i < dropped; i++) {
        abandon(store, i);
      }
      AtomicBoolean stop = new AtomicBoolean();
      Thread collector = new Thread(() -> {
        while (!stop.get()) {
          System.gc();
        }
      });
      switch (round % 3) {
        case 0 -> store.close(); // the cleaner finds them after the close
        case 1 -> { // the store closes while the cleaner works through them
          System.gc();
          spinUntil(() -> reclaimed.get() > 0, 5_000);
          store.close();
        }
        default -> { // collections keep handing them to the cleaner while the store closes
          collector.start();
          int some = 10 * round;
          spinUntil(() -> reclaimed.get() > some, 5_000);
          store.close();
        }
      }
      awaitAfterGc(
          "round " + round + ": each dropped iterator freed once",
          () -> reclaimed.get() + store.core().iteratorsClosedByClose() >= dropped);
      stop.set(true);
      if (collector.isAlive()) {
        collector.join();
      }
      for (int gc = 0; gc < 3; gc++) {
        System.gc();
        Thread.sleep(10);
      }
      assertEquals(dropped, reclaimed.get() + store.core().iteratorsClosedByClose(),
          "round " + round + ": reclaimed " + reclaimed.get() + ", closed by the store "
              + store.core().iteratorsClosedByClose());
      assertEquals(0, store.core().openIteratorCount(), "round " + round);
      assertTrue(store.core().isClosed());
      try (P2kv reopened = builder(shards).open(dir)) {
        assertEquals(500, reopened.range(null, null).size(), "round " + round + ": the store reopens intact");
      }
    }
  }

  /** What the store reports of its leaks: each leak's log message (null if not logged) and creation trace. */
  private record LeakLog(List<String> messages, List<Throwable> traces) {
    static LeakLog of(P2kv store) {
      LeakLog log = new LeakLog(Collections.synchronizedList(new ArrayList<>()), Collections.synchronizedList(new ArrayList<>()));
      store.core().onIteratorLeak((message, createdAt) -> {
        log.messages.add(message);
        log.traces.add(createdAt);
      });
      return log;
    }
  }
}
