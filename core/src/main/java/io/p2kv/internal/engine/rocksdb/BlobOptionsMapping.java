package io.p2kv.internal.engine.rocksdb;

import io.p2kv.SeparationSettings;
import org.rocksdb.CompressionType;
import org.rocksdb.MutableColumnFamilyOptions;
import org.rocksdb.Options;

/**
 * Maps engine-neutral {@link SeparationSettings} onto RocksDB's integrated BlobDB options; the
 * only place that knows the correspondence (docs/VALUE-SEPARATION.md explains the choices).
 *
 * <table>
 *   <caption>settings to RocksDB options</caption>
 *   <tr><th>setting</th><th>RocksDB option</th></tr>
 *   <tr><td>blobFiles</td><td>{@code enable_blob_files}</td></tr>
 *   <tr><td>minBlobBytes</td><td>{@code min_blob_size}</td></tr>
 *   <tr><td>blobFromLevel</td><td>{@code blob_file_starting_level}</td></tr>
 *   <tr><td>gcAgeCutoff</td><td>{@code enable_blob_garbage_collection} (when &gt; 0),
 *       {@code blob_garbage_collection_age_cutoff}</td></tr>
 *   <tr><td>gcGarbageRatio</td><td>{@code blob_garbage_collection_force_threshold}</td></tr>
 * </table>
 *
 * <p>Fixed for every policy: blob files are LZ4-compressed like the SST files (so a value costs the
 * same compression wherever it is placed), a blob file is at most one memtable's worth (the unit
 * of garbage collection: DiffKV's vTables are 8 MB, Parallax's segments 2 MB; RocksDB's default
 * 256 MB would leave small stores with one or two blob files and nothing old enough to collect),
 * and compaction reads blob files with 2 MB readahead while it relocates values.
 *
 * <p>Garbage collection stays on when blob files are off ({@link SeparationSettings#NONE}): then
 * it costs nothing while there are no blob files, and it moves the values of a store that used to
 * separate them back inline as compaction meets them.
 *
 * <p>Every one of these options is mutable, so {@link #mutable} retunes a live store through
 * {@code setOptions}: the new placement applies to every value written from then on (flushes and
 * compaction outputs), and values already in blob files move when garbage collection relocates
 * them (a relocated value below the new {@code min_blob_size} goes back inline).
 */
final class BlobOptionsMapping {
  /** Readahead for blob files read by compaction during garbage collection. */
  static final long BLOB_COMPACTION_READAHEAD_BYTES = 2L << 20;

  private BlobOptionsMapping() {}

  /**
   * The blob file size for a shard's memtable size.
   *
   * @param writeBufferBytes the shard's memtable size
   * @return bytes
   */
  static long blobFileBytes(long writeBufferBytes) {
    return Math.max(4L << 20, Math.min(256L << 20, writeBufferBytes));
  }

  /**
   * Sets the options of a shard about to open (before the user's tuning hook runs).
   *
   * @param options the shard's options
   * @param s the settings
   * @param writeBufferBytes the shard's memtable size
   */
  static void apply(Options options, SeparationSettings s, long writeBufferBytes) {
    options
        .setEnableBlobFiles(s.blobFiles())
        .setMinBlobSize(s.minBlobBytes())
        .setBlobFileStartingLevel(s.blobFromLevel())
        .setEnableBlobGarbageCollection(s.gcAgeCutoff() > 0)
        .setBlobGarbageCollectionAgeCutoff(s.gcAgeCutoff())
        .setBlobGarbageCollectionForceThreshold(s.gcGarbageRatio())
        .setBlobFileSize(blobFileBytes(writeBufferBytes))
        .setBlobCompressionType(CompressionType.LZ4_COMPRESSION)
        .setBlobCompactionReadaheadSize(BLOB_COMPACTION_READAHEAD_BYTES);
  }

  /**
   * The settings the options now hold (to see whether the user's hook changed them).
   *
   * @param options the options after the hook
   * @param asSet the settings p2kv set
   * @return the settings in the options, with {@code asSet}'s size classes
   */
  static SeparationSettings read(Options options, SeparationSettings asSet) {
    boolean gc = options.enableBlobGarbageCollection();
    return new SeparationSettings(
        options.enableBlobFiles(),
        options.minBlobSize(),
        options.blobFileStartingLevel(),
        gc ? options.blobGarbageCollectionAgeCutoff() : 0,
        options.blobGarbageCollectionForceThreshold(),
        asSet.mediumFromBytes(),
        asSet.largeFromBytes());
  }

  /**
   * Whether two settings map to the same RocksDB options (size classes aside).
   *
   * @param a settings
   * @param b settings
   * @return true if the same options
   */
  static boolean sameOptions(SeparationSettings a, SeparationSettings b) {
    return a.blobFiles() == b.blobFiles()
        && a.minBlobBytes() == b.minBlobBytes()
        && a.blobFromLevel() == b.blobFromLevel()
        && Double.compare(a.gcAgeCutoff(), b.gcAgeCutoff()) == 0
        && Double.compare(a.gcGarbageRatio(), b.gcGarbageRatio()) == 0;
  }

  /**
   * The mutable options for {@code setOptions} on a live shard.
   *
   * @param s the new settings
   * @return the options
   */
  static MutableColumnFamilyOptions mutable(SeparationSettings s) {
    return MutableColumnFamilyOptions.builder()
        .setEnableBlobFiles(s.blobFiles())
        .setMinBlobSize(s.minBlobBytes())
        .setBlobFileStartingLevel(s.blobFromLevel())
        .setEnableBlobGarbageCollection(s.gcAgeCutoff() > 0)
        .setBlobGarbageCollectionAgeCutoff(s.gcAgeCutoff())
        .setBlobGarbageCollectionForceThreshold(s.gcGarbageRatio())
        .build();
  }
}
