package io.p2kv.bench;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.p2kv.Durability;
import io.p2kv.KeyValue;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The floor baseline of 4-shard scans ({@link RocksBaseline#mergedScan} over {@code rocksdb-x4})
 * must read what one instance reads: the same pairs, in unsigned key order, against a {@code
 * TreeMap} model, for limits below, at and above a share, and for starts before, inside and after
 * the keys. Otherwise section 6 of docs/benchmarks/SCANS.md would compare different work.
 */
class RocksBaselineMergedScanTest {
  @TempDir Path tmp;

  @Test
  void mergedScanOverFourInstancesShouldReadWhatOneInstanceReads() {
    System.setProperty("p2kv.bench.dir", tmp.toString());
    int keys = 3_000;
    TreeMap<byte[], Boolean> model = new TreeMap<>(Arrays::compareUnsigned);
    for (long i = 0; i < keys; i++) {
      model.put(BenchData.key(i), true);
    }
    try (RocksBaseline one = RocksBaseline.open("rocksdb", Durability.WAL, 64L << 20);
        RocksBaseline four = RocksBaseline.open("rocksdb-x4", Durability.WAL, 64L << 20)) {
      one.preload(keys, 112);
      four.preload(keys, 112);
      SplittableRandom rnd = new SplittableRandom(35);
      List<byte[]> starts = new ArrayList<>(List.of(new byte[0], new byte[] {(byte) 0xFF, (byte) 0xFF}));
      for (int i = 0; i < 200; i++) {
        starts.add(BenchData.key(rnd.nextLong(keys)));
        starts.add(ScanBenchmark.prefix(rnd.nextLong()));
      }
      for (byte[] start : starts) {
        for (int limit : new int[] {0, 1, 7, 24, 25, 26, 99, 100, 101, keys + 1}) {
          List<KeyValue> merged = four.mergedScan(start, limit);
          List<KeyValue> single = one.scan(start, limit);
          List<byte[]> expected = model.tailMap(start, true).keySet().stream().limit(limit).toList();
          assertEquals(expected.size(), merged.size(), "pairs from " + Arrays.toString(start) + ", limit " + limit);
          for (int k = 0; k < expected.size(); k++) {
            assertArrayEquals(expected.get(k), merged.get(k).key(), "key " + k + " from " + Arrays.toString(start));
            assertArrayEquals(single.get(k).value(), merged.get(k).value(), "value " + k);
          }
        }
      }
    } finally {
      System.clearProperty("p2kv.bench.dir");
    }
  }
}
