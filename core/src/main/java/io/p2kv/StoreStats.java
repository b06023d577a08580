package io.p2kv;

import java.util.List;
import java.util.Optional;

/**
 * Immutable: a snapshot of a store's statistics, one entry per shard, the latency of each
 * operation type when the store records latencies, and the store-wide iterator leak count.
 *
 * @param shards per-shard statistics, by shard index
 * @param latencies one entry per {@link OperationType}, in its order, when the store was opened
 *     with {@link P2kv.Builder#recordLatency(boolean)}; empty otherwise
 * @param leakedIterators iterators the application dropped without closing them, which p2kv
 *     closed once the garbage collector found them unreachable, since the store opened (see
 *     {@link KvIterator}, "Life cycle"); always counted, also without {@link
 *     P2kv.Builder#leakDetection(boolean)}. Should stay 0: anything else is a missing {@code
 *     close()}.
 * @param cache the value cache's counters; {@link CacheStats#NONE} when the cache is off
 * @param leakedSnapshots snapshots the application dropped without closing them, which p2kv
 *     closed once the garbage collector found them unreachable, since the store opened (see
 *     {@link Snapshot}, "Life cycle"). Should stay 0.
 * @param cuts how long consistent cuts (snapshots, checkpoints, backups) held the writers
 */
public record StoreStats(
    List<ShardStats> shards,
    List<LatencyStats> latencies,
    long leakedIterators,
    CacheStats cache,
    long leakedSnapshots,
    CutStats cuts) {
  /**
   * Creates a snapshot.
   *
   * @param shards per-shard statistics
   * @param latencies per-operation latencies, or an empty list
   * @param leakedIterators iterators closed because they were dropped open, at least 0
   * @param cache the value cache's counters
   * @param leakedSnapshots snapshots closed because they were dropped open, at least 0
   * @param cuts the cut counters
   */
  public StoreStats {
    shards = List.copyOf(shards);
    latencies = List.copyOf(latencies);
    java.util.Objects.requireNonNull(cache, "cache is null");
    java.util.Objects.requireNonNull(cuts, "cuts is null");
    if (leakedIterators < 0) {
      throw new IllegalArgumentException("leakedIterators is negative: " + leakedIterators);
    }
    if (leakedSnapshots < 0) {
      throw new IllegalArgumentException("leakedSnapshots is negative: " + leakedSnapshots);
    }
  }

  /**
   * Creates a snapshot without cuts.
   *
   * @param shards per-shard statistics
   * @param latencies per-operation latencies, or an empty list
   * @param leakedIterators iterators closed because they were dropped open, at least 0
   * @param cache the value cache's counters
   * @param leakedSnapshots snapshots closed because they were dropped open, at least 0
   */
  public StoreStats(List<ShardStats> shards, List<LatencyStats> latencies, long leakedIterators, CacheStats cache, long leakedSnapshots) {
    this(shards, latencies, leakedIterators, cache, leakedSnapshots, CutStats.NONE);
  }

  /**
   * Creates a snapshot without leaked snapshots.
   *
   * @param shards per-shard statistics
   * @param latencies per-operation latencies, or an empty list
   * @param leakedIterators iterators closed because they were dropped open, at least 0
   * @param cache the value cache's counters
   */
  public StoreStats(List<ShardStats> shards, List<LatencyStats> latencies, long leakedIterators, CacheStats cache) {
    this(shards, latencies, leakedIterators, cache, 0);
  }

  /**
   * Creates a snapshot without a value cache.
   *
   * @param shards per-shard statistics
   * @param latencies per-operation latencies, or an empty list
   * @param leakedIterators iterators closed because they were dropped open, at least 0
   */
  public StoreStats(List<ShardStats> shards, List<LatencyStats> latencies, long leakedIterators) {
    this(shards, latencies, leakedIterators, CacheStats.NONE);
  }

  /**
   * Creates a snapshot without leaked iterators.
   *
   * @param shards per-shard statistics
   * @param latencies per-operation latencies, or an empty list
   */
  public StoreStats(List<ShardStats> shards, List<LatencyStats> latencies) {
    this(shards, latencies, 0);
  }

  /**
   * Creates a snapshot without latencies and without leaked iterators.
   *
   * @param shards per-shard statistics
   */
  public StoreStats(List<ShardStats> shards) {
    this(shards, List.of());
  }

  /**
   * The latency distribution of one operation type.
   *
   * @param operation the operation type
   * @return its latencies, or empty if the store does not record latencies
   */
  public Optional<LatencyStats> latency(OperationType operation) {
    return latencies.stream().filter(l -> l.operation() == operation).findFirst();
  }

  /**
   * Total write operations over all shards.
   *
   * @return puts + deletes + batch operations written
   */
  public long writeOps() {
    return shards.stream().mapToLong(ShardStats::writeOps).sum();
  }

  /**
   * Total engine write calls over all shards.
   *
   * @return write calls
   */
  public long writeCalls() {
    return shards.stream().mapToLong(ShardStats::writeCalls).sum();
  }

  /**
   * Mean write batch size over all shards.
   *
   * @return operations per engine write call
   */
  public double meanWriteBatch() {
    long calls = writeCalls();
    return calls == 0 ? 0 : (double) writeOps() / calls;
  }

  /**
   * Update functions run over all shards (updates, merges, increments).
   *
   * @return functions run, those that threw included
   */
  public long updates() {
    return shards.stream().mapToLong(ShardStats::updates).sum();
  }

  /**
   * The longest any update function took, over all shards: the longest stall it caused its shard.
   *
   * @return nanoseconds, 0 if none ran
   */
  public long maxUpdateNanos() {
    return shards.stream().mapToLong(ShardStats::maxUpdateNanos).max().orElse(0);
  }

  /**
   * Total times callers found a queue full.
   *
   * @return rejected offers
   */
  public long rejectedOffers() {
    return shards.stream().mapToLong(ShardStats::rejectedOffers).sum();
  }

  /**
   * Total bytes in memtables.
   *
   * @return bytes
   */
  public long memtableBytes() {
    return shards.stream().mapToLong(s -> Math.max(0, s.memtableBytes())).sum();
  }

  /**
   * RocksDB's estimate of the bytes its compactions still have to rewrite, over all shards (shards
   * that could not tell count 0).
   *
   * @return bytes
   */
  public long pendingCompactionBytes() {
    return shards.stream().mapToLong(s -> Math.max(0, s.pendingCompactionBytes())).sum();
  }

  /**
   * Total key and value bytes written by the application.
   *
   * @return bytes
   */
  public long userBytesWritten() {
    return shards.stream().mapToLong(ShardStats::userBytesWritten).sum();
  }

  /**
   * Total bytes flushes and compactions wrote to SST and blob files.
   *
   * @return bytes
   */
  public long deviceWriteBytes() {
    return shards.stream().mapToLong(ShardStats::deviceWriteBytes).sum();
  }

  /**
   * Total bytes written to blob files (part of {@link #deviceWriteBytes()}).
   *
   * @return bytes
   */
  public long blobWriteBytes() {
    return shards.stream().mapToLong(s -> Math.max(0, s.blobWriteBytes())).sum();
  }

  /**
   * Write amplification of the whole store: device bytes written by flushes and compactions per
   * user byte written.
   *
   * @return the ratio, 0 if nothing was written
   */
  public double writeAmplification() {
    long user = userBytesWritten();
    return user == 0 ? 0 : (double) deviceWriteBytes() / user;
  }

  /**
   * Total bytes in SST and blob files.
   *
   * @return bytes
   */
  public long diskBytes() {
    return shards.stream().mapToLong(s -> Math.max(0, s.sstBytes()) + Math.max(0, s.blobBytes())).sum();
  }

  /**
   * The engines' estimate of the live bytes, summed.
   *
   * @return bytes
   */
  public long liveDataBytes() {
    return shards.stream().mapToLong(s -> Math.max(0, s.liveDataBytes())).sum();
  }

  /**
   * Space amplification of the whole store: SST and blob file bytes per live byte.
   *
   * @return the ratio, 0 if no live data is reported
   */
  public double spaceAmplification() {
    long live = liveDataBytes();
    return live == 0 ? 0 : (double) diskBytes() / live;
  }

  /**
   * Fraction of all blob file bytes that is garbage.
   *
   * @return 0 to 1
   */
  public double blobGarbageRatio() {
    long blob = shards.stream().mapToLong(s -> Math.max(0, s.blobBytes())).sum();
    long garbage = shards.stream().mapToLong(s -> Math.max(0, s.blobGarbageBytes())).sum();
    return blob == 0 ? 0 : (double) garbage / blob;
  }

  /**
   * Flushes and compactions running or waiting, over all shards.
   *
   * @return jobs
   */
  public long backgroundJobs() {
    return shards.stream().mapToLong(s -> Math.max(0, s.backgroundJobs())).sum();
  }

  /**
   * Capacity of the store's blob cache (one cache shared by every shard, carved out of the memory
   * budget while the value-separation policy may write blob files; sized at open by the share of
   * the data in blob files, see {@link P2kv.Builder#memoryBudgetBytes}).
   *
   * @return bytes, 0 without a blob cache
   */
  public long blobCacheCapacityBytes() {
    return shards.stream().mapToLong(s -> Math.max(0, s.blobCacheCapacityBytes())).max().orElse(0);
  }

  /**
   * Bytes the store's blob cache holds now.
   *
   * @return bytes
   */
  public long blobCacheUsageBytes() {
    return shards.stream().mapToLong(s -> Math.max(0, s.blobCacheUsageBytes())).max().orElse(0);
  }

  /**
   * Fraction of the reads of separated values, over all shards, that the blob cache served.
   *
   * @return 0 to 1, 0 if no separated value was read
   */
  public double blobCacheHitRate() {
    long hits = shards.stream().mapToLong(s -> Math.max(0, s.blobCacheHits())).sum();
    long misses = shards.stream().mapToLong(s -> Math.max(0, s.blobCacheMisses())).sum();
    return hits + misses == 0 ? 0 : (double) hits / (hits + misses);
  }

  /**
   * SST files still to be rewritten, over all shards, to bring separated values back inline after
   * the adaptive value-separation policy turned read-heavy.
   *
   * @return files, 0 when nothing is pending
   */
  public long inliningFilesLeft() {
    return shards.stream().mapToLong(s -> Math.max(0, s.inliningFilesLeft())).sum();
  }
}
