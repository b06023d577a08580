package io.p2kv.internal.engine;

/** Engine properties the store reports in its stats and the value-separation policy reads. */
public enum EngineProperty {
  /** Bytes in active and immutable memtables. */
  MEMTABLE_BYTES,
  /** Estimated bytes compaction still has to rewrite. */
  PENDING_COMPACTION_BYTES,
  /** Bytes in SST files. */
  SST_BYTES,
  /** Bytes in blob files. */
  BLOB_BYTES,
  /** Estimated number of live keys. */
  ESTIMATED_KEYS,
  /** Bytes written to the device by flushes since open (SST and blob files). */
  FLUSH_WRITE_BYTES,
  /** Bytes written to the device by compactions since open (SST and blob files). */
  COMPACTION_WRITE_BYTES,
  /** Of the flush and compaction bytes, those written to blob files. */
  BLOB_WRITE_BYTES,
  /** Of the compaction bytes, those of live blobs relocated by blob garbage collection. */
  BLOB_GC_RELOCATED_BYTES,
  /** Estimated live bytes (keys and values, as stored), in SST and blob files. */
  LIVE_DATA_BYTES,
  /** Bytes in blob files that belong to overwritten or deleted values. */
  BLOB_GARBAGE_BYTES,
  /** Flushes and compactions running or waiting to run. */
  BACKGROUND_JOBS,
  /** Levels of the LSM-tree that compaction fills (L0 and the levels from the base level down). */
  LSM_LEVELS,
  /** Keys read by point reads (gets and multi-gets) since open, as the engine counts them. */
  POINT_READS,
  /** Pairs iterators stepped onto (seeks and nexts that found a pair) since open. */
  SCANNED_PAIRS,
  /** Capacity of the blob cache (shared by every engine of the store); unknown (-1) without one. */
  BLOB_CACHE_CAPACITY,
  /** Bytes in the blob cache now (shared by every engine of the store); unknown (-1) without one. */
  BLOB_CACHE_USAGE,
  /**
   * Data files the last {@link EngineAdmin#rewriteFilesBelow} call left to rewrite (0 when none
   * is under way).
   */
  REWRITE_FILES_LEFT
}
