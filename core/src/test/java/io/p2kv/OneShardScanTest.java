package io.p2kv;

import static io.p2kv.SessionBoundaryScanTest.assertPairs;
import static io.p2kv.SessionBoundaryScanTest.expected;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Short ordered reads of one shard (a one-shard store, the default on two cores, or a range inside
 * one shard of a range-partitioned store) take the engine iterator's own loop instead of the
 * merge: checked here against a model under a snapshot and on an engine error mid-read, beside
 * {@code OrderedReadModelTest}, which checks every kind of ordered read on one and many shards.
 */
class OneShardScanTest {
  @TempDir Path tmp;

  private static byte[] key(int i) {
    return Keys.key(String.format("k%06d", i));
  }

  @ParameterizedTest(name = "shards={0}")
  @ValueSource(ints = {1, 3})
  void shouldFailAScanOnAnEngineErrorMidReadNamingTheShardAndFreeItsIterators(int shards) {
    FaultyEngines engines = new FaultyEngines();
    try (P2kv store = engines.builder(shards).open(tmp)) {
      for (int i = 0; i < 300; i++) {
        store.put(key(i), key(i));
      }
      engines.faults.put(0, FaultyEngines.Fault.FAIL_ITERATOR_STEPS);
      ShardFailedException e = assertThrows(ShardFailedException.class, () -> store.scan(null, 100));
      assertEquals(0, e.shard());
      assertTrue(e.getMessage().contains("Corruption"), e.getMessage());
      assertEquals(engines.iteratorsOpened.get(), engines.iteratorsClosed.get(), "every engine iterator was freed");
      assertTrue(engines.iteratorsOpened.get() >= shards, "the scan created its iterators");

      engines.faults.remove(0);
      List<KeyValue> all = store.scan(null, 100);
      assertEquals(100, all.size(), "only the failed read failed");
      for (int i = 0; i < 100; i++) {
        assertArrayEquals(key(i), all.get(i).key(), "pair " + i);
      }
      assertEquals(engines.iteratorsOpened.get(), engines.iteratorsClosed.get());
    }
  }

  @Test
  void shouldReadASnapshotOfOneShardAsOfItsCutWhileTheStoreMovesOn() {
    TestSeeds.run(getClass(), "shouldReadASnapshotOfOneShardAsOfItsCutWhileTheStoreMovesOn",
        this::shouldReadASnapshotOfOneShardAsOfItsCutWhileTheStoreMovesOn);
  }

  private void shouldReadASnapshotOfOneShardAsOfItsCutWhileTheStoreMovesOn(long seed) {
    Random rnd = new Random(seed);
    TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);
    try (P2kv store = P2kv.builder().shards(1).memoryBudgetBytes(64L << 20).open(tmp.resolve("s" + seed))) {
      for (int i = 0; i < 500; i++) {
        byte[] k = key(rnd.nextInt(1000));
        byte[] v = Keys.key("v" + rnd.nextInt());
        store.put(k, v);
        model.put(k, v);
      }
      TreeMap<byte[], byte[]> atCut = new TreeMap<>(model);
      try (Snapshot snapshot = store.snapshot()) {
        for (int i = 0; i < 300; i++) {
          byte[] k = key(rnd.nextInt(1000));
          if (rnd.nextInt(3) == 0) {
            store.delete(k);
            model.remove(k);
          } else {
            byte[] v = Keys.key("w" + rnd.nextInt());
            store.put(k, v);
            model.put(k, v);
          }
        }
        for (int round = 0; round < 50; round++) {
          byte[] start = rnd.nextInt(10) == 0 ? null : key(rnd.nextInt(1100));
          byte[] end = rnd.nextBoolean() ? null : key(rnd.nextInt(1100));
          // Up to past a one-shot read's 256 pairs, so both the one-shot and the iterator path run.
          int limit = rnd.nextInt(300);
          String what = "round " + round + " [" + text(start) + ", " + text(end) + ") limit " + limit;
          assertPairs(expected(atCut, start, end, limit), snapshot.range(start, end, limit), "snapshot " + what);
          assertPairs(expected(model, start, end, limit), store.range(start, end, limit), "store " + what);
          if (end == null) {
            assertPairs(expected(model, start, null, limit), store.scan(start, limit), "scan " + what);
          }
        }
      }
    }
  }

  private static String text(byte[] key) {
    return key == null ? "null" : new String(key, StandardCharsets.US_ASCII);
  }
}
