package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ordered reads whose sizes straddle the limit of one guard session (256 pairs: one-shot reads up
 * to it, chunked reads past it), against a {@code TreeMap} in unsigned byte order: scans, ranges
 * with a limit and iterators drained through {@code scan} with limits around 256 and its
 * multiples, from random starts, on hash and range partitioned stores, with values of sizes on
 * both sides of the iterators' scratch buffer (256 bytes) and beyond its 64 KiB cap.
 */
class SessionBoundaryScanTest {
  private static final int[] LIMITS = {1, 255, 256, 257, 511, 512, 513, 1000, 5000};

  @TempDir Path tmp;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"hash-1", "hash-4", "range-3"})
  void shouldMatchTheModelAcrossSessionBoundaries(String shards) {
    TestSeeds.run(getClass(), "shouldMatchTheModelAcrossSessionBoundaries: " + shards,
        seed -> shouldMatchTheModelAcrossSessionBoundaries(shards, seed));
  }

  private void shouldMatchTheModelAcrossSessionBoundaries(String shards, long seed) {
    Random rnd = new Random(seed);
    TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);
    try (P2kv store = OrderedReadModelTest.builder(shards).open(tmp)) {
      for (int i = 0; i < 1500; i++) {
        byte[] key = Keys.randomKey(rnd);
        int size = i % 97 == 0 ? 70_000 + rnd.nextInt(1000) : i % 7 == 0 ? 300 + rnd.nextInt(600) : rnd.nextInt(120);
        byte[] value = new byte[size];
        rnd.nextBytes(value);
        store.put(key, value);
        model.put(key, value);
      }
      for (int round = 0; round < 60; round++) {
        byte[] start = round % 5 == 0 ? null : Keys.randomKey(rnd);
        byte[] end = round % 3 == 0 ? null : Keys.randomKey(rnd);
        int limit = LIMITS[rnd.nextInt(LIMITS.length)];
        String what = "round " + round + " limit " + limit + " shards=" + shards;
        assertPairs(expected(model, start, null, limit), store.scan(start, limit), what + " scan");
        assertPairs(expected(model, start, end, limit), store.range(start, end, limit), what + " range");
        List<KeyValue> drained = new ArrayList<>();
        try (KvIterator it = store.iterator(start, end)) {
          while (drained.size() < limit && it.hasNext()) {
            drained.add(it.next());
          }
        }
        assertPairs(expected(model, start, end, limit), drained, what + " iterator");
      }
    }
  }

  /** The model's pairs in {@code [lo, hi)} (null: unbounded), at most {@code limit} (also used by OneShardScanTest). */
  static List<Map.Entry<byte[], byte[]>> expected(TreeMap<byte[], byte[]> model, byte[] lo, byte[] hi, int limit) {
    NavigableMap<byte[], byte[]> m = model;
    if (lo != null && hi != null && Keys.UNSIGNED.compare(lo, hi) >= 0) {
      return List.of();
    }
    if (lo != null) {
      m = m.tailMap(lo, true);
    }
    if (hi != null) {
      m = m.headMap(hi, false);
    }
    List<Map.Entry<byte[], byte[]>> out = new ArrayList<>();
    for (Map.Entry<byte[], byte[]> e : m.entrySet()) {
      if (out.size() >= limit) {
        break;
      }
      out.add(e);
    }
    return out;
  }

  /** Asserts that {@code actual} holds exactly the pairs of {@code expected}, in order. */
  static void assertPairs(List<Map.Entry<byte[], byte[]>> expected, List<KeyValue> actual, String what) {
    assertEquals(expected.size(), actual.size(), what + ": pair count");
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i).getKey(), actual.get(i).key(), what + ": key " + i);
      assertArrayEquals(expected.get(i).getValue(), actual.get(i).value(), what + ": value " + i);
    }
  }
}
