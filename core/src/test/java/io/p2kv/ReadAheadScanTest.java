package io.p2kv;

import static io.p2kv.OrderedReadModelTest.assertPairs;
import static io.p2kv.OrderedReadModelTest.expected;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Short scans over several hash shards read each shard's share of the limit right after its seek
 * (limit over shards, {@code StoreIterator.readAhead}) and merge from those buffers. Checked
 * against a {@code TreeMap} in unsigned byte order where the shares are wrong on purpose: one
 * shard holds about two thirds of the keys, so it runs past its share in most scans while the
 * others end inside theirs at the end of a range or of the key space; limits below, at and above
 * the shard count; data in a flushed file with overwrites and deletes in the memtable over it;
 * and a snapshot's scans (the pinned views) after later writes.
 */
class ReadAheadScanTest {
  private static final int SHARDS = 4;
  private static final int KEY_SPACE = 3000;
  private static final int[] LIMITS = {0, 1, 2, 3, 4, 7, 8, 9, 25, 100, 101, 255, 256};

  @TempDir Path tmp;

  @Test
  void shouldMatchTheModelWhenOneShardHoldsMostKeys() {
    TestSeeds.run(getClass(), "shouldMatchTheModelWhenOneShardHoldsMostKeys", this::shouldMatchTheModelWhenOneShardHoldsMostKeys);
  }

  private void shouldMatchTheModelWhenOneShardHoldsMostKeys(long seed) {
    Random rnd = new Random(seed);
    TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);
    try (P2kv store = P2kv.builder().shards(SHARDS).memoryBudgetBytes(64L << 20).open(tmp)) {
      List<byte[]> keys = new ArrayList<>();
      for (int i = 0; i < KEY_SPACE; i++) {
        byte[] key = key(i);
        if (rnd.nextDouble() < (store.shardOf(key) == 0 ? 0.9 : 0.15)) {
          keys.add(key);
          put(store, model, key, rnd);
        }
      }
      store.flush();
      for (byte[] key : keys) {
        int c = rnd.nextInt(6);
        if (c < 2) {
          put(store, model, key, rnd);
        } else if (c == 2) {
          store.delete(key);
          model.remove(key);
        }
      }
      checkScans(store::scan, store::range, model, rnd, "latest");
      TreeMap<byte[], byte[]> atSnapshot = new TreeMap<>(model);
      try (Snapshot snapshot = store.snapshot()) {
        for (int i = 0; i < 500; i++) {
          byte[] key = key(rnd.nextInt(KEY_SPACE));
          if (rnd.nextBoolean()) {
            put(store, model, key, rnd);
          } else {
            store.delete(key);
            model.remove(key);
          }
        }
        checkScans(snapshot::scan, snapshot::range, atSnapshot, rnd, "snapshot");
        checkScans(store::scan, store::range, model, rnd, "latest after the snapshot");
      }
    }
  }

  private interface Scan {
    List<KeyValue> scan(byte[] start, int limit);
  }

  private interface Range {
    List<KeyValue> range(byte[] start, byte[] end, int limit);
  }

  private static void checkScans(Scan scan, Range range, TreeMap<byte[], byte[]> model, Random rnd, String what) {
    for (int round = 0; round < 150; round++) {
      // Starts near the end of the key space let shards end inside their shares.
      byte[] start = round % 10 == 0 ? null : key(round % 10 == 1 ? KEY_SPACE - rnd.nextInt(120) : rnd.nextInt(KEY_SPACE));
      byte[] end = key(rnd.nextInt(KEY_SPACE + 1));
      int limit = LIMITS[rnd.nextInt(LIMITS.length)];
      String at = what + " round " + round + " limit " + limit;
      assertPairs(expected(model, start, null, limit), scan.scan(start, limit), at + " scan");
      assertPairs(expected(model, start, end, limit), range.range(start, end, limit), at + " range");
    }
  }

  private static void put(P2kv store, TreeMap<byte[], byte[]> model, byte[] key, Random rnd) {
    byte[] value = Keys.randomValue(rnd, 40);
    store.put(key, value);
    model.put(key, value);
  }

  private static byte[] key(int i) {
    return Keys.key(String.format("k%06d", i));
  }
}
