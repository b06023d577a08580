package io.p2kv.internal.engine.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.Durability;
import io.p2kv.TestSeeds;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.PerfContext;
import org.rocksdb.PerfLevel;
import org.rocksdb.RocksDB;

/**
 * A file's index and filter stay in the block cache when the file holds many small pairs. Index
 * and filter blocks grow with a file's key count (10 bits per key of filter), and one larger than
 * a shard of the LRU block cache was read from the file by every get that needs it and dropped
 * again: gets over small pairs took 0.5-3 ms (docs/benchmarks/READS.md, stop 38), because RocksDB
 * splits a cache into up to 64 shards of at least 512 KiB. The shards' cache now has shards of at
 * least 16 MiB. Checked through RocksDB's per-thread perf counters of index and filter block
 * reads, with every value checked against what was written.
 */
class MetadataBlocksTest {
  private static final int PAIRS = 1_000_000;
  private static final int GETS = 4_000;

  @TempDir Path tmp;

  @Test
  void shouldKeepTheIndexAndFilterOfAFileOfManySmallPairsInTheBlockCache() throws Exception {
    TestSeeds.run(getClass(), "shouldKeepTheIndexAndFilterOfAFileOfManySmallPairsInTheBlockCache", seed -> {
      Random rnd = new Random(seed);
      Path dir = tmp.resolve("shard-" + seed);
      // 64 MiB of budget: a block cache of 48 MiB, which RocksDB would split into 64 shards of
      // 768 KiB, while the file's filter takes 1.2 MiB (1 M keys) and its index about 0.3 MiB.
      try (RocksDbEngineFactory factory = new RocksDbEngineFactory(1, 64L << 20, Durability.WAL, null)) {
        RocksDbEngine engine = (RocksDbEngine) factory.open(0, dir, true);
        try {
          for (int i = 0; i < PAIRS; i++) {
            engine.put(key(i), value(i));
          }
          engine.flush();
          engine.compact(); // one file at the last level: neither flushed nor pinned as L0
          int files = engine.levels().stream().mapToInt(l -> l.files()).sum();
          assertEquals(1, files, "one file after the compaction");
          RocksDB db = engine.db();
          PerfLevel before = db.getPerfLevel();
          db.setPerfLevel(PerfLevel.ENABLE_COUNT);
          try {
            PerfContext perf = db.getPerfContext();
            perf.reset();
            for (int n = 0; n < GETS; n++) {
              int i = rnd.nextInt(PAIRS);
              assertArrayEquals(value(i), engine.get(key(i)), "key " + i);
              assertNull(engine.get(absentKey(rnd.nextInt(PAIRS))), "a key never written was found");
            }
            long filterReads = perf.getFilterBlockReadCount();
            long indexReads = perf.getIndexBlockReadCount();
            // Read once, then found in the cache; in a shard smaller than the filter, once per get.
            assertTrue(filterReads + indexReads < GETS / 4,
                "index and filter blocks read from the file " + indexReads + " and " + filterReads
                    + " times in " + 2 * GETS + " gets");
          } finally {
            db.setPerfLevel(before);
          }
        } finally {
          engine.close();
        }
      }
    });
  }

  @Test
  void shouldSplitTheBlockCacheIntoShardsOfAtLeast16MiB() {
    assertEquals(0, RocksDbEngineFactory.cacheShardBits(8L << 20));
    assertEquals(0, RocksDbEngineFactory.cacheShardBits(31L << 20));
    assertEquals(1, RocksDbEngineFactory.cacheShardBits(48L << 20));
    assertEquals(3, RocksDbEngineFactory.cacheShardBits(192L << 20));
    assertEquals(4, RocksDbEngineFactory.cacheShardBits(384L << 20));
    assertEquals(6, RocksDbEngineFactory.cacheShardBits(64L << 30));
  }

  /** 24-byte keys in key order, so the pairs are small and their files many-keyed. */
  private static byte[] key(int i) {
    return ByteBuffer.allocate(24).putLong(0x6b65792dL).putLong(i).putLong(~i).array();
  }

  /** A key between two written ones (the file's filter is consulted) that was never written. */
  private static byte[] absentKey(int i) {
    return ByteBuffer.allocate(24).putLong(0x6b65792dL).putLong(i).putLong(i).array();
  }

  private static byte[] value(int i) {
    return ByteBuffer.allocate(8).putInt(i).putInt(i * 31).array();
  }
}
