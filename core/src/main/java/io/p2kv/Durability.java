package io.p2kv;

/**
 * How durable an acknowledged write is. Each shard worker writes a whole opportunistic batch with
 * one engine call, so the cost of {@link #SYNC} is one fsync per batch, not per write.
 */
public enum Durability {
  /**
   * No write-ahead log. Fastest; writes still in memtables are lost on a process crash.
   * Acknowledged writes survive only a clean {@link P2kv#close()}.
   */
  NO_WAL,
  /**
   * Write-ahead log without fsync (the default, as in RocksDB). An acknowledged write survives a
   * process crash; it may be lost on power loss or an OS crash.
   */
  WAL,
  /**
   * Write-ahead log with an fsync before the batch is acknowledged: an acknowledged write survives
   * power loss. Such a store writes new logs over the files of old ones (RocksDB's {@code
   * recycle_log_file_num}), which makes each fsync cheaper on file systems that must otherwise
   * also record a grown file size; a batch written with its own {@link #NO_WAL} is logged there.
   */
  SYNC
}
