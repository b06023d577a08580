package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@link P2kv#snapshot()}: reads at the cut against a model, the consistent-cut guarantee under
 * concurrent writers (cross-shard transfers keep their total; no effect without its cause), and
 * the life cycle (close, use after close, store close, leaks).
 */
class SnapshotTest {
  @TempDir Path tmp;

  private static byte[] amount(long v) {
    return Transfers.amount(v);
  }

  private static long amount(byte[] v) {
    return Transfers.amount(v);
  }

  // ---------------------------------------------------------------- reads against a model

  /**
   * Random puts, deletes and batches against a TreeMap in unsigned order; at random moments a
   * snapshot and a copy of the model are kept. Once the writes are done, every kept snapshot must
   * read exactly its copy through every read method. With the value cache on, live reads fill it
   * with later values, which a snapshot must not return.
   */
  @ParameterizedTest
  @ValueSource(longs = {0, 8L << 20})
  void shouldReadExactlyTheModelStateAtTheCut(long cacheBytes) {
    TestSeeds.run(getClass(), "shouldReadExactlyTheModelStateAtTheCut: cacheBytes=" + cacheBytes, seed -> {
      Random rnd = new Random(seed);
      TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);
      List<Snapshot> snapshots = new ArrayList<>();
      List<NavigableMap<byte[], byte[]>> states = new ArrayList<>();
      try (P2kv store = P2kv.builder().shards(4).cacheBytes(cacheBytes).open(tmp)) {
        for (int op = 0; op < 3000; op++) {
          byte[] key = Keys.key("k" + rnd.nextInt(300));
          int what = rnd.nextInt(10);
          if (what < 6) {
            byte[] value = Keys.randomValue(rnd, 40);
            store.put(key, value);
            model.put(key, value);
          } else if (what < 8) {
            store.delete(key);
            model.remove(key);
          } else {
            Batch batch = new Batch();
            for (int i = 0; i < 4; i++) {
              byte[] k = Keys.key("k" + rnd.nextInt(300));
              byte[] v = Keys.randomValue(rnd, 40);
              batch.put(k, v);
              model.put(k, v);
            }
            store.write(batch);
          }
          store.get(key); // fills the value cache with the latest value
          if (rnd.nextInt(300) == 0) {
            snapshots.add(store.snapshot());
            states.add(new TreeMap<>(model));
          }
        }
        snapshots.add(store.snapshot());
        states.add(new TreeMap<>(model));
        for (int i = 0; i < snapshots.size(); i++) {
          try (Snapshot s = snapshots.get(i)) {
            assertReadsEqual(states.get(i), s, rnd);
          }
        }
      }
    });
  }

  private static void assertReadsEqual(NavigableMap<byte[], byte[]> expected, Snapshot s, Random rnd) {
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      byte[] k = Keys.key("k" + i);
      keys.add(k);
      assertArrayEquals(expected.get(k), s.get(k), "get k" + i);
    }
    List<byte[]> values = s.multiGet(keys);
    for (int i = 0; i < keys.size(); i++) {
      assertArrayEquals(expected.get(keys.get(i)), values.get(i), "multiGet k" + i);
    }
    assertPairs(expected, s.range(null, null));
    assertPairs(expected, s.scan(null, 10_000));
    byte[] from = Keys.key("k" + rnd.nextInt(300));
    byte[] to = Keys.key("k" + rnd.nextInt(300));
    if (Keys.UNSIGNED.compare(from, to) > 0) {
      byte[] t = from;
      from = to;
      to = t;
    }
    assertPairs(expected.subMap(from, true, to, false), s.range(from, to, 10_000));
    assertPairs(headOf(expected.tailMap(from, true), 7), s.scan(from, 7));
    try (KvIterator it = s.iterator(from, null)) {
      assertPairs(expected.tailMap(from, true), drain(it));
    }
    try (KvIterator it = s.reverseIterator(null, to)) {
      assertPairs(expected.headMap(to, false).descendingMap(), drain(it));
    }
    try (KvIterator it = s.prefixIterator(Keys.key("k1"))) {
      assertPairs(expected.subMap(Keys.key("k1"), true, Keys.key("k2"), false), drain(it));
    }
  }

  private static NavigableMap<byte[], byte[]> headOf(NavigableMap<byte[], byte[]> map, int n) {
    TreeMap<byte[], byte[]> out = new TreeMap<>(Keys.UNSIGNED);
    for (Map.Entry<byte[], byte[]> e : map.entrySet()) {
      if (out.size() == n) {
        break;
      }
      out.put(e.getKey(), e.getValue());
    }
    return out;
  }

  private static List<KeyValue> drain(Iterator<KeyValue> it) {
    List<KeyValue> out = new ArrayList<>();
    it.forEachRemaining(out::add);
    return out;
  }

  private static void assertPairs(Map<byte[], byte[]> expected, List<KeyValue> actual) {
    assertEquals(expected.size(), actual.size(), "number of pairs");
    int i = 0;
    for (Map.Entry<byte[], byte[]> e : expected.entrySet()) {
      assertArrayEquals(e.getKey(), actual.get(i).key(), "key " + i);
      assertArrayEquals(e.getValue(), actual.get(i).value(), "value " + i);
      i++;
    }
  }

  // ---------------------------------------------------------------- the guarantee under load

  /**
   * 8 writers transfer amounts between accounts on different shards with cross-shard batches while
   * snapshots are taken in a loop: the total must be the same in every snapshot. Each writer owns
   * three accounts, one per shard of three, so it knows their balances without reading. Fails if
   * the barrier parts are not enqueued under the cross-shard lock (a batch then straddles the cut).
   */
  @Test
  void shouldKeepTheTotalOfCrossShardTransfersInEverySnapshot() throws Exception {
    TestSeeds.run(getClass(), "shouldKeepTheTotalOfCrossShardTransfersInEverySnapshot", seed -> {
      try (P2kv store = P2kv.builder().shards(4).open(tmp)) {
        byte[][][] owned = Transfers.accounts(store, 8, 3);
        long total = Transfers.fund(store, owned, 1000);
        Transfers.Writers writers = new Transfers.Writers(store, owned, 1000, seed);
        try {
          for (int round = 0; round < 300; round++) {
            try (Snapshot s = store.snapshot()) {
              long sum = 0;
              for (byte[][] mine : owned) {
                for (byte[] v : s.multiGet(List.of(mine))) {
                  sum += Transfers.amount(v);
                }
              }
              assertEquals(total, sum, "total of a snapshot's multiGets, round " + round);
              long scanned = 0;
              try (KvIterator it = s.prefixIterator(Transfers.PREFIX)) {
                while (it.hasNext()) {
                  scanned += Transfers.amount(it.next().value());
                }
              }
              assertEquals(total, scanned, "total of a snapshot's scan, round " + round);
            }
          }
        } finally {
          writers.stop();
        }
        assertTrue(store.stats().shards().stream().mapToLong(ShardStats::crossShardParts).sum() > 0);
      }
    });
  }

  /**
   * The causal half of the guarantee: each writer puts a counter to key A, and after that put
   * returned, the same counter to key B on another shard. No snapshot may hold B's counter without
   * A's (A's counter must be at least B's), and every pair acknowledged before the snapshot was
   * asked for must be in it. Fails when each worker takes its view on reaching the barrier instead
   * of waiting for all the others.
   */
  @Test
  void shouldNeverShowAnEffectWithoutItsCause() throws Exception {
    TestSeeds.run(getClass(), "shouldNeverShowAnEffectWithoutItsCause", seed -> {
      try (P2kv store = P2kv.builder().shards(4).open(tmp)) {
        CausalPairs pairs = new CausalPairs(store, 8);
        try {
          for (int round = 0; round < 2000; round++) {
            long[] before = pairs.acknowledged();
            try (Snapshot s = store.snapshot()) {
              pairs.check(s::get, before, "snapshot " + round);
            }
          }
        } finally {
          pairs.stop();
        }
      }
    });
  }

  /**
   * Snapshots pin versions, not workers: with 200 snapshots open, writes keep completing, each
   * snapshot still reads its own cut, and closing them all releases them.
   */
  @Test
  void shouldKeepWritingWhileManySnapshotsAreOpen() throws Exception {
    try (P2kv store = P2kv.builder().shards(4).open(tmp)) {
      byte[] key = Keys.key("counter");
      List<Snapshot> open = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        store.put(key, amount(i));
        open.add(store.snapshot());
      }
      List<CompletableFuture<Void>> writes = new ArrayList<>();
      for (int i = 0; i < 10_000; i++) {
        writes.add(store.putAsync(Keys.key("w" + i), amount(i)));
      }
      CompletableFuture.allOf(writes.toArray(new CompletableFuture<?>[0])).get(60, TimeUnit.SECONDS);
      for (int i = 0; i < open.size(); i++) {
        assertEquals(i, amount(open.get(i).get(key)));
        assertNull(open.get(i).get(Keys.key("w0")));
      }
      assertEquals(200 + 0, store.core().openIteratorCount(), "open snapshots are registered");
      for (Snapshot s : open) {
        s.close();
      }
      assertEquals(0, store.core().openIteratorCount());
    }
  }

  /**
   * A barrier that cannot be enqueued (shard 1's queue is full, fail-fast) cancels the cut: the
   * call fails with the cause, shard 0's worker, already waiting at its barrier, is released and
   * serves its queue, and once shard 1 drains a snapshot succeeds. Without the cancel, shard 0
   * would wait at its barrier for ever.
   */
  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void shouldFailASnapshotWhoseBarrierCannotBeQueuedAndReleaseTheOtherWorkers() throws Exception {
    FaultyEngines engines = new FaultyEngines();
    engines.faults.put(1, FaultyEngines.Fault.BLOCK_WRITES);
    try (P2kv store = engines.builder(2).queueCapacity(2).queueFullPolicy(QueueFullPolicy.FAIL_FAST).open(tmp)) {
      byte[][] keys = FaultTest.oneKeyPerShard(store, "k");
      CompletableFuture<Void> blocked = store.putAsync(keys[1], Keys.key("v"));
      assertTrue(engines.blocked.await(30, TimeUnit.SECONDS), "shard 1's worker is inside a blocked write");
      List<CompletableFuture<Void>> queued = List.of(store.putAsync(keys[1], Keys.key("a")), store.putAsync(keys[1], Keys.key("b")));

      QueueFullException e = assertThrows(QueueFullException.class, store::snapshot);
      assertTrue(e.getMessage().contains("shard 1"), e.getMessage());
      store.putAsync(keys[0], Keys.key("after")).get(30, TimeUnit.SECONDS); // shard 0 is not held
      assertEquals(0, store.core().openIteratorCount());

      engines.faults.put(1, FaultyEngines.Fault.NONE);
      engines.release.countDown();
      blocked.get(30, TimeUnit.SECONDS);
      for (CompletableFuture<Void> f : queued) {
        f.get(30, TimeUnit.SECONDS);
      }
      try (Snapshot s = store.snapshot()) {
        assertArrayEquals(Keys.key("after"), s.get(keys[0]));
        assertArrayEquals(Keys.key("b"), s.get(keys[1]));
      }
    }
  }

  // ---------------------------------------------------------------- hold time in the stats

  /**
   * {@link StoreStats#cuts()}: nothing before the first cut; a cut counts the time from the first
   * worker reaching its barrier until the last went on. Shard 1's worker is held inside an update
   * function; a snapshot's barrier is queued behind it (and shard 0's before it, under the same
   * lock), and shard 0's worker takes its own barrier off its queue. The function is released only
   * {@value #HOLD_MS} ms after that, so the cut held shard 0's writers at least that long (a put on
   * shard 0 meanwhile waits: the stall itself). A checkpoint then counts as a second cut.
   */
  @Test
  @Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
  void shouldCountHowLongCutsHeldTheWriters() throws Exception {
    try (P2kv store = P2kv.builder().shards(2).open(tmp.resolve("store"))) {
      assertEquals(CutStats.NONE, store.stats().cuts());
      byte[][] keys = FaultTest.oneKeyPerShard(store, "k");
      CountDownLatch entered = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      CompletableFuture<byte[]> busy = store.updateAsync(keys[1], v -> {
        entered.countDown();
        CloseTest.awaitQuietly(release);
        return Keys.key("1");
      });
      assertTrue(entered.await(30, TimeUnit.SECONDS), "shard 1's worker is inside the function");
      long called = System.nanoTime();
      CompletableFuture<Snapshot> snapshot = CompletableFuture.supplyAsync(store::snapshot);
      // Two stats() calls apart: one call reads shard 0's depth before shard 1's.
      awaitCondition("shard 1's barrier queued", () -> store.stats().shards().get(1).queueDepth() == 1);
      awaitCondition("shard 0's barrier taken", () -> store.stats().shards().get(0).queueDepth() == 0);
      long arrived = System.nanoTime();
      CompletableFuture<Void> stalled = store.putAsync(keys[0], Keys.key("behind"));
      long holdNanos = TimeUnit.MILLISECONDS.toNanos(HOLD_MS);
      while (System.nanoTime() - arrived < holdNanos) {
        LockSupport.parkNanos(holdNanos);
      }
      assertFalse(stalled.isDone(), "a put on shard 0 waits while its worker is at the barrier");
      release.countDown();
      try (Snapshot s = snapshot.get(30, TimeUnit.SECONDS)) {
        assertNull(s.get(keys[0]), "the put queued behind the barrier is not in the cut");
        assertArrayEquals(Keys.key("1"), s.get(keys[1]), "the function queued ahead of it is");
      }
      busy.get(30, TimeUnit.SECONDS);
      stalled.get(30, TimeUnit.SECONDS);
      long elapsed = System.nanoTime() - called;

      CutStats one = store.stats().cuts();
      assertEquals(1, one.count());
      assertEquals(one.maxHoldNanos(), one.totalHoldNanos());
      // At least the hold, less a margin for the instant between shard 0's worker taking the
      // barrier off its queue (what the test sees) and arriving at it (what the cut times).
      assertTrue(one.maxHoldNanos() >= holdNanos / 2, "held " + one.maxHoldNanos() + " ns, at least " + holdNanos + " expected");
      assertTrue(one.maxHoldNanos() <= elapsed, "held " + one.maxHoldNanos() + " ns, longer than the call took: " + elapsed);

      store.checkpoint(tmp.resolve("copy"));
      CutStats two = store.stats().cuts();
      assertEquals(2, two.count());
      long second = two.totalHoldNanos() - one.totalHoldNanos();
      assertTrue(second > 0 && second <= two.maxHoldNanos(), "second cut held " + second + " ns; " + two);
      assertEquals(Math.max(one.maxHoldNanos(), second), two.maxHoldNanos());
      assertEquals(two.totalHoldNanos() / 2.0, two.meanHoldNanos(), 1e-6);
    }
  }

  private static final long HOLD_MS = 100;

  /** Polls until the condition holds (each poll a stats() call), or fails after 30 s. */
  private static void awaitCondition(String what, BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        fail("not within 30 s: " + what);
      }
      Thread.yield();
    }
  }

  // ---------------------------------------------------------------- life cycle

  @Test
  void shouldRefuseUseAfterCloseAndKeepIteratorsOpenedBefore() {
    try (P2kv store = P2kv.builder().shards(2).open(tmp)) {
      store.put(Keys.key("a"), Keys.key("1"));
      Snapshot s = store.snapshot();
      KvIterator it = s.iterator(null, null);
      store.put(Keys.key("b"), Keys.key("2"));
      s.close();
      s.close(); // idempotent
      IllegalStateException e = assertThrows(IllegalStateException.class, () -> s.get(Keys.key("a")));
      assertEquals("snapshot is closed", e.getMessage());
      assertThrows(IllegalStateException.class, () -> s.multiGet(List.of(Keys.key("a"))));
      assertThrows(IllegalStateException.class, () -> s.scan(null, 1));
      assertThrows(IllegalStateException.class, () -> s.iterator(null, null));
      List<KeyValue> seen = drain(it);
      assertEquals(1, seen.size(), "the iterator keeps the snapshot's view after the snapshot closed");
      assertArrayEquals(Keys.key("a"), seen.get(0).key());
      it.close();
      assertEquals(0, store.core().openIteratorCount());
    }
  }

  @Test
  void shouldCloseOpenSnapshotsWhenTheStoreCloses() {
    P2kv store = P2kv.builder().shards(2).open(tmp);
    store.put(Keys.key("a"), Keys.key("1"));
    Snapshot s = store.snapshot();
    KvIterator it = s.iterator(null, null);
    store.close();
    assertEquals(2, store.core().iteratorsClosedByClose(), "the snapshot and its iterator");
    assertThrows(StoreClosedException.class, () -> s.get(Keys.key("a")));
    assertThrows(StoreClosedException.class, it::hasNext);
    s.close();
    assertThrows(StoreClosedException.class, store::snapshot);
  }

  @Test
  void shouldRefuseASnapshotFromAWorkerThread() throws Exception {
    try (P2kv store = P2kv.builder().shards(2).open(tmp)) {
      CompletableFuture<Throwable> thrown = new CompletableFuture<>();
      // A callback always runs on the worker thread (a future's stage may run on the caller's).
      store.putAsync(Keys.key("a"), Keys.key("1"), (ignored, error) -> {
        try {
          store.snapshot().close();
          thrown.complete(null);
        } catch (RuntimeException e) {
          thrown.complete(e);
        }
      });
      Throwable t = thrown.get(60, TimeUnit.SECONDS);
      assertTrue(t instanceof IllegalStateException && t.getMessage().contains("worker thread"), String.valueOf(t));
    }
  }

  @Test
  void shouldReclaimASnapshotDroppedOpen() {
    try (P2kv store = P2kv.builder().shards(2).leakDetection(true).open(tmp)) {
      store.put(Keys.key("a"), Keys.key("1"));
      abandon(store);
      IteratorLeakTest.awaitAfterGc("the dropped snapshot", () -> store.core().leakedSnapshots() == 1);
      assertEquals(0, store.core().openIteratorCount());
      assertEquals(0, store.stats().leakedIterators(), "snapshots are counted apart from iterators");
      assertEquals(1, store.stats().leakedSnapshots());
    }
  }

  /** A method of its own, so that no frame of the caller keeps the snapshot reachable. */
  private static void abandon(P2kv store) {
    Snapshot s = store.snapshot();
    assertArrayEquals(Keys.key("1"), s.get(Keys.key("a")));
  }

}
