package io.p2kv.internal.engine.rocksdb;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.rocksdb.Options;

/** The rules of {@link SmallFiles}, with RocksDB's defaults (64 MiB target files, L0 trigger 4). */
class SmallFilesRulesTest {
  private static final long MIB = 1L << 20;

  private final Options options = new Options().setWriteBufferSize(64 * MIB).setBlobFileSize(64 * MIB);

  @AfterEach
  void close() {
    options.close();
  }

  @Test
  void shouldFlushRecoveredWritesOnlyOnceTheyAreNoLongerSmall() {
    assertFalse(SmallFiles.shouldFlushRecovered(0, 0, options));
    assertFalse(SmallFiles.shouldFlushRecovered(SmallFiles.MAX_RECOVERED_WALS, 15 * MIB, options));
    assertTrue(SmallFiles.shouldFlushRecovered(SmallFiles.MAX_RECOVERED_WALS + 1, 100, options), "too many WAL files");
    assertTrue(SmallFiles.shouldFlushRecovered(1, 16 * MIB, options), "a quarter of a memtable");
  }

  @Test
  void shouldMergeASmallShardSpreadOverManyFiles() {
    // 8 MiB needs one SST, one blob file and the 4 L0 files a compaction waits for: 6 files.
    assertFalse(SmallFiles.shouldMerge(new SmallFiles.Shape(5, MIB, 8, 7 * MIB), options), "13 files: 7 extra");
    assertTrue(SmallFiles.shouldMerge(new SmallFiles.Shape(5, MIB, 9, 7 * MIB), options), "14 files: 8 extra");
  }

  @Test
  void shouldAllowOneExtraFilePerMebibyteOfData() {
    // 32 MiB: a merge waits for 32 extra files, so it rewrites at most 1 MiB per file it removes.
    assertFalse(SmallFiles.shouldMerge(new SmallFiles.Shape(20, 4 * MIB, 17, 28 * MIB), options));
    assertTrue(SmallFiles.shouldMerge(new SmallFiles.Shape(20, 4 * MIB, 18, 28 * MIB), options));
  }

  @Test
  void shouldLeaveAShardLargerThanOneTargetFileToRocksDb() {
    assertFalse(SmallFiles.shouldMerge(new SmallFiles.Shape(500, 32 * MIB, 500, 33 * MIB), options));
  }

  @Test
  void shouldNotMergeAHealthyShard() {
    // 60 MiB loaded with 4 MiB memtables: 15 full blob files, one SST, three L0 files.
    try (Options small = new Options().setWriteBufferSize(4 * MIB).setBlobFileSize(4 * MIB)) {
      assertFalse(SmallFiles.shouldMerge(new SmallFiles.Shape(4, 4 * MIB, 15, 56 * MIB), small));
    }
  }
}
