package io.p2kv;

import java.util.List;

/**
 * Immutable: a snapshot of one shard's counters and engine properties. Counters count since the
 * store opened. Engine properties are -1 when the engine does not report them.
 *
 * <p>Write amplification is {@code (flushWriteBytes + compactionWriteBytes) / userBytesWritten}:
 * bytes written to SST and blob files per byte of keys and values the application wrote (the
 * write-ahead log, one more copy of every write, is not included). Space amplification is {@code
 * (sstBytes + blobBytes) / liveDataBytes}.
 *
 * @param shard shard index
 * @param puts puts executed by the worker
 * @param deletes deletes executed by the worker
 * @param batches single-shard atomic batches executed
 * @param crossShardParts parts of cross-shard atomic batches prepared on this shard
 * @param writeCalls engine write calls (one per opportunistic write batch)
 * @param writeOps operations written (puts + deletes + operations inside batches)
 * @param maxWriteBatch the largest write batch, in operations
 * @param workerReads keys read through the worker
 * @param readCalls engine read calls by the worker (one get or one multiGet per read batch)
 * @param maxReadBatch the largest read batch, in keys
 * @param directReads point reads that bypassed the worker (direct read path)
 * @param failedRequests requests that completed with an error
 * @param queueDepth requests waiting in the queue now
 * @param queueCapacity the queue's capacity
 * @param rejectedOffers times a caller found the queue full
 * @param memtableBytes bytes in memtables
 * @param pendingCompactionBytes estimated bytes compaction still has to rewrite
 * @param sstBytes bytes in SST files
 * @param blobBytes bytes in blob files
 * @param estimatedKeys estimated number of keys
 * @param levels the LSM tree's levels, from level 0 up to the last level holding files (empty if
 *     the engine does not report them)
 * @param userBytesWritten key and value bytes of the puts, deletes and batches written
 * @param flushWriteBytes bytes flushes wrote to SST and blob files
 * @param compactionWriteBytes bytes compactions wrote to SST and blob files (garbage collection
 *     included)
 * @param blobWriteBytes of the flush and compaction bytes, those written to blob files
 * @param liveDataBytes the engine's estimate of the live bytes (in SST and blob files)
 * @param blobGarbageBytes bytes in blob files that belong to overwritten or deleted values
 * @param backgroundJobs flushes and compactions running or waiting to run
 * @param separation the value-separation settings in force (current thresholds)
 */
public record ShardStats(
    int shard,
    long puts,
    long deletes,
    long batches,
    long crossShardParts,
    long writeCalls,
    long writeOps,
    long maxWriteBatch,
    long workerReads,
    long readCalls,
    long maxReadBatch,
    long directReads,
    long failedRequests,
    int queueDepth,
    int queueCapacity,
    long rejectedOffers,
    long memtableBytes,
    long pendingCompactionBytes,
    long sstBytes,
    long blobBytes,
    long estimatedKeys,
    List<LevelStats> levels,
    long userBytesWritten,
    long flushWriteBytes,
    long compactionWriteBytes,
    long blobWriteBytes,
    long liveDataBytes,
    long blobGarbageBytes,
    long backgroundJobs,
    SeparationSettings separation) {

  /**
   * Creates a snapshot.
   *
   * @throws NullPointerException if levels is null
   */
  public ShardStats {
    levels = List.copyOf(levels);
  }

  /**
   * Mean operations per engine write call: how well opportunistic batching merges writes.
   *
   * @return mean write batch size, 0 if nothing was written
   */
  public double meanWriteBatch() {
    return writeCalls == 0 ? 0 : (double) writeOps / writeCalls;
  }

  /**
   * Mean keys per engine read call by the worker.
   *
   * @return mean read batch size, 0 if nothing was read through the worker
   */
  public double meanReadBatch() {
    return readCalls == 0 ? 0 : (double) workerReads / readCalls;
  }

  /**
   * Bytes flushes and compactions wrote to the device (SST and blob files).
   *
   * @return bytes, 0 if the engine does not report them
   */
  public long deviceWriteBytes() {
    return Math.max(0, flushWriteBytes) + Math.max(0, compactionWriteBytes);
  }

  /**
   * Write amplification: device bytes written by flushes and compactions per user byte written.
   *
   * @return the ratio, 0 if nothing was written
   */
  public double writeAmplification() {
    return userBytesWritten == 0 ? 0 : (double) deviceWriteBytes() / userBytesWritten;
  }

  /**
   * Space amplification: SST and blob file bytes per live byte.
   *
   * @return the ratio, 0 if the engine reports no live data
   */
  public double spaceAmplification() {
    return liveDataBytes <= 0 ? 0 : (double) (Math.max(0, sstBytes) + Math.max(0, blobBytes)) / liveDataBytes;
  }

  /**
   * Fraction of the blob file bytes that is garbage.
   *
   * @return 0 to 1, 0 without blob files
   */
  public double blobGarbageRatio() {
    return blobBytes <= 0 ? 0 : (double) Math.max(0, blobGarbageBytes) / blobBytes;
  }
}
