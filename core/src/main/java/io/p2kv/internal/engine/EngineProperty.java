package io.p2kv.internal.engine;

/** Engine properties the store reports in its stats. */
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
  ESTIMATED_KEYS
}
