package io.p2kv.examples.tools;

import io.p2kv.TestSeeds;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.Durability;
import io.p2kv.KeyValue;
import io.p2kv.P2kv;
import io.p2kv.examples.tools.P2kvCliTest.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's first command, {@code ./p2kv demo}, through its entry point with a small size (a
 * few seconds), then {@code ./p2kv stats} on the store it kept. Checks the shape of the output,
 * never the numbers: throughput depends on the machine.
 */
class DemoTest {
  @TempDir Path tmp;

  /** A table row: name, threads, p2kv ops/s, RocksDB ops/s, ratio. */
  private static final Pattern ROW_NUMBERS = Pattern.compile("\\s+4\\s+[0-9,]+\\s+[0-9,]+\\s+[0-9.]+x.*");

  @Test
  void demoShouldPrintATableRowPerOperationAndKeepTheStoreForStats() throws Exception {
    Path dir = tmp.resolve("demo");
    Run demo = P2kvCliTest.cli(
        "demo", "--keys", "20k", "--seconds", "0.2", "--threads", "4", "--dir", dir.toString(), "--keep");

    assertEquals(0, demo.code(), demo.err());
    List<String> lines = demo.out().lines().toList();
    assertTrue(lines.get(1).matches("machine: +\\d+ cores, .*JDK .*"), demo.out());
    for (Demo.Workload w : Demo.WORKLOADS) {
      assertEquals(1, lines.stream().filter(l -> l.startsWith(w.name() + " ")).count(), w.name() + " row in\n" + demo.out());
      String row = lines.stream().filter(l -> l.startsWith(w.name() + " ")).findFirst().orElseThrow();
      assertTrue(ROW_NUMBERS.matcher(row.substring(w.name().length())).matches(), row);
    }
    assertTrue(demo.err().contains("loading p2kv (async puts)") && demo.err().contains("20,000/20,000"), demo.err());
    assertFalse(Files.exists(dir.resolve("rocksdb")), "the baseline is always deleted");

    Path store = dir.resolve("p2kv");
    Run stats = P2kvCliTest.cli("stats", store.toString());
    assertEquals(0, stats.code(), stats.err());
    assertTrue(stats.out().contains("MANIFEST:  format.version=1  shards="), stats.out());
    String shard0 = stats.out().lines().filter(l -> l.startsWith("0 ")).findFirst().orElseThrow();
    // keys estimate, SST bytes, blob bytes (value separation may move values to blob files), ...
    assertTrue(shard0.matches("0 +[0-9,]+ +[0-9.]+ [KMG]iB +[0-9.]+ (B|[KMG]iB) +.*L\\d+ \\d+, .*"), shard0);

    try (P2kv reopened = P2kv.builder().open(store)) {
      // The put rows overwrite random loaded keys with other values; none deletes.
      for (long i = 0; i < 20_000; i += 997) {
        assertEquals(Demo.VALUE_BYTES, reopened.get(Demo.key(i)).length);
      }
    }
  }

  @Test
  void readRowSlicesShouldGiveBothSidesTheSameShareAndTheSameMeanTime() {
    // A read row measures its sides in 2 * READ_SLICES alternating slices; a linear drift of the
    // machine's speed cancels only if each side runs as many slices at the same mean position.
    for (int slices = 1; slices <= 4; slices++) {
      int firstCount = 0;
      long firstPositions = 0;
      long secondPositions = 0;
      for (int slice = 0; slice < 4 * slices; slice++) {
        if (Demo.firstSideRuns(slice)) {
          firstCount++;
          firstPositions += slice;
        } else {
          secondPositions += slice;
        }
      }
      assertEquals(2 * slices, firstCount, "slices of the first side in " + 4 * slices);
      assertEquals(firstPositions, secondPositions, "sum of slice positions per side in " + 4 * slices);
    }
    assertTrue(Demo.firstSideRuns(0), "the side that starts runs the first slice");
    assertEquals(0, (2 * Demo.READ_SLICES) % 4, "READ_SLICES must be even: A B B A in whole blocks");
  }

  @Test
  void scanRowShouldReadTheSamePairsFromP2kvAndFromTheBaseline() {
    TestSeeds.run(getClass(), "scanRowShouldReadTheSamePairsFromP2kvAndFromTheBaseline",
        this::scanRowShouldReadTheSamePairsFromP2kvAndFromTheBaseline);
  }

  private void scanRowShouldReadTheSamePairsFromP2kvAndFromTheBaseline(long seed) {
    try (P2kv store = P2kv.builder().shards(3).memoryBudgetBytes(16L << 20).open(tmp.resolve("p2kv"));
        PlainRocksDb rocks = new PlainRocksDb(tmp.resolve("rocksdb"), Durability.WAL, 16L << 20)) {
      int keys = 3_000;
      byte[][] k = new byte[keys][];
      byte[][] v = new byte[keys][];
      for (int i = 0; i < keys; i++) {
        k[i] = Demo.key(i);
        v[i] = Demo.valueOf(i);
        store.put(k[i], v[i]);
      }
      rocks.putAll(k, v, keys);
      SplittableRandom rnd = new SplittableRandom(seed);
      for (int n = 0; n < 50; n++) {
        byte[] start = Demo.key(rnd.nextLong(keys));
        List<KeyValue> expected = store.scan(start, Demo.SCAN_LENGTH);
        assertEquals(expected, rocks.scan(start, Demo.SCAN_LENGTH));
        assertArrayEquals(start, expected.get(0).key(), "a scan from a loaded key starts at it");
      }
      assertEquals(List.of(), rocks.scan(new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF}, 10));
      assertEquals(keys, rocks.scan(new byte[0], keys + 1).size());
    }
  }

  @Test
  void demoShouldDeleteBothStoresWithoutKeep() throws Exception {
    Path dir = tmp.resolve("demo");
    Run demo = P2kvCliTest.cli("demo", "--keys", "2000", "--seconds", "0.1", "--threads", "2", "--dir", dir.toString());

    assertEquals(0, demo.code(), demo.err());
    try (var list = Files.list(dir)) {
      assertEquals(0, list.count(), "the demo removes what it created");
    }
  }
}
