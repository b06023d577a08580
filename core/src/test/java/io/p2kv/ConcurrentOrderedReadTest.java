package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Ordered reads while 8 threads write, checked against the documented guarantee.
 *
 * <p>Keys come in twins: two keys on the same shard, always written together by one single-shard
 * batch with the same version (a put of both, or every fourth version a delete of both). Each
 * writer owns its twins and publishes, per twin, the version it issued (before the write) and the
 * version completed (after it returned). Every read then checks:
 *
 * <ul>
 *   <li>sorted (descending for reverse), no duplicate, within its bounds;
 *   <li>each key seen has a version no older than the one completed before the read began and no
 *       newer than the one issued when it ended ("every write completed before the call is
 *       visible; none issued after it returned is");
 *   <li>a key absent where a read covered it means a delete version lies in that same window;
 *   <li>twins, which share a shard, appear together with the same version or not at all (one
 *       point in time per shard: a single-shard batch is never torn).
 * </ul>
 */
class ConcurrentOrderedReadTest {
  private static final int WRITERS = 8;
  private static final int TWINS_PER_WRITER = 12;
  private static final int WRITES_PER_WRITER = 600;
  private static final int READERS = 2;

  @TempDir Path tmp;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"hash-3", "hash-8", "range-3"})
  void shouldKeepEveryOrderedReadSortedDuplicateFreeAndWithinTheGuaranteeWhileEightThreadsWrite(String config)
      throws Exception {
    TestSeeds.run(
        getClass(),
        "shouldKeepEveryOrderedReadSortedDuplicateFreeAndWithinTheGuaranteeWhileEightThreadsWrite: " + config,
        seed -> shouldKeepEveryOrderedReadSortedDuplicateFreeAndWithinTheGuaranteeWhileEightThreadsWrite(config, seed));
  }

  private void shouldKeepEveryOrderedReadSortedDuplicateFreeAndWithinTheGuaranteeWhileEightThreadsWrite(
      String config, long seed) throws Exception {
    Random rnd = new Random(seed);
    try (P2kv store = OrderedReadModelTest.builder(config).open(tmp)) {
      int twins = WRITERS * TWINS_PER_WRITER;
      byte[][][] twinKeys = twinKeys(store, twins, rnd);
      Map<Key, Integer> twinOf = new HashMap<>();
      TreeMap<byte[], Integer> allKeys = new TreeMap<>(Keys.UNSIGNED);
      for (int t = 0; t < twins; t++) {
        for (byte[] k : twinKeys[t]) {
          twinOf.put(new Key(k), t);
          allKeys.put(k, t);
        }
        store.write(new Batch().put(twinKeys[t][0], value(t, 1)).put(twinKeys[t][1], value(t, 1)));
      }
      AtomicLongArray issued = new AtomicLongArray(twins);
      AtomicLongArray completed = new AtomicLongArray(twins);
      for (int t = 0; t < twins; t++) {
        issued.set(t, 1);
        completed.set(t, 1);
      }
      AtomicBoolean writing = new AtomicBoolean(true);
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS + READERS);
      try {
        List<Future<Integer>> readers = new ArrayList<>();
        for (int r = 0; r < READERS; r++) {
          long readerSeed = rnd.nextLong();
          readers.add(pool.submit(() -> read(store, new Random(readerSeed), twinKeys, twinOf, allKeys, issued, completed, writing)));
        }
        List<Future<?>> writers = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
          int writer = w;
          long writerSeed = rnd.nextLong();
          writers.add(pool.submit(() -> {
            Random wr = new Random(writerSeed);
            for (int i = 0; i < WRITES_PER_WRITER; i++) {
              int t = writer * TWINS_PER_WRITER + wr.nextInt(TWINS_PER_WRITER);
              long v = issued.get(t) + 1;
              issued.set(t, v);
              Batch batch = new Batch();
              for (byte[] k : twinKeys[t]) {
                if (v % 4 == 0) {
                  batch.delete(k);
                } else {
                  batch.put(k, value(t, v));
                }
              }
              if (wr.nextInt(4) == 0) {
                store.writeAsync(batch).join();
              } else {
                store.write(batch);
              }
              completed.set(t, v);
            }
            return null;
          }));
        }
        for (Future<?> w : writers) {
          w.get(120, TimeUnit.SECONDS);
        }
        writing.set(false);
        int reads = 0;
        for (Future<Integer> r : readers) {
          reads += r.get(120, TimeUnit.SECONDS);
        }
        assertTrue(reads >= READERS, "readers ran");
      } finally {
        writing.set(false);
        pool.shutdownNow();
      }
      assertEquals(0, store.core().openIteratorCount());
    }
  }

  /** Reads until the writers are done (and at least a few times), checking each result. */
  private static int read(
      P2kv store,
      Random rnd,
      byte[][][] twinKeys,
      Map<Key, Integer> twinOf,
      TreeMap<byte[], Integer> allKeys,
      AtomicLongArray issued,
      AtomicLongArray completed,
      AtomicBoolean writing) {
    int twins = twinKeys.length;
    int reads = 0;
    while (writing.get() || reads < 5) {
      long[] before = new long[twins];
      for (int t = 0; t < twins; t++) {
        before[t] = completed.get(t);
      }
      byte[] lo = rnd.nextInt(3) == 0 ? null : randomKey(allKeys, rnd);
      byte[] hi = rnd.nextInt(3) == 0 ? null : randomKey(allKeys, rnd);
      int limit = rnd.nextBoolean() ? Integer.MAX_VALUE : 1 + rnd.nextInt(60);
      int kind = rnd.nextInt(6);
      boolean reverse = kind == 5;
      List<KeyValue> got = new ArrayList<>();
      switch (kind) {
        case 0 -> got = store.scan(lo, limit);
        case 1 -> got = store.range(lo, hi, limit);
        case 2 -> got = store.scanAsync(lo, limit).join();
        case 3 -> got = store.rangeAsync(lo, hi, limit).join();
        default -> {
          try (KvIterator it = reverse ? store.reverseIterator(lo, hi) : store.iterator(lo, hi)) {
            while (got.size() < limit && it.hasNext()) {
              got.add(it.next());
            }
          }
        }
      }
      if (kind == 0 || kind == 2) {
        hi = null;
      }
      long[] after = new long[twins];
      for (int t = 0; t < twins; t++) {
        after[t] = issued.get(t);
      }
      String what = "read " + reads + " kind " + kind + " limit " + limit;
      check(got, lo, hi, limit, reverse, twinKeys, twinOf, allKeys, before, after, what);
      reads++;
    }
    return reads;
  }

  private static void check(
      List<KeyValue> got,
      byte[] lo,
      byte[] hi,
      int limit,
      boolean reverse,
      byte[][][] twinKeys,
      Map<Key, Integer> twinOf,
      TreeMap<byte[], Integer> allKeys,
      long[] before,
      long[] after,
      String what) {
    assertTrue(got.size() <= limit, what + " limit");
    Map<Integer, Long> seen = new HashMap<>();
    byte[] prev = null;
    for (KeyValue kv : got) {
      byte[] k = kv.key();
      if (prev != null) {
        int c = Keys.UNSIGNED.compare(prev, k);
        assertTrue(reverse ? c > 0 : c < 0, what + ": out of order or duplicate");
      }
      prev = k;
      assertTrue(lo == null || Keys.UNSIGNED.compare(k, lo) >= 0, what + ": below start");
      assertTrue(hi == null || Keys.UNSIGNED.compare(k, hi) < 0, what + ": at or after end");
      Integer t = twinOf.get(new Key(k));
      if (t == null) {
        fail(what + ": a key nobody wrote");
      }
      ByteBuffer v = ByteBuffer.wrap(kv.value());
      assertEquals(t.intValue(), v.getInt(), what + ": value of another key");
      long version = v.getLong();
      assertTrue(version % 4 != 0, what + ": a deleted version");
      assertTrue(version >= before[t], what + ": twin " + t + " version " + version + " older than completed " + before[t]);
      assertTrue(version <= after[t], what + ": twin " + t + " version " + version + " newer than issued " + after[t]);
      Long other = seen.put(t, version);
      if (other != null) {
        assertEquals(other.longValue(), version, what + ": twin " + t + " torn across one shard's view");
      }
    }
    // Keys the read covered: within bounds and not beyond where a limit cut it short.
    boolean cut = got.size() == limit;
    for (Map.Entry<byte[], Integer> e : allKeys.entrySet()) {
      byte[] k = e.getKey();
      boolean inBounds = (lo == null || Keys.UNSIGNED.compare(k, lo) >= 0) && (hi == null || Keys.UNSIGNED.compare(k, hi) < 0);
      boolean reached = !cut || (reverse ? Keys.UNSIGNED.compare(k, prev) >= 0 : Keys.UNSIGNED.compare(k, prev) <= 0);
      if (!inBounds || !reached) {
        continue;
      }
      int t = e.getValue();
      boolean present = seen.containsKey(t) && containsKey(got, k);
      if (!present) {
        // Absent: a delete version (a multiple of 4) must lie in [before, after].
        assertTrue((after[t] / 4) * 4 >= before[t], what + ": twin " + t + " missing with no delete in [" + before[t] + ", " + after[t] + "]");
      }
      // Twins share a shard and a batch: both covered means both present or both absent.
      byte[] twin = Arrays.equals(twinKeys[t][0], k) ? twinKeys[t][1] : twinKeys[t][0];
      boolean twinCovered =
          (lo == null || Keys.UNSIGNED.compare(twin, lo) >= 0)
              && (hi == null || Keys.UNSIGNED.compare(twin, hi) < 0)
              && (!cut || (reverse ? Keys.UNSIGNED.compare(twin, prev) >= 0 : Keys.UNSIGNED.compare(twin, prev) <= 0));
      if (twinCovered) {
        assertEquals(present, containsKey(got, twin), what + ": twin " + t + " half visible");
      }
    }
  }

  private static boolean containsKey(List<KeyValue> got, byte[] k) {
    for (KeyValue kv : got) {
      if (Arrays.equals(kv.key(), k)) {
        return true;
      }
    }
    return false;
  }

  private static byte[][][] twinKeys(P2kv store, int twins, Random rnd) {
    Map<Integer, List<byte[]>> byShard = new HashMap<>();
    TreeMap<byte[], Boolean> used = new TreeMap<>(Keys.UNSIGNED);
    byte[][][] out = new byte[twins][][];
    int made = 0;
    while (made < twins) {
      byte[] k = new byte[1 + rnd.nextInt(8)];
      rnd.nextBytes(k);
      if (used.put(k, true) != null) {
        continue;
      }
      List<byte[]> waiting = byShard.computeIfAbsent(store.shardOf(k), s -> new ArrayList<>());
      if (waiting.isEmpty()) {
        waiting.add(k);
      } else {
        out[made++] = new byte[][] {waiting.remove(0), k};
      }
    }
    return out;
  }

  private static byte[] randomKey(TreeMap<byte[], Integer> keys, Random rnd) {
    if (rnd.nextBoolean()) {
      byte[] k = new byte[1 + rnd.nextInt(4)];
      rnd.nextBytes(k);
      return k;
    }
    int skip = rnd.nextInt(keys.size());
    for (byte[] k : keys.keySet()) {
      if (skip-- == 0) {
        return k;
      }
    }
    throw new AssertionError();
  }

  private static byte[] value(int twin, long version) {
    return ByteBuffer.allocate(12).putInt(twin).putLong(version).array();
  }

  /** A byte array as a hash key. */
  private record Key(byte[] bytes) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key other && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }
  }
}
