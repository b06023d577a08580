package io.p2kv.internal.engine.rocksdb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.p2kv.Durability;
import io.p2kv.SeparationSettings;
import io.p2kv.TestSeeds;
import io.p2kv.internal.engine.Engine;
import io.p2kv.rocksdb.RocksDbConfigurer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ConfigOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.OptionsUtil;

/**
 * Memtables on the host's reserved huge pages: when the host has a pool of pages of at most 2 MiB
 * and a shard's memtable spans at least 16 of them (and only then) every shard opens with {@code
 * memtable_huge_page_size}; a store with the option set keeps and returns its data whether or not
 * the pool has pages free (RocksDB falls back to ordinary memory); and a tuning hook can switch it
 * off.
 */
class HugePagesTest {
  private static final long TWO_MIB = 2L << 20;
  /** A budget whose one shard gets 64 MiB memtables (32 pages of 2 MiB). */
  private static final long LARGE_BUDGET = 256L << 20;

  @TempDir Path tmp;

  @Test
  void shouldUseOnlyAReservedPoolOfPagesOfAtMostTwoMebibytes() {
    assertEquals(TWO_MIB, HugePages.hostPageBytes(meminfo("512", "2048 kB")), "a reserved 2 MiB pool");
    assertEquals(0, HugePages.hostPageBytes(meminfo("0", "2048 kB")), "no pages reserved");
    assertEquals(0, HugePages.hostPageBytes(meminfo("4", "1048576 kB")), "1 GiB pages: a block far beyond a memtable");
    assertEquals(0, HugePages.hostPageBytes(meminfo("8", "524288 kB")), "512 MiB pages (arm64, 64 KiB base pages)");
    assertEquals(1L << 20, HugePages.hostPageBytes(meminfo("16", "1024 kB")), "pages smaller than 2 MiB");
    assertEquals(0, HugePages.hostPageBytes(List.of("MemTotal: 1000 kB", "Hugepagesize: 2048 kB")), "no HugePages_Total");
    assertEquals(0, HugePages.hostPageBytes(List.of("HugePages_Total: 4")), "no Hugepagesize");
    assertEquals(0, HugePages.hostPageBytes(meminfo("four", "2048 kB")), "an unreadable count");
    assertEquals(0, HugePages.hostPageBytes(List.of()), "an empty file");
  }

  @Test
  void shouldUseHugePagesOnlyForMemtablesOfAtLeastSixteenPages() {
    assertEquals(TWO_MIB, HugePages.forMemtable(TWO_MIB, 64L << 20));
    assertEquals(TWO_MIB, HugePages.forMemtable(TWO_MIB, 32L << 20));
    assertEquals(0, HugePages.forMemtable(TWO_MIB, (32L << 20) - 1));
    assertEquals(0, HugePages.forMemtable(TWO_MIB, 4L << 20), "a 4 MiB memtable would start full");
    assertEquals(0, HugePages.forMemtable(0, 64L << 20), "no pool");
  }

  @Test
  void shouldOpenEveryShardWithTheHostsHugePageSizeAndKeepTheDataWithOrWithoutFreePages() throws Exception {
    TestSeeds.run(getClass(), "shouldOpenEveryShardWithTheHostsHugePageSizeAndKeepTheDataWithOrWithoutFreePages", seed -> {
      Path dir = tmp.resolve("huge-" + seed);
      try (RocksDbEngineFactory factory = factory(LARGE_BUDGET, null, TWO_MIB)) {
        assertEquals(TWO_MIB, factory.memtableHugePageBytes(), "what the store's open logs");
        Engine engine = factory.open(0, dir, true);
        try {
          // Flushed three times, so memtables are freed and new ones allocated on the option
          // (from the pool, or from ordinary memory where it has none).
          Random rnd = new Random(seed);
          Map<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
          for (int i = 0; i < 3; i++) {
            model.putAll(writeAndCheck(engine, rnd, 10_000));
            engine.admin().flush();
          }
          for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
            assertArrayEquals(e.getValue(), engine.get(e.getKey()), "after the flushes");
          }
        } finally {
          engine.close();
        }
      }
      assertEquals(TWO_MIB, recordedHugePageSize(dir));
    });
  }

  @Test
  void shouldKeepMemtablesOffHugePagesWithoutAPoolForSmallMemtablesOrWhenTheHookSaysSo() throws Exception {
    Path none = tmp.resolve("none");
    try (RocksDbEngineFactory factory = factory(LARGE_BUDGET, null, 0)) {
      factory.open(0, none, true).close();
    }
    assertEquals(0, recordedHugePageSize(none));
    Path small = tmp.resolve("small"); // a 16 MiB budget: 4 MiB memtables
    try (RocksDbEngineFactory factory = factory(16L << 20, null, TWO_MIB)) {
      assertEquals(0, factory.memtableHugePageBytes());
      factory.open(0, small, true).close();
    }
    assertEquals(0, recordedHugePageSize(small));
    Path hooked = tmp.resolve("hooked");
    try (RocksDbEngineFactory factory = factory(LARGE_BUDGET, (shard, options) -> options.setMemtableHugePageSize(0), TWO_MIB)) {
      factory.open(0, hooked, true).close();
    }
    assertEquals(0, recordedHugePageSize(hooked));
  }

  /**
   * Where this host has free huge pages of at most 2 MiB (not on CI hosts, which reserve none),
   * a store opened with the factory's own reading of the host takes memtable blocks from the pool.
   */
  @Test
  void shouldTakeMemtableMemoryFromTheHostsPoolWhenItHasFreePages() throws Exception {
    List<String> before = Files.readAllLines(Path.of("/proc/meminfo"));
    assumeTrue(HugePages.hostPageBytes(before) > 0 && free(before) >= 8, "this host has no free huge pages of at most 2 MiB");
    Path dir = tmp.resolve("pool");
    try (RocksDbEngineFactory factory = new RocksDbEngineFactory(1, LARGE_BUDGET, Durability.WAL, null)) {
      Engine engine = factory.open(0, dir, true);
      try {
        writeAndCheck(engine, new Random(7), 20_000);
        long used = free(before) - free(Files.readAllLines(Path.of("/proc/meminfo")));
        assertTrue(used >= 1, "no huge page was taken from the pool while the memtable filled (free before: " + free(before) + ")");
      } finally {
        engine.close();
      }
    }
  }

  private static RocksDbEngineFactory factory(long budget, RocksDbConfigurer hook, long hostHugePageBytes) {
    return new RocksDbEngineFactory(1, budget, Durability.WAL, hook, SeparationSettings.NONE, Double.NaN, hostHugePageBytes);
  }

  private static Map<byte[], byte[]> writeAndCheck(Engine engine, Random rnd, int pairs) {
    TreeMap<byte[], byte[]> model = RandomPairs.write(engine, rnd, pairs);
    for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
      assertArrayEquals(e.getValue(), engine.get(e.getKey()));
    }
    byte[] absent = new byte[40]; // longer than any key written
    rnd.nextBytes(absent);
    assertNull(engine.get(absent));
    return model;
  }

  /** memtable_huge_page_size of the shard's data column family, from its latest OPTIONS file. */
  private static long recordedHugePageSize(Path shard) throws Exception {
    List<ColumnFamilyDescriptor> cfs = new ArrayList<>();
    try (ConfigOptions config = new ConfigOptions(); DBOptions db = new DBOptions()) {
      OptionsUtil.loadLatestOptions(config, shard.toString(), db, cfs);
      try {
        assertEquals("default", new String(cfs.get(0).getName(), StandardCharsets.UTF_8));
        return cfs.get(0).getOptions().memtableHugePageSize();
      } finally {
        for (ColumnFamilyDescriptor cf : cfs) {
          cf.getOptions().close();
        }
      }
    }
  }

  private static List<String> meminfo(String total, String size) {
    return List.of("MemTotal:       24000000 kB", "HugePages_Total:    " + total, "HugePages_Free:     " + total,
        "Hugepagesize:       " + size);
  }

  private static long free(List<String> meminfo) {
    for (String line : meminfo) {
      String[] f = line.trim().split("\\s+");
      if (f[0].equals("HugePages_Free:")) {
        return Long.parseLong(f[1]);
      }
    }
    return 0;
  }
}
