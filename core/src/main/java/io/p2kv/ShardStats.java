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
 * @param deletes deletes executed by the worker; a {@link P2kv#deleteRange range delete} counts as one
 *     on each shard it ran on
 * @param batches single-shard atomic batches executed
 * @param crossShardParts parts of cross-shard atomic batches prepared on this shard
 * @param writeCalls engine write calls (one per opportunistic write batch)
 * @param writeOps operations written (puts + deletes + operations inside batches)
 * @param maxWriteBatch the largest write batch, in operations
 * @param workerReads keys read through the worker (by gets, multiGets and, for the keys their
 *     run had not written, updates)
 * @param readCalls engine read calls by the worker (one get or one multiGet per read batch, and
 *     per write batch holding updates)
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
 * @param blobCacheCapacityBytes capacity of the store's blob cache, shared by all its shards (every
 *     shard reports the same); -1 without one, like the other engine properties
 * @param blobCacheUsageBytes bytes the store's shared blob cache holds now (every shard reports the
 *     same); -1 without one
 * @param blobCacheHits reads of this shard's separated values served by the blob cache
 * @param blobCacheMisses reads of this shard's separated values that went to a blob file
 * @param scannedPairs pairs this shard's iterators stepped onto (seeks and nexts that found a pair), as the engine counts them
 * @param inliningFilesLeft SST files still to be rewritten to bring separated values back inline after the policy turned read-heavy (0 when nothing is pending)
 * @param updates update functions the worker ran ({@link P2kv#update}, {@link P2kv#merge}, {@link
 *     P2kv#increment}), those that threw included; each is also counted in {@link #writeOps()} if
 *     it wrote, and the keys it read in {@link #workerReads()}
 * @param updateNanos total time the worker spent in update functions, in nanoseconds
 * @param maxUpdateNanos the longest time one update function took, in nanoseconds: how long it
 *     stalled this shard (see "Updates" in {@link P2kv})
 * @param preReadUpdates updates whose function got the value their caller had read ahead on its
 *     own thread (a direct read, counted in {@link #directReads()}), found unchanged by the worker,
 *     which then read nothing for them
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
    SeparationSettings separation,
    long blobCacheCapacityBytes,
    long blobCacheUsageBytes,
    long blobCacheHits,
    long blobCacheMisses,
    long scannedPairs,
    long inliningFilesLeft,
    long updates,
    long updateNanos,
    long maxUpdateNanos,
    long preReadUpdates) {

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

  /**
   * Fraction of this shard's reads of separated values that the blob cache served.
   *
   * @return 0 to 1, 0 if no separated value was read
   */
  public double blobCacheHitRate() {
    long total = Math.max(0, blobCacheHits) + Math.max(0, blobCacheMisses);
    return total == 0 ? 0 : (double) Math.max(0, blobCacheHits) / total;
  }

  /**
   * A builder for a snapshot, for code that creates one (the store, tests of tools that read
   * stats): unlike the canonical constructor, it keeps compiling when a statistic is added. Fields
   * not set are 0, empty or {@link SeparationSettings#NONE}.
   *
   * @param shard the shard index
   * @return a new builder
   */
  public static Builder builder(int shard) {
    return new Builder(shard);
  }

  /** Not thread-safe: collects the fields of a {@link ShardStats}; each setter is named as its accessor. */
  public static final class Builder {
    private final int shard;
    private long puts;
    private long deletes;
    private long batches;
    private long crossShardParts;
    private long writeCalls;
    private long writeOps;
    private long maxWriteBatch;
    private long workerReads;
    private long readCalls;
    private long maxReadBatch;
    private long directReads;
    private long failedRequests;
    private int queueDepth;
    private int queueCapacity;
    private long rejectedOffers;
    private long memtableBytes;
    private long pendingCompactionBytes;
    private long sstBytes;
    private long blobBytes;
    private long estimatedKeys;
    private List<LevelStats> levels = List.of();
    private long userBytesWritten;
    private long flushWriteBytes;
    private long compactionWriteBytes;
    private long blobWriteBytes;
    private long liveDataBytes;
    private long blobGarbageBytes;
    private long backgroundJobs;
    private SeparationSettings separation = SeparationSettings.NONE;
    private long blobCacheCapacityBytes;
    private long blobCacheUsageBytes;
    private long blobCacheHits;
    private long blobCacheMisses;
    private long scannedPairs;
    private long inliningFilesLeft;
    private long updates;
    private long updateNanos;
    private long maxUpdateNanos;
    private long preReadUpdates;

    private Builder(int shard) {
      this.shard = shard;
    }

    /**
     * Sets {@link ShardStats#puts()}.
     *
     * @param puts the value
     * @return this builder
     */
    public Builder puts(long puts) {
      this.puts = puts;
      return this;
    }

    /**
     * Sets {@link ShardStats#deletes()}.
     *
     * @param deletes the value
     * @return this builder
     */
    public Builder deletes(long deletes) {
      this.deletes = deletes;
      return this;
    }

    /**
     * Sets {@link ShardStats#batches()}.
     *
     * @param batches the value
     * @return this builder
     */
    public Builder batches(long batches) {
      this.batches = batches;
      return this;
    }

    /**
     * Sets {@link ShardStats#crossShardParts()}.
     *
     * @param crossShardParts the value
     * @return this builder
     */
    public Builder crossShardParts(long crossShardParts) {
      this.crossShardParts = crossShardParts;
      return this;
    }

    /**
     * Sets {@link ShardStats#writeCalls()}.
     *
     * @param writeCalls the value
     * @return this builder
     */
    public Builder writeCalls(long writeCalls) {
      this.writeCalls = writeCalls;
      return this;
    }

    /**
     * Sets {@link ShardStats#writeOps()}.
     *
     * @param writeOps the value
     * @return this builder
     */
    public Builder writeOps(long writeOps) {
      this.writeOps = writeOps;
      return this;
    }

    /**
     * Sets {@link ShardStats#maxWriteBatch()}.
     *
     * @param maxWriteBatch the value
     * @return this builder
     */
    public Builder maxWriteBatch(long maxWriteBatch) {
      this.maxWriteBatch = maxWriteBatch;
      return this;
    }

    /**
     * Sets {@link ShardStats#workerReads()}.
     *
     * @param workerReads the value
     * @return this builder
     */
    public Builder workerReads(long workerReads) {
      this.workerReads = workerReads;
      return this;
    }

    /**
     * Sets {@link ShardStats#readCalls()}.
     *
     * @param readCalls the value
     * @return this builder
     */
    public Builder readCalls(long readCalls) {
      this.readCalls = readCalls;
      return this;
    }

    /**
     * Sets {@link ShardStats#maxReadBatch()}.
     *
     * @param maxReadBatch the value
     * @return this builder
     */
    public Builder maxReadBatch(long maxReadBatch) {
      this.maxReadBatch = maxReadBatch;
      return this;
    }

    /**
     * Sets {@link ShardStats#directReads()}.
     *
     * @param directReads the value
     * @return this builder
     */
    public Builder directReads(long directReads) {
      this.directReads = directReads;
      return this;
    }

    /**
     * Sets {@link ShardStats#failedRequests()}.
     *
     * @param failedRequests the value
     * @return this builder
     */
    public Builder failedRequests(long failedRequests) {
      this.failedRequests = failedRequests;
      return this;
    }

    /**
     * Sets {@link ShardStats#queueDepth()}.
     *
     * @param queueDepth the value
     * @return this builder
     */
    public Builder queueDepth(int queueDepth) {
      this.queueDepth = queueDepth;
      return this;
    }

    /**
     * Sets {@link ShardStats#queueCapacity()}.
     *
     * @param queueCapacity the value
     * @return this builder
     */
    public Builder queueCapacity(int queueCapacity) {
      this.queueCapacity = queueCapacity;
      return this;
    }

    /**
     * Sets {@link ShardStats#rejectedOffers()}.
     *
     * @param rejectedOffers the value
     * @return this builder
     */
    public Builder rejectedOffers(long rejectedOffers) {
      this.rejectedOffers = rejectedOffers;
      return this;
    }

    /**
     * Sets {@link ShardStats#memtableBytes()}.
     *
     * @param memtableBytes the value
     * @return this builder
     */
    public Builder memtableBytes(long memtableBytes) {
      this.memtableBytes = memtableBytes;
      return this;
    }

    /**
     * Sets {@link ShardStats#pendingCompactionBytes()}.
     *
     * @param pendingCompactionBytes the value
     * @return this builder
     */
    public Builder pendingCompactionBytes(long pendingCompactionBytes) {
      this.pendingCompactionBytes = pendingCompactionBytes;
      return this;
    }

    /**
     * Sets {@link ShardStats#sstBytes()}.
     *
     * @param sstBytes the value
     * @return this builder
     */
    public Builder sstBytes(long sstBytes) {
      this.sstBytes = sstBytes;
      return this;
    }

    /**
     * Sets {@link ShardStats#blobBytes()}.
     *
     * @param blobBytes the value
     * @return this builder
     */
    public Builder blobBytes(long blobBytes) {
      this.blobBytes = blobBytes;
      return this;
    }

    /**
     * Sets {@link ShardStats#estimatedKeys()}.
     *
     * @param estimatedKeys the value
     * @return this builder
     */
    public Builder estimatedKeys(long estimatedKeys) {
      this.estimatedKeys = estimatedKeys;
      return this;
    }

    /**
     * Sets {@link ShardStats#levels()}.
     *
     * @param levels the value
     * @return this builder
     */
    public Builder levels(List<LevelStats> levels) {
      this.levels = levels;
      return this;
    }

    /**
     * Sets {@link ShardStats#userBytesWritten()}.
     *
     * @param userBytesWritten the value
     * @return this builder
     */
    public Builder userBytesWritten(long userBytesWritten) {
      this.userBytesWritten = userBytesWritten;
      return this;
    }

    /**
     * Sets {@link ShardStats#flushWriteBytes()}.
     *
     * @param flushWriteBytes the value
     * @return this builder
     */
    public Builder flushWriteBytes(long flushWriteBytes) {
      this.flushWriteBytes = flushWriteBytes;
      return this;
    }

    /**
     * Sets {@link ShardStats#compactionWriteBytes()}.
     *
     * @param compactionWriteBytes the value
     * @return this builder
     */
    public Builder compactionWriteBytes(long compactionWriteBytes) {
      this.compactionWriteBytes = compactionWriteBytes;
      return this;
    }

    /**
     * Sets {@link ShardStats#blobWriteBytes()}.
     *
     * @param blobWriteBytes the value
     * @return this builder
     */
    public Builder blobWriteBytes(long blobWriteBytes) {
      this.blobWriteBytes = blobWriteBytes;
      return this;
    }

    /**
     * Sets {@link ShardStats#liveDataBytes()}.
     *
     * @param liveDataBytes the value
     * @return this builder
     */
    public Builder liveDataBytes(long liveDataBytes) {
      this.liveDataBytes = liveDataBytes;
      return this;
    }

    /**
     * Sets {@link ShardStats#blobGarbageBytes()}.
     *
     * @param blobGarbageBytes the value
     * @return this builder
     */
    public Builder blobGarbageBytes(long blobGarbageBytes) {
      this.blobGarbageBytes = blobGarbageBytes;
      return this;
    }

    /**
     * Sets {@link ShardStats#backgroundJobs()}.
     *
     * @param backgroundJobs the value
     * @return this builder
     */
    public Builder backgroundJobs(long backgroundJobs) {
      this.backgroundJobs = backgroundJobs;
      return this;
    }

    /**
     * Sets {@link ShardStats#separation()}.
     *
     * @param separation the value
     * @return this builder
     */
    public Builder separation(SeparationSettings separation) {
      this.separation = separation;
      return this;
    }

    /**
     * Sets {@link ShardStats#blobCacheCapacityBytes()}.
     *
     * @param blobCacheCapacityBytes the value
     * @return this builder
     */
    public Builder blobCacheCapacityBytes(long blobCacheCapacityBytes) {
      this.blobCacheCapacityBytes = blobCacheCapacityBytes;
      return this;
    }

    /**
     * Sets {@link ShardStats#blobCacheUsageBytes()}.
     *
     * @param blobCacheUsageBytes the value
     * @return this builder
     */
    public Builder blobCacheUsageBytes(long blobCacheUsageBytes) {
      this.blobCacheUsageBytes = blobCacheUsageBytes;
      return this;
    }

    /**
     * Sets {@link ShardStats#blobCacheHits()}.
     *
     * @param blobCacheHits the value
     * @return this builder
     */
    public Builder blobCacheHits(long blobCacheHits) {
      this.blobCacheHits = blobCacheHits;
      return this;
    }

    /**
     * Sets {@link ShardStats#blobCacheMisses()}.
     *
     * @param blobCacheMisses the value
     * @return this builder
     */
    public Builder blobCacheMisses(long blobCacheMisses) {
      this.blobCacheMisses = blobCacheMisses;
      return this;
    }

    /**
     * Sets {@link ShardStats#scannedPairs()}.
     *
     * @param scannedPairs the value
     * @return this builder
     */
    public Builder scannedPairs(long scannedPairs) {
      this.scannedPairs = scannedPairs;
      return this;
    }

    /**
     * Sets {@link ShardStats#inliningFilesLeft()}.
     *
     * @param inliningFilesLeft the value
     * @return this builder
     */
    public Builder inliningFilesLeft(long inliningFilesLeft) {
      this.inliningFilesLeft = inliningFilesLeft;
      return this;
    }

    /**
     * Sets {@link ShardStats#updates()}.
     *
     * @param updates the value
     * @return this builder
     */
    public Builder updates(long updates) {
      this.updates = updates;
      return this;
    }

    /**
     * Sets {@link ShardStats#updateNanos()}.
     *
     * @param updateNanos the value
     * @return this builder
     */
    public Builder updateNanos(long updateNanos) {
      this.updateNanos = updateNanos;
      return this;
    }

    /**
     * Sets {@link ShardStats#maxUpdateNanos()}.
     *
     * @param maxUpdateNanos the value
     * @return this builder
     */
    public Builder maxUpdateNanos(long maxUpdateNanos) {
      this.maxUpdateNanos = maxUpdateNanos;
      return this;
    }

    /**
     * Sets {@link ShardStats#preReadUpdates()}.
     *
     * @param preReadUpdates the value
     * @return this builder
     */
    public Builder preReadUpdates(long preReadUpdates) {
      this.preReadUpdates = preReadUpdates;
      return this;
    }

    /**
     * The snapshot.
     *
     * @return a new {@link ShardStats}
     */
    public ShardStats build() {
      return new ShardStats(
          shard,
          puts,
          deletes,
          batches,
          crossShardParts,
          writeCalls,
          writeOps,
          maxWriteBatch,
          workerReads,
          readCalls,
          maxReadBatch,
          directReads,
          failedRequests,
          queueDepth,
          queueCapacity,
          rejectedOffers,
          memtableBytes,
          pendingCompactionBytes,
          sstBytes,
          blobBytes,
          estimatedKeys,
          levels,
          userBytesWritten,
          flushWriteBytes,
          compactionWriteBytes,
          blobWriteBytes,
          liveDataBytes,
          blobGarbageBytes,
          backgroundJobs,
          separation,
          blobCacheCapacityBytes,
          blobCacheUsageBytes,
          blobCacheHits,
          blobCacheMisses,
          scannedPairs,
          inliningFilesLeft,
          updates,
          updateNanos,
          maxUpdateNanos,
          preReadUpdates);
    }
  }
}
