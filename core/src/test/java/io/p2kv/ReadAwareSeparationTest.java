package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.internal.separation.SeparationModel;
import io.p2kv.internal.separation.SeparationTuner;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adaptive size-aware policy counts reads: a store loaded with large values below a page
 * (separated while it is only written) that turns read-heavy places new values inline and rewrites
 * its files so that the values already separated come back inline; it remembers that across a reopen; the
 * blob cache is carved out of the memory budget and obeys it. Checked through {@code stats()}
 * (placement, blob and SST bytes, cache counters) and against a model of the contents. The tuner's
 * timer is off: windows are stepped directly, so nothing sleeps.
 *
 * <p>The stores here cache no values ({@code cacheBytes(0)}): the policy counts the reads that
 * reach RocksDB, and a cache hit reads no blob file.
 */
class ReadAwareSeparationTest {
  @TempDir Path tmp;

  /** Windows of 300 writes or 2,000 reads; no bound on the rate of bringing values inline. */
  private static final SeparationTuner.Limits LIMITS =
      new SeparationTuner.Limits(0, 300, 8 << 10, 64, 2, 2_000, Long.MAX_VALUE);

  /** Large for 24-byte keys (at least 1000), below a page: separated while only written. */
  private static final int VALUE_BYTES = 1200;

  private final TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);

  private static byte[] key(int i) {
    return String.format("user-%019d", i).getBytes(StandardCharsets.UTF_8); // 24 bytes
  }

  /** The stores' memory budget. */
  private static final long BUDGET = 32L << 20;

  private P2kv open(Path dir) {
    return P2kv.builder().shards(1).cacheBytes(0).memoryBudgetBytes(BUDGET).separationTunerLimits(LIMITS).open(dir);
  }

  /** Inserts {@code n} values as windows of 300 and steps the tuner after each. */
  private void load(P2kv store, Random rnd, int n) {
    load(store, rnd, n, ReadAwareSeparationTest::key, VALUE_BYTES);
  }

  /** {@link #load(P2kv, Random, int)} with other keys and value sizes. */
  private void load(P2kv store, Random rnd, int n, IntFunction<byte[]> keys, int valueBytes) {
    for (int i = 0; i < n; i++) {
      byte[] k = keys.apply(i);
      byte[] v = new byte[valueBytes];
      rnd.nextBytes(v);
      store.put(k, v);
      model.put(k, v);
      if (i % 300 == 299) {
        store.core().retuneSeparationNow();
      }
    }
    store.flush();
  }

  /** Reads every key once, checking each value, then steps the tuner. */
  private List<SeparationTuner.Change> readAll(P2kv store) {
    for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
      assertArrayEquals(e.getValue(), store.get(e.getKey()));
    }
    return store.core().retuneSeparationNow();
  }

  private static ShardStats shard(P2kv store) {
    return store.stats().shards().get(0);
  }

  /** The whole range, and scans of 1-100 pairs from random keys, against the model, in order. */
  private void verifyScans(P2kv store, Random rnd) {
    assertPairs(new ArrayList<>(model.entrySet()), store.range(null, null), "range of everything");
    for (int i = 0; i < 50; i++) {
      byte[] start = key(rnd.nextInt(model.size() + 10));
      int limit = 1 + rnd.nextInt(100);
      List<Map.Entry<byte[], byte[]>> expected = new ArrayList<>(model.tailMap(start, true).entrySet());
      assertPairs(expected.subList(0, Math.min(limit, expected.size())), store.scan(start, limit), "scan " + i);
    }
  }

  private static void assertPairs(List<Map.Entry<byte[], byte[]>> expected, List<KeyValue> actual, String what) {
    assertEquals(expected.size(), actual.size(), what + ": pairs");
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i).getKey(), actual.get(i).key(), what + ": key " + i);
      assertArrayEquals(expected.get(i).getValue(), actual.get(i).value(), what + ": value " + i);
    }
  }

  @Test
  void shouldBringSeparatedValuesBackInlineWhenTheStoreTurnsReadHeavy() {
    TestSeeds.run(getClass(), "shouldBringSeparatedValuesBackInlineWhenTheStoreTurnsReadHeavy",
        this::shouldBringSeparatedValuesBackInlineWhenTheStoreTurnsReadHeavy);
  }

  private void shouldBringSeparatedValuesBackInlineWhenTheStoreTurnsReadHeavy(long seed) {
    Random rnd = new Random(seed);
    model.clear();
    Path dir = tmp.resolve("store-" + seed);
    try (P2kv store = open(dir)) {
      load(store, rnd, 6_000);
      ShardStats loaded = shard(store);
      assertEquals(1000, loaded.separation().minBlobBytes(), "a store only written separates large values");
      long valueBytes = 6_000L * VALUE_BYTES;
      assertTrue(loaded.blobBytes() >= valueBytes, "the values are in blob files: " + loaded.blobBytes());
      assertTrue(loaded.sstBytes() < valueBytes / 2, "SST files hold keys and references: " + loaded.sstBytes());

      // Reads only: the first window proposes inline placement, the second confirms it.
      assertEquals(List.of(), readAll(store));
      List<SeparationTuner.Change> changes = readAll(store);
      assertEquals(1, changes.size(), changes.toString());
      assertTrue(changes.get(0).reason().contains("reads"), changes.get(0).reason());
      SeparationSettings readMode = shard(store).separation();
      assertEquals(SeparationModel.INLINE_CAP_BYTES, readMode.minBlobBytes(), "values below a page go inline");
      assertEquals(1.0, readMode.gcAgeCutoff(), "every blob file is collected while values come back");

      // The next steps rewrite the files from before the switch; then garbage collection goes back
      // to the policy's setting and no blob file is left.
      for (int step = 0; step < 5 && (shard(store).inliningFilesLeft() > 0 || shard(store).blobBytes() > 0); step++) {
        store.core().retuneSeparationNow();
      }
      ShardStats after = shard(store);
      assertEquals(0, after.blobBytes(), "no value left in blob files");
      assertEquals(0, after.inliningFilesLeft());
      assertTrue(after.sstBytes() >= valueBytes, "the values are in the SST files: " + after.sstBytes());
      assertTrue(after.separation().gcAgeCutoff() < 1.0, "collection back to the policy's setting");
      assertEquals(SeparationModel.INLINE_CAP_BYTES, after.separation().minBlobBytes());
      // The load's last flush left a level-0 file; rewritten, it joins the level below instead of
      // staying in level 0, where every seek and iterator step would merge it with that level.
      assertTrue(loaded.levels().get(0).files() > 0, "the load left a level-0 file: " + loaded.levels());
      assertEquals(1, after.levels().stream().filter(l -> l.files() > 0).count(), "one sorted run: " + after.levels());
      assertEquals(0, after.levels().get(0).files(), "no level-0 file: " + after.levels());
      ValueSeparationTest.verify(store, model, "after the values came back inline");
      verifyScans(store, rnd);
    }
    // The read-heavy placement survives a restart: no window has to rediscover it. With no value
    // left in blob files, the budget goes to the block cache but for the blob cache's floor.
    try (P2kv store = open(dir)) {
      assertEquals(SeparationModel.INLINE_CAP_BYTES, shard(store).separation().minBlobBytes());
      assertEquals(BUDGET / 32, store.stats().blobCacheCapacityBytes(), "no data in blob files: the floor");
      ValueSeparationTest.verify(store, model, "after reopening");
    }
  }

  @Test
  void shouldLeaveOneSortedRunWhenSeveralLevelZeroFilesComeBackInline() {
    Random rnd = new Random(11);
    model.clear();
    try (P2kv store = open(tmp.resolve("several"))) {
      // Overwrites too, so that the level-0 files hold versions of the same keys in order.
      for (int round = 0; round < 3; round++) {
        load(store, rnd, 2_000);
      }
      ShardStats loaded = shard(store);
      assertTrue(loaded.levels().get(0).files() >= 3, "three flushes, three level-0 files: " + loaded.levels());
      readAll(store);
      readAll(store);
      assertEquals(SeparationModel.INLINE_CAP_BYTES, shard(store).separation().minBlobBytes());
      for (int step = 0; step < 5 && (shard(store).inliningFilesLeft() > 0 || shard(store).blobBytes() > 0); step++) {
        store.core().retuneSeparationNow();
      }
      ShardStats after = shard(store);
      assertEquals(0, after.blobBytes(), "no value left in blob files");
      assertEquals(1, after.levels().stream().filter(l -> l.files() > 0).count(), "one sorted run: " + after.levels());
      assertEquals(0, after.levels().get(0).files(), "no level-0 file: " + after.levels());
      ValueSeparationTest.verify(store, model, "after the values came back inline");
      verifyScans(store, rnd);
    }
  }

  @Test
  void shouldGoOnBringingValuesInlineAfterAReopen() {
    Random rnd = new Random(7);
    model.clear();
    Path dir = tmp.resolve("resume");
    // A rate of one byte per second: the switch happens, the rewrite cannot start.
    SeparationTuner.Limits slow = new SeparationTuner.Limits(0, 300, 8 << 10, 64, 2, 2_000, 1);
    try (P2kv store = P2kv.builder().shards(1).cacheBytes(0).memoryBudgetBytes(32L << 20).separationTunerLimits(slow).open(dir)) {
      load(store, rnd, 3_000);
      readAll(store);
      readAll(store);
      assertEquals(SeparationModel.INLINE_CAP_BYTES, shard(store).separation().minBlobBytes());
      assertTrue(shard(store).blobBytes() > 0, "nothing rewritten yet");
    }
    try (P2kv store = open(dir)) {
      assertEquals(BUDGET / 4, store.stats().blobCacheCapacityBytes(), "the values are still in blob files: a quarter");
      assertEquals(1.0, shard(store).separation().gcAgeCutoff(), "still bringing values inline after the reopen");
      for (int step = 0; step < 5 && shard(store).blobBytes() > 0; step++) {
        store.core().retuneSeparationNow();
      }
      assertEquals(0, shard(store).blobBytes());
      ValueSeparationTest.verify(store, model, "after the rewrite finished");
    }
  }

  @Test
  void shouldKeepLargeValuesSeparatedWhileTheStoreIsOnlyWritten() {
    Random rnd = new Random(11);
    model.clear();
    try (P2kv store = open(tmp.resolve("writes"))) {
      load(store, rnd, 3_000);
      for (int i = 0; i < 3; i++) {
        store.core().retuneSeparationNow();
      }
      assertEquals(1000, shard(store).separation().minBlobBytes());
      assertTrue(shard(store).blobBytes() > 0);
    }
  }

  @Test
  void shouldCarveTheBlobCacheOutOfTheMemoryBudgetAndStayWithinIt() {
    Random rnd = new Random(3);
    model.clear();
    long budget = 32L << 20;
    try (P2kv store = open(tmp.resolve("cache"))) {
      assertEquals(budget / 4, store.stats().blobCacheCapacityBytes(), "a quarter of the budget");
      // 12 MiB of separated values: more than the 8 MiB cache holds.
      for (int i = 0; i < 10_500; i++) {
        byte[] v = new byte[VALUE_BYTES];
        rnd.nextBytes(v);
        store.put(key(i), v);
        model.put(key(i), v);
      }
      store.flush();
      assertTrue(shard(store).blobBytes() > budget / 4, "more separated bytes than the cache holds");
      // Every value once (the cache fills and evicts), then the last 4 MiB read again (hits).
      for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
        assertArrayEquals(e.getValue(), store.get(e.getKey()));
      }
      for (Map.Entry<byte[], byte[]> e : model.tailMap(key(7_000)).entrySet()) {
        assertArrayEquals(e.getValue(), store.get(e.getKey()));
      }
      StoreStats stats = store.stats();
      assertTrue(stats.blobCacheUsageBytes() > 0, "the cache holds values");
      assertTrue(stats.blobCacheUsageBytes() <= stats.blobCacheCapacityBytes(),
          stats.blobCacheUsageBytes() + " bytes in a cache of " + stats.blobCacheCapacityBytes());
      ShardStats s = stats.shards().get(0);
      assertTrue(s.blobCacheHits() + s.blobCacheMisses() >= model.size() + 3_500L, "every read of a separated value counts");
      assertTrue(s.blobCacheMisses() >= model.size(), "the first pass misses");
      assertTrue(s.blobCacheHits() >= 3_500L * 9 / 10, "the second pass hits: " + s.blobCacheHits());
      assertTrue(stats.blobCacheHitRate() > 0 && stats.blobCacheHitRate() < 1, "" + stats.blobCacheHitRate());
    }
    try (P2kv store = P2kv.builder().shards(1).cacheBytes(0).memoryBudgetBytes(budget).valueSeparation(ValueSeparation.none())
        .open(tmp.resolve("inline"))) {
      assertEquals(0, store.stats().blobCacheCapacityBytes(), "no blob files, no blob cache");
    }
  }

  @Test
  void shouldPutMediumValuesInlineInAFullCompaction() {
    Random rnd = new Random(5);
    model.clear();
    try (P2kv store = open(tmp.resolve("compact"))) {
      // 900-byte values with 64-byte keys: medium (256 <= v < 960), and worth separating while
      // only inserted even in this young tree.
      load(store, rnd, 3_000, i -> String.format("user-%059d", i).getBytes(StandardCharsets.UTF_8), 900);
      assertEquals(256, shard(store).separation().minBlobBytes(), "inserted medium values are separated");
      assertTrue(shard(store).blobBytes() > 0);
      store.compact();
      ShardStats s = shard(store);
      assertEquals(0, s.blobBytes(), "medium values merged in place at the last level");
      assertEquals(256, s.separation().minBlobBytes(), "new medium values are still separated while only written");
      ValueSeparationTest.verify(store, model, "after compaction");
    }
  }
}
