package io.p2kv.internal.engine.rocksdb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.Durability;
import io.p2kv.SeparationSettings;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * How the budget is split between the block cache and the blob cache at an open: by the share of
 * the data in blob files (RocksDbEngineFactory, "Blob cache"). The stores that reach both ends of
 * the rule through real opens are in {@code ReadAwareSeparationTest}.
 */
class BlobCacheSizingTest {
  private static final long BUDGET = 512L << 20;

  /** Values of 1,000 bytes and more in blob files. */
  private static final SeparationSettings SEPARATED = new SeparationSettings(true, 1000, 0, 0.25, 1.0, -1, -1);

  @TempDir Path tmp;

  @Test
  void shouldGiveTheBlobCacheTheStoresShareOfDataInBlobFilesWithinAFloorAndAQuarter() {
    assertEquals(0, RocksDbEngineFactory.blobCacheBytes(BUDGET, false, 0.9), "no blob files, no blob cache");
    assertEquals(BUDGET / 4, RocksDbEngineFactory.blobCacheBytes(BUDGET, true, Double.NaN), "a new store: a quarter");
    assertEquals(BUDGET / 32, RocksDbEngineFactory.blobCacheBytes(BUDGET, true, 0.0), "values all inline: the floor");
    assertEquals(BUDGET / 32, RocksDbEngineFactory.blobCacheBytes(BUDGET, true, 0.01), "below the floor: the floor");
    assertEquals((long) (BUDGET * 0.1), RocksDbEngineFactory.blobCacheBytes(BUDGET, true, 0.1), "in between: the share");
    assertEquals(BUDGET / 4, RocksDbEngineFactory.blobCacheBytes(BUDGET, true, 0.9), "mostly separated: a quarter");
    assertEquals(BUDGET / 4, RocksDbEngineFactory.blobCacheBytes(BUDGET, true, 1.0));
  }

  @Test
  void shouldMeasureTheShareFromTheSizesOfSstAndBlobFilesOfEveryShard() throws IOException {
    Path a = Files.createDirectory(tmp.resolve("shard-0"));
    Path b = Files.createDirectory(tmp.resolve("shard-1"));
    assertTrue(Double.isNaN(RocksDbEngineFactory.blobShareOf(List.of(a, b))), "no data file: unknown");
    file(a, "000012.sst", 500);
    file(a, "000013.blob", 100);
    file(b, "000020.sst", 100);
    file(b, "000021.blob", 300);
    // Write-ahead logs, the manifest, options and info logs are not data files.
    file(a, "000014.log", 10_000);
    file(b, "MANIFEST-000005", 10_000);
    file(b, "OPTIONS-000007", 10_000);
    file(b, "LOG", 10_000);
    assertEquals(400.0 / 1000, RocksDbEngineFactory.blobShareOf(List.of(a, b)), 1e-12);
    assertEquals(100.0 / 600, RocksDbEngineFactory.blobShareOf(List.of(a)), 1e-12);
    assertTrue(Double.isNaN(RocksDbEngineFactory.blobShareOf(List.of(a, tmp.resolve("missing")))),
        "a directory that cannot be listed: unknown (the open reports it)");
  }

  @Test
  void shouldSplitTheBudgetSoThatBothCachesStayWithinIt() {
    for (double share : new double[] {Double.NaN, 0, 0.2, 1}) {
      try (RocksDbEngineFactory f =
          new RocksDbEngineFactory(2, BUDGET, Durability.WAL, null, SEPARATED, share)) {
        assertEquals(BUDGET, f.blockCacheBytes() + f.blobCacheCapacity(), "share " + share);
        assertEquals(RocksDbEngineFactory.blobCacheBytes(BUDGET, true, share), f.blobCacheCapacity(), "share " + share);
      }
    }
  }

  private static void file(Path dir, String name, int bytes) throws IOException {
    Files.write(dir.resolve(name), new byte[bytes]);
  }
}
