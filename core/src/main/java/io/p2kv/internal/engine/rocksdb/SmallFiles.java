package io.p2kv.internal.engine.rocksdb;

import org.rocksdb.Options;

/**
 * When a shard flushes what it recovered from the WAL at open, and when it merges its files
 * (issue 14: short sessions must not pile up small files).
 *
 * <h2>Where small files came from</h2>
 * RocksDB flushes the memtables it rebuilds from the WAL while it opens. After a session of a few
 * writes that is one small L0 file per open, plus one small blob file when values are separated;
 * blob files are merged only by garbage collection, which the adaptive policy keeps off while the
 * writes are inserts. And keys written in order make every L0 compaction write a small file at the
 * bottom level that no later compaction overlaps, so RocksDB never merges it (leveled compaction
 * merges files of a level only with the overlapping files of the next one).
 *
 * <h2>What a shard does instead</h2>
 * <ul>
 *   <li>It opens with {@code avoid_flush_during_recovery}: recovered writes stay in the memtable,
 *       and their WAL files stay until it is flushed. Once the WAL files of more than {@link
 *       #MAX_RECOVERED_WALS} sessions, or a quarter of a memtable, have accumulated, the shard
 *       flushes at open ({@link #shouldFlushRecovered}): flushes are then at least that many
 *       sessions large, and at most that many WAL files (and a quarter memtable) are replayed at
 *       the next open.
 *   <li>A shard whose data fits in one SST file of the tree's target size, but that is spread over
 *       more files than it needs, is compacted whole at open, with garbage collection over every
 *       blob file so small blob files merge too ({@link #shouldMerge}). It waits until the extra
 *       files are at least {@link #EXCESS_FILES} and at least one per {@link
 *       #MERGE_BYTES_PER_FILE} of data, so a merge rewrites at most that much per file it removes.
 * </ul>
 */
final class SmallFiles {
  /** WAL files of earlier sessions a shard keeps at open before it flushes them. */
  static final int MAX_RECOVERED_WALS = 8;

  /** Files beyond what the data needs that make a small shard worth merging at open, at least. */
  static final int EXCESS_FILES = 8;

  /** Bytes of data per extra file a merge may rewrite. */
  static final long MERGE_BYTES_PER_FILE = 1L << 20;

  private SmallFiles() {}

  /**
   * Whether to flush the writes recovered from the WAL at open.
   *
   * @param recoveredWals WAL files of earlier sessions still alive after open
   * @param memtableBytes bytes in the memtables
   * @param options the shard's options
   * @return true to flush now
   */
  static boolean shouldFlushRecovered(long recoveredWals, long memtableBytes, Options options) {
    return recoveredWals > MAX_RECOVERED_WALS || memtableBytes >= options.writeBufferSize() / 4;
  }

  /**
   * The data column family's files.
   *
   * @param sstFiles SST files, every level
   * @param sstBytes their bytes
   * @param blobFiles blob files
   * @param blobBytes their bytes
   */
  record Shape(long sstFiles, long sstBytes, long blobFiles, long blobBytes) {}

  /**
   * Whether to compact a shard whole at open: when its data fits in one SST file of the tree's
   * target size (so the compaction costs no more than one ordinary compaction), and it is spread
   * over more files than it needs (full SST and blob files, plus the L0 files a compaction waits
   * for) by at least {@link #EXCESS_FILES} and at least one per {@link #MERGE_BYTES_PER_FILE}.
   *
   * @param shape the files
   * @param options the shard's options
   * @return true to merge
   */
  static boolean shouldMerge(Shape shape, Options options) {
    long target = Math.max(1, options.targetFileSizeBase());
    long sstBytes = Math.max(0, shape.sstBytes());
    long blobBytes = Math.max(0, shape.blobBytes());
    long data = sstBytes + blobBytes;
    if (shape.sstFiles() < 0 || shape.blobFiles() < 0 || data > target) {
      return false;
    }
    long needed =
        ceilDiv(sstBytes, target)
            + ceilDiv(blobBytes, Math.max(1, options.blobFileSize()))
            + options.level0FileNumCompactionTrigger();
    long excess = shape.sstFiles() + shape.blobFiles() - needed;
    return excess >= Math.max(EXCESS_FILES, data / MERGE_BYTES_PER_FILE);
  }

  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }
}
