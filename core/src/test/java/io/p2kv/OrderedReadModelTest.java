package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Ordered reads against a {@code TreeMap} in unsigned byte order: random puts, overwrites,
 * deletes and single-shard batches interleaved with every kind of ordered read (scan, range with
 * and without limit, async variants, forward, reverse and prefix iterators with random seeks), over
 * binary keys rich in 0x00 and 0xFF, with bounds that are absent, equal to stored keys, inverted or
 * empty, and limits of 0. Then the same after a reopen.
 */
class OrderedReadModelTest {
  private static final int OPS = 1500;
  private static final HexFormat HEX = HexFormat.of();

  @TempDir Path tmp;

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"hash-1", "hash-3", "hash-8", "range-3", "range-8"})
  void shouldMatchTheModelForEveryKindOfOrderedRead(String shards) {
    TestSeeds.run(getClass(), "shouldMatchTheModelForEveryKindOfOrderedRead: " + shards,
        seed -> shouldMatchTheModelForEveryKindOfOrderedRead(shards, seed));
  }

  private void shouldMatchTheModelForEveryKindOfOrderedRead(String shards, long seed) {
    Random rnd = new Random(seed);
    List<byte[]> pool = keyPool(rnd);
    TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);
    try (P2kv store = builder(shards).open(tmp)) {
      for (int op = 0; op < OPS; op++) {
        String what = "op " + op + " shards=" + shards;
        int kind = rnd.nextInt(20);
        if (kind < 5) {
          byte[] key = pick(pool, rnd);
          byte[] value = Keys.randomValue(rnd, 40);
          store.put(key, value);
          model.put(key, value);
        } else if (kind < 7) {
          byte[] key = pick(pool, rnd);
          store.delete(key);
          model.remove(key);
        } else if (kind < 9) {
          store.write(sameShardBatch(store, pool, rnd, model));
        } else if (kind < 10) {
          byte[] key = pick(pool, rnd);
          byte[] value = Keys.randomValue(rnd, 40);
          store.putAsync(key, value).join();
          model.put(key, value);
        } else {
          checkRandomRead(store, model, pool, rnd, kind, what);
        }
      }
      checkEverything(store, model, "before reopen");
    }
    try (P2kv store = builder(shards).open(tmp)) {
      checkEverything(store, model, "after reopen");
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"hash-1", "hash-3", "hash-8", "range-3", "range-8"})
  void shouldKeepTheViewAnIteratorWasCreatedWithWhileWritesContinue(String shards) {
    TestSeeds.run(getClass(), "shouldKeepTheViewAnIteratorWasCreatedWithWhileWritesContinue: " + shards,
        seed -> shouldKeepTheViewAnIteratorWasCreatedWithWhileWritesContinue(shards, seed));
  }

  private void shouldKeepTheViewAnIteratorWasCreatedWithWhileWritesContinue(String shards, long seed) {
    Random rnd = new Random(seed);
    List<byte[]> pool = keyPool(rnd);
    TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);
    try (P2kv store = builder(shards).open(tmp)) {
      for (int round = 0; round < 30; round++) {
        for (int i = 0; i < 20; i++) {
          byte[] key = pick(pool, rnd);
          byte[] value = Keys.randomValue(rnd, 20);
          store.put(key, value);
          model.put(key, value);
        }
        boolean reverse = rnd.nextBoolean();
        byte[] lo = rnd.nextInt(3) == 0 ? null : pick(pool, rnd);
        byte[] hi = rnd.nextInt(3) == 0 ? null : pick(pool, rnd);
        NavigableMap<byte[], byte[]> view = bounded(new TreeMap<>(model), lo, hi);
        try (KvIterator it = reverse ? store.reverseIterator(lo, hi) : store.iterator(lo, hi)) {
          // Writes after creation, including to keys still ahead of the cursor, stay invisible.
          for (int i = 0; i < 30; i++) {
            byte[] key = pick(pool, rnd);
            if (rnd.nextBoolean()) {
              store.delete(key);
              model.remove(key);
            } else {
              byte[] value = Keys.randomValue(rnd, 20);
              store.put(key, value);
              model.put(key, value);
            }
          }
          checkIterator(it, view, reverse, rnd, "round " + round + " shards=" + shards);
        }
      }
    }
  }

  @Test
  void shouldRejectBadArgumentsAtOnce() {
    try (P2kv store = builder(2).open(tmp)) {
      byte[] tooLong = new byte[P2kv.MAX_KEY_BYTES + 1];
      assertThrows(IllegalArgumentException.class, () -> store.scan(null, -1));
      assertThrows(IllegalArgumentException.class, () -> store.range(null, null, -1));
      assertThrows(IllegalArgumentException.class, () -> store.scanAsync(null, -1));
      assertThrows(IllegalArgumentException.class, () -> store.rangeAsync(null, null, -1));
      assertThrows(IllegalArgumentException.class, () -> store.scan(tooLong, 1));
      assertThrows(IllegalArgumentException.class, () -> store.range(null, tooLong));
      assertThrows(IllegalArgumentException.class, () -> store.iterator(tooLong, null));
      assertThrows(IllegalArgumentException.class, () -> store.reverseIterator(null, tooLong));
      assertThrows(NullPointerException.class, () -> store.prefixIterator(null));
      try (KvIterator it = store.iterator(null, null)) {
        assertThrows(NullPointerException.class, () -> it.seek(null));
        assertThrows(IllegalArgumentException.class, () -> it.seek(tooLong));
        assertThrows(NoSuchElementException.class, it::next);
      }
      assertEquals(0, store.core().openIteratorCount(), "iterators closed by try-with-resources are forgotten");
    }
  }

  @Test
  void shouldTreatBoundsAsStartInclusiveEndExclusiveAndLimitZeroAsEmpty() {
    try (P2kv store = builder(3).open(tmp)) {
      byte[] a = {0x00};
      byte[] b = {0x00, 0x00};
      byte[] c = {(byte) 0x80};
      byte[] d = {(byte) 0xFF};
      byte[] e = {(byte) 0xFF, (byte) 0xFF};
      for (byte[] k : List.of(new byte[0], a, b, c, d, e)) {
        store.put(k, k.length == 0 ? new byte[] {42} : k);
      }
      assertEquals(List.of(new byte[0], a, b, c, d, e).size(), store.range(null, null).size());
      assertKeys(List.of(b, c), store.range(b, d), "start inclusive, end exclusive");
      assertKeys(List.of(new byte[0], a), store.range(new byte[0], b), "the empty key is the smallest");
      assertKeys(List.of(), store.range(d, b), "start after end");
      assertKeys(List.of(), store.range(c, c), "start equal to end");
      assertKeys(List.of(), store.range(null, new byte[0]), "nothing is below the empty key");
      assertKeys(List.of(), store.scan(null, 0), "limit 0");
      assertKeys(List.of(d, e), store.scan(d, 10), "scan from a stored key");
      assertKeys(List.of(e), store.scan(new byte[] {(byte) 0xFF, 0x00}, 10), "scan from between keys");
      assertKeys(List.of(e), store.range(e, null), "open end");
      assertKeys(List.of(d, e), store.rangeAsync(d, null).join(), "async open end");
      assertKeys(List.of(a, b), store.rangeAsync(a, c, 2).join(), "async with limit");
      try (KvIterator it = store.prefixIterator(new byte[] {(byte) 0xFF})) {
        assertKeys(List.of(d, e), drain(it), "a prefix of 0xFF has no upper bound");
      }
      try (KvIterator it = store.prefixIterator(new byte[0])) {
        assertEquals(6, drain(it).size(), "the empty prefix matches every key");
      }
      try (KvIterator it = store.reverseIterator(a, d)) {
        assertKeys(List.of(c, b, a), drain(it), "reverse stops at start inclusive");
        it.seek(e);
        assertKeys(List.of(c, b, a), drain(it), "reverse seek past the end clamps to the end");
        it.seek(b);
        assertKeys(List.of(b, a), drain(it), "reverse seek lands on the largest key <= target");
        it.seek(new byte[0]);
        assertFalse(it.hasNext(), "reverse seek below the start is exhausted");
      }
    }
  }

  // ---------------------------------------------------------------- random reads

  private static void checkRandomRead(
      P2kv store, TreeMap<byte[], byte[]> model, List<byte[]> pool, Random rnd, int kind, String what) {
    byte[] lo = bound(pool, rnd);
    byte[] hi = bound(pool, rnd);
    int limit = limit(rnd);
    switch (kind) {
      case 10, 11 -> assertPairs(expected(model, lo, null, limit), store.scan(lo, limit), what + " scan " + show(lo) + " " + limit);
      case 12 -> assertPairs(expected(model, lo, hi, Integer.MAX_VALUE), store.range(lo, hi), what + " range " + show(lo, hi));
      case 13 -> assertPairs(expected(model, lo, hi, limit), store.range(lo, hi, limit), what + " range " + show(lo, hi) + " " + limit);
      case 14 -> assertPairs(expected(model, lo, null, limit), store.scanAsync(lo, limit).join(), what + " scanAsync");
      case 15 -> assertPairs(expected(model, lo, hi, limit), store.rangeAsync(lo, hi, limit).join(), what + " rangeAsync");
      case 16, 17 -> {
        boolean reverse = kind == 17;
        NavigableMap<byte[], byte[]> view = bounded(new TreeMap<>(model), lo, hi);
        try (KvIterator it = reverse ? store.reverseIterator(lo, hi) : store.iterator(lo, hi)) {
          checkIterator(it, view, reverse, rnd, what + (reverse ? " reverse " : " forward ") + show(lo, hi));
        }
      }
      case 18 -> {
        byte[] key = pick(pool, rnd);
        byte[] prefix = Arrays.copyOf(key, rnd.nextInt(Math.min(key.length, 3) + 1));
        TreeMap<byte[], byte[]> view = new TreeMap<>(Keys.UNSIGNED);
        for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
          if (startsWith(e.getKey(), prefix)) {
            view.put(e.getKey(), e.getValue());
          }
        }
        try (KvIterator it = store.prefixIterator(prefix)) {
          checkIterator(it, view, false, rnd, what + " prefix " + show(prefix));
        }
      }
      default -> {
        // An inverted or empty range gives nothing and never touches a shard.
        byte[] x = pick(pool, rnd);
        byte[] y = pick(pool, rnd);
        byte[] big = Keys.UNSIGNED.compare(x, y) >= 0 ? x : y;
        byte[] small = big == x ? y : x;
        assertPairs(expected(model, big, small, limit), store.range(big, small, limit), what + " inverted " + show(big, small));
        try (KvIterator it = store.iterator(big, small)) {
          assertFalse(it.hasNext() && Keys.UNSIGNED.compare(big, small) >= 0, what + " inverted iterator");
        }
      }
    }
  }

  /**
   * Walks an iterator with random next and seek calls, comparing each step with the model view (the
   * range's entries when the iterator was created).
   */
  private static void checkIterator(
      KvIterator it, NavigableMap<byte[], byte[]> view, boolean reverse, Random rnd, String what) {
    NavigableMap<byte[], byte[]> order = reverse ? view.descendingMap() : view;
    byte[] pos = null;
    boolean inclusive = true;
    int steps = rnd.nextInt(4) == 0 ? view.size() + 2 : rnd.nextInt(40);
    for (int step = 0; step < steps; step++) {
      if (rnd.nextInt(8) == 0) {
        byte[] target = rnd.nextBoolean() && !view.isEmpty() ? randomEntry(view, rnd) : Keys.randomKey(rnd);
        it.seek(target);
        pos = target;
        inclusive = true;
        continue;
      }
      byte[] expectedKey = pos == null ? (order.isEmpty() ? null : order.firstKey()) : inclusive ? order.ceilingKey(pos) : order.higherKey(pos);
      String at = what + " step " + step + " after " + show(pos);
      assertEquals(expectedKey != null, it.hasNext(), at + " hasNext");
      if (expectedKey == null) {
        assertThrows(NoSuchElementException.class, it::next, at);
        continue;
      }
      KeyValue kv = it.next();
      assertArrayEquals(expectedKey, kv.key(), at + " key");
      assertArrayEquals(view.get(expectedKey), kv.value(), at + " value");
      pos = expectedKey;
      inclusive = false;
    }
  }

  private static void checkEverything(P2kv store, TreeMap<byte[], byte[]> model, String what) {
    assertPairs(expected(model, null, null, Integer.MAX_VALUE), store.range(null, null), what + " full range");
    assertPairs(expected(model, null, null, Integer.MAX_VALUE), store.rangeAsync(null, null).join(), what + " full rangeAsync");
    List<Map.Entry<byte[], byte[]>> reversed = expected(model, null, null, Integer.MAX_VALUE);
    Collections.reverse(reversed);
    try (KvIterator it = store.reverseIterator(null, null)) {
      assertPairs(reversed, drain(it), what + " full reverse");
    }
  }

  // ---------------------------------------------------------------- model

  static List<Map.Entry<byte[], byte[]>> expected(TreeMap<byte[], byte[]> model, byte[] lo, byte[] hi, int limit) {
    List<Map.Entry<byte[], byte[]>> out = new ArrayList<>();
    for (Map.Entry<byte[], byte[]> e : bounded(model, lo, hi).entrySet()) {
      if (out.size() >= limit) {
        break;
      }
      out.add(e);
    }
    return out;
  }

  private static NavigableMap<byte[], byte[]> bounded(TreeMap<byte[], byte[]> model, byte[] lo, byte[] hi) {
    if (lo != null && hi != null && Keys.UNSIGNED.compare(lo, hi) >= 0) {
      return new TreeMap<>(Keys.UNSIGNED);
    }
    NavigableMap<byte[], byte[]> m = model;
    if (lo != null) {
      m = m.tailMap(lo, true);
    }
    if (hi != null) {
      m = m.headMap(hi, false);
    }
    return m;
  }

  static void assertPairs(List<Map.Entry<byte[], byte[]>> expected, List<KeyValue> actual, String what) {
    assertEquals(expected.size(), actual.size(), what + " size");
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i).getKey(), actual.get(i).key(), what + " key " + i);
      assertArrayEquals(expected.get(i).getValue(), actual.get(i).value(), what + " value " + i);
    }
  }

  private static void assertKeys(List<byte[]> expected, List<KeyValue> actual, String what) {
    assertEquals(expected.size(), actual.size(), what + " size");
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i), actual.get(i).key(), what + " key " + i);
    }
  }

  static List<KeyValue> drain(KvIterator it) {
    List<KeyValue> out = new ArrayList<>();
    while (it.hasNext()) {
      out.add(it.next());
    }
    return out;
  }

  // ---------------------------------------------------------------- keys

  private static P2kv.Builder builder(int shards) {
    return P2kv.builder().shards(shards).memoryBudgetBytes(64L << 20);
  }

  /**
   * "hash-N", or "range-3" / "range-8": range partitioning with split keys placed among the
   * binary test keys, including single 0x00 and 0xFF bytes.
   */
  static P2kv.Builder builder(String config) {
    String[] p = config.split("-");
    int shards = Integer.parseInt(p[1]);
    if (p[0].equals("hash")) {
      return builder(shards);
    }
    List<byte[]> splits =
        shards == 3
            ? List.of(new byte[] {0, 0}, new byte[] {(byte) 0x80})
            : List.of(new byte[] {0}, new byte[] {0, 1}, new byte[] {0x20}, new byte[] {0x7F}, new byte[] {(byte) 0x80},
                new byte[] {(byte) 0xFF}, new byte[] {(byte) 0xFF, (byte) 0xFF});
    assertEquals(shards, splits.size() + 1);
    return P2kv.builder().rangePartitioning(splits).memoryBudgetBytes(64L << 20);
  }

  /** Binary keys rich in 0x00 and 0xFF, the empty key and the extremes of one and two bytes. */
  private static List<byte[]> keyPool(Random rnd) {
    TreeMap<byte[], Boolean> keys = new TreeMap<>(Keys.UNSIGNED);
    for (byte[] k : List.of(new byte[0], new byte[] {0}, new byte[] {0, 0}, new byte[] {(byte) 0xFF},
        new byte[] {(byte) 0xFF, (byte) 0xFF}, new byte[] {0x7F}, new byte[] {(byte) 0x80})) {
      keys.put(k, true);
    }
    while (keys.size() < 160) {
      keys.put(Keys.randomKey(rnd), true);
    }
    return new ArrayList<>(keys.keySet());
  }

  private static byte[] pick(List<byte[]> pool, Random rnd) {
    return pool.get(rnd.nextInt(pool.size()));
  }

  private static byte[] bound(List<byte[]> pool, Random rnd) {
    int c = rnd.nextInt(4);
    return c == 0 ? null : c == 1 ? Keys.randomKey(rnd) : pick(pool, rnd);
  }

  private static int limit(Random rnd) {
    int c = rnd.nextInt(6);
    return c == 0 ? 0 : c == 1 ? 1 : c == 2 ? 1000 : rnd.nextInt(30);
  }

  private static byte[] randomEntry(NavigableMap<byte[], byte[]> view, Random rnd) {
    int skip = rnd.nextInt(view.size());
    for (byte[] k : view.keySet()) {
      if (skip-- == 0) {
        return k;
      }
    }
    throw new AssertionError();
  }

  private static Batch sameShardBatch(P2kv store, List<byte[]> pool, Random rnd, TreeMap<byte[], byte[]> model) {
    int shard = store.shardOf(pick(pool, rnd));
    List<byte[]> same = new ArrayList<>();
    for (byte[] k : pool) {
      if (store.shardOf(k) == shard) {
        same.add(k);
      }
    }
    Batch batch = new Batch();
    for (int i = rnd.nextInt(5); i >= 0; i--) {
      byte[] k = same.get(rnd.nextInt(same.size()));
      if (rnd.nextInt(3) == 0) {
        batch.delete(k);
        model.remove(k);
      } else {
        byte[] v = Keys.randomValue(rnd, 40);
        batch.put(k, v);
        model.put(k, v);
      }
    }
    return batch;
  }

  private static boolean startsWith(byte[] key, byte[] prefix) {
    return key.length >= prefix.length && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
  }

  private static String show(byte[] k) {
    return k == null ? "null" : "[" + HEX.formatHex(k) + "]";
  }

  private static String show(byte[] lo, byte[] hi) {
    return show(lo) + ".." + show(hi);
  }

  @Test
  void shouldServeOrderedReadsFromACallbackOnAWorkerThread() {
    try (P2kv store = builder(3).open(tmp)) {
      for (int i = 0; i < 50; i++) {
        store.put(Keys.key("k" + (char) ('A' + i)), Keys.key("v"));
      }
      // The stage runs on a shard worker: reads that would wait for the workers must not.
      List<Integer> sizes =
          store.putAsync(Keys.key("last"), Keys.key("v"))
              .thenApply(v -> List.of(store.range(null, null).size(), store.scan(null, 10).size()))
              .join();
      assertEquals(List.of(51, 10), sizes);
    }
  }

  @Test
  void shouldCompareKeyValuesByContent() {
    assertTrue(new KeyValue(new byte[] {1}, new byte[] {2}).equals(new KeyValue(new byte[] {1}, new byte[] {2})));
    assertEquals(new KeyValue(new byte[] {1}, new byte[] {2}).hashCode(), new KeyValue(new byte[] {1}, new byte[] {2}).hashCode());
    assertFalse(new KeyValue(new byte[] {1}, new byte[] {2}).equals(new KeyValue(new byte[] {1}, new byte[] {3})));
  }
}
