package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link P2kv#deleteRange} against a TreeMap model in unsigned byte order: random puts, deletes,
 * batches and range deletes (sync and async) under hash and range partitioning, with the value
 * cache on and both read paths, checked by gets (which fill the cache) after every operation and by
 * whole-range reads, then again after a reopen. A concurrent test checks the cache's range-delete
 * protocol against readers filling it.
 */
class RangeDeleteTest {
  @TempDir Path tmp;

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.p2kv.ModelLayouts#layouts")
  void shouldMatchTheModelWithRangeDeletesAndAfterReopen(ModelLayouts.Layout layout) {
    TestSeeds.run(getClass(), "shouldMatchTheModelWithRangeDeletesAndAfterReopen: " + layout, seed -> {
      Random rnd = new Random(seed);
      TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);
      int rangeDeletes = 0;
      int deletedByRange = 0;
      try (P2kv store = layout.builder().open(tmp)) {
        for (int op = 0; op < 3000; op++) {
          byte[] key = ModelLayouts.randomKey(rnd);
          int kind = rnd.nextInt(10);
          if (kind <= 5) {
            ModelLayouts.Write w = kind < 4 ? ModelLayouts.Write.PUT : kind == 4 ? ModelLayouts.Write.DELETE : ModelLayouts.Write.BATCH;
            ModelLayouts.apply(w, key, rnd, store, model);
          } else if (kind == 6) {
            byte[] other = ModelLayouts.randomKey(rnd);
            byte[] from = Keys.UNSIGNED.compare(key, other) <= 0 ? key : other;
            byte[] to = from == key ? other : key;
            Map<byte[], byte[]> range = model.subMap(from, true, to, false);
            deletedByRange += range.size();
            range.clear();
            rangeDeletes++;
            if (rnd.nextBoolean()) {
              store.deleteRange(from, to);
            } else {
              store.deleteRangeAsync(from, to).join();
            }
          } else {
            // Reads fill the value cache, so a later range delete has cached keys to drop.
            for (int i = 0; i < 4; i++) {
              byte[] k = ModelLayouts.randomKey(rnd);
              assertArrayEquals(model.get(k), store.get(k), () -> "get " + HexFormat.of().formatHex(k));
            }
          }
          assertArrayEquals(model.get(key), store.get(key), () -> "get " + HexFormat.of().formatHex(key));
          if (op % 500 == 499) {
            assertMatches(model, store, "at op " + op);
          }
        }
        assertTrue(rangeDeletes > 200 && deletedByRange > 200, rangeDeletes + " range deletes of " + deletedByRange + " keys");
        assertTrue(store.stats().cache().hits() > 0, "the cache served reads");
        assertMatches(model, store, "before reopen");
      }
      try (P2kv store = layout.builder().open(tmp)) {
        assertMatches(model, store, "after reopen");
        for (byte[] k : model.keySet()) {
          assertArrayEquals(model.get(k), store.get(k));
        }
      }
    });
  }

  private static void assertMatches(TreeMap<byte[], byte[]> model, P2kv store, String when) {
    ModelLayouts.assertMatches(model, store.range(null, null), when);
    try (KvIterator it = store.iterator(null, null)) {
      int n = 0;
      while (it.hasNext()) {
        it.next();
        n++;
      }
      assertEquals(model.size(), n, when + ": iterator");
    }
  }

  @Test
  void shouldRefuseBadBoundsAndDeleteNothingForEqualBounds() {
    try (P2kv store = P2kv.builder().shards(2).open(tmp)) {
      store.put(Keys.key("a"), Keys.key("1"));
      NullPointerException from = assertThrows(NullPointerException.class, () -> store.deleteRange(null, Keys.key("b")));
      assertTrue(from.getMessage().contains("fromInclusive is null"), from.getMessage());
      NullPointerException to = assertThrows(NullPointerException.class, () -> store.deleteRangeAsync(Keys.key("a"), null));
      assertTrue(to.getMessage().contains("toExclusive is null"), to.getMessage());
      IllegalArgumentException reversed = assertThrows(IllegalArgumentException.class, () -> store.deleteRange(Keys.key("b"), Keys.key("a")));
      assertTrue(reversed.getMessage().contains("is after toExclusive"), reversed.getMessage());
      // 0x80 sorts after 0x7F unsigned (a signed comparison would call this range reversed).
      store.deleteRange(new byte[] {0x7F}, new byte[] {(byte) 0x80});
      assertThrows(IllegalArgumentException.class, () -> store.deleteRange(new byte[P2kv.MAX_KEY_BYTES + 1], new byte[P2kv.MAX_KEY_BYTES + 1]));
      store.deleteRange(Keys.key("a"), Keys.key("a"));
      store.deleteRangeAsync(Keys.key("a"), Keys.key("a")).join();
      assertArrayEquals(Keys.key("1"), store.get(Keys.key("a")), "an empty range deletes nothing");
      store.deleteRange(Keys.key("a"), Keys.key("a\0"));
      assertNull(store.get(Keys.key("a")));
    }
    P2kv closed = P2kv.builder().shards(2).open(tmp);
    closed.close();
    assertThrows(StoreClosedException.class, () -> closed.deleteRange(Keys.key("a"), Keys.key("b")));
    assertThrows(StoreClosedException.class, () -> closed.deleteRange(Keys.key("a"), Keys.key("a")));
    CompletableFuture<Void> f = closed.deleteRangeAsync(Keys.key("a"), Keys.key("b"));
    assertTrue(f.isCompletedExceptionally());
  }

  @Test
  void shouldLeaveSnapshotsAndOpenIteratorsAsTheyWere() {
    try (P2kv store = P2kv.builder().shards(3).open(tmp)) {
      for (int i = 0; i < 100; i++) {
        store.put(Keys.key(String.format("k%03d", i)), Keys.key("v" + i));
      }
      try (Snapshot before = store.snapshot(); KvIterator open = store.iterator(null, null)) {
        store.deleteRange(Keys.key("k010"), Keys.key("k090"));
        assertEquals(20, store.range(null, null).size());
        assertEquals(100, before.range(null, null, Integer.MAX_VALUE).size(), "a snapshot taken before keeps every key");
        int n = 0;
        while (open.hasNext()) {
          open.next();
          n++;
        }
        assertEquals(100, n, "an iterator opened before reads its own view");
        try (Snapshot after = store.snapshot()) {
          assertEquals(20, after.range(null, null, Integer.MAX_VALUE).size());
        }
      }
      store.put(Keys.key("k050"), Keys.key("again"));
      assertArrayEquals(Keys.key("again"), store.get(Keys.key("k050")), "a write after the range delete is kept");
    }
  }

  /**
   * A writer puts every key with round r's value, then range-deletes them all, round after round;
   * readers, filling the value cache, check that no read begun after round r's range delete
   * completed returns a value of round r or earlier, and that no value is from a round not yet
   * started.
   */
  @ParameterizedTest
  @org.junit.jupiter.params.provider.EnumSource(ReadPath.class)
  void shouldNeverServeAValueTheRangeDeleteRemovedFromTheCache(ReadPath readPath) throws Exception {
    int keys = 64;
    int rounds = 300;
    AtomicLong startedRound = new AtomicLong();
    AtomicLong deletedRound = new AtomicLong();
    AtomicBoolean writerDone = new AtomicBoolean();
    try (P2kv store = P2kv.builder().shards(3).readPath(readPath).cacheBytes(1 << 20).open(tmp)) {
      TestSeeds.run(getClass(), "shouldNeverServeAValueTheRangeDeleteRemovedFromTheCache: " + readPath, seed -> {
        VersionedKeys.runConcurrently(seed, 1, (w, random) -> {
          try {
            for (long r = 1; r <= rounds; r++) {
              startedRound.set(r);
              Batch batch = new Batch();
              for (int k = 0; k < keys; k++) {
                batch.put(key(k), longBytes(r));
              }
              store.write(batch);
              store.deleteRange(key(0), key(keys));
              deletedRound.set(r);
            }
          } finally {
            writerDone.set(true);
          }
        }, 4, (reader, random) -> {
          while (!writerDone.get()) {
            long deleted = deletedRound.get();
            int k = random.nextInt(keys);
            byte[] v = store.get(key(k));
            long started = startedRound.get();
            if (v != null) {
              long round = java.nio.ByteBuffer.wrap(v).getLong();
              assertTrue(round > deleted, "read round " + round + " after round " + deleted + "'s range delete completed");
              assertTrue(round <= started, "read round " + round + " before it started");
            }
          }
        });
      });
      assertTrue(store.stats().cache().hits() > 0, "the cache served reads: " + store.stats().cache());
    }
  }

  private static byte[] key(int k) {
    return new byte[] {'k', (byte) (k >> 8), (byte) k};
  }

  private static byte[] longBytes(long v) {
    return java.nio.ByteBuffer.allocate(8).putLong(v).array();
  }
}
