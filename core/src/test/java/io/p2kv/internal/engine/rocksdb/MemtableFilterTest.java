package io.p2kv.internal.engine.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.Durability;
import io.p2kv.TestSeeds;
import io.p2kv.internal.engine.Engine;
import java.nio.file.Path;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.PerfContext;
import org.rocksdb.PerfLevel;
import org.rocksdb.RocksDB;

/**
 * Shards open with a whole-key filter on their memtables: a get of a key the memtable does not
 * hold is answered "not here" by the filter instead of a skiplist search, and a key it holds is
 * still found. Checked through RocksDB's per-thread perf counters (memtable filter hits and
 * misses) and against a model.
 */
class MemtableFilterTest {
  @TempDir Path tmp;

  @Test
  void shouldAnswerGetsOfKeysTheMemtableDoesNotHoldFromItsFilter() throws Exception {
    TestSeeds.run(getClass(), "shouldAnswerGetsOfKeysTheMemtableDoesNotHoldFromItsFilter", seed -> {
      Random rnd = new Random(seed);
      Path dir = tmp.resolve("shard-" + seed);
      try (RocksDbEngineFactory factory = new RocksDbEngineFactory(1, 64L << 20, Durability.WAL, null)) {
        Engine engine = factory.open(0, dir, true);
        try {
          RocksDB db = ((RocksDbEngine) engine).db();
          TreeMap<byte[], byte[]> model = RandomPairs.write(engine, rnd, 20_000);
          PerfLevel before = db.getPerfLevel();
          db.setPerfLevel(PerfLevel.ENABLE_COUNT);
          try {
            PerfContext perf = db.getPerfContext();
            perf.reset();
            int absent = 0;
            for (int i = 0; i < 10_000; i++) {
              byte[] key = new byte[8 + rnd.nextInt(24)];
              rnd.nextBytes(key);
              if (model.containsKey(key)) {
                continue;
              }
              absent++;
              assertNull(engine.get(key), "a key never written was found");
            }
            long filtered = perf.getBloomMemtableMissCount();
            // A whole-key filter of this size has a false-positive rate far below 5 %.
            assertTrue(filtered >= absent * 95L / 100,
                "the memtable filter turned away " + filtered + " of " + absent + " gets of absent keys");
            perf.reset();
            int present = 0;
            for (byte[] key : model.keySet()) {
              if (present++ == 5_000) {
                break;
              }
              assertArrayEquals(model.get(key), engine.get(key));
            }
            assertTrue(perf.getBloomMemtableHitCount() >= 5_000,
                "a key the memtable holds must pass its filter: " + perf.getBloomMemtableHitCount() + " of 5000");
          } finally {
            db.setPerfLevel(before);
          }
        } finally {
          engine.close();
        }
      }
    });
  }
}
