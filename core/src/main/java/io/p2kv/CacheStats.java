package io.p2kv;

/**
 * Immutable: the counters of a store's value cache ({@link P2kv.Builder#cacheBytes(long)}) since
 * the store opened. All zero when the cache is off.
 *
 * @param capacityBytes the cache's size limit in bytes; 0 when off
 * @param hits point reads answered from the cache (a cached absent key included)
 * @param misses point reads that looked in the cache and read the shard
 * @param evictions entries the cache dropped to stay within its capacity
 * @param entries entries now (an estimate)
 * @param bytes bytes the entries weigh now: keys, values and a fixed overhead per entry
 */
public record CacheStats(long capacityBytes, long hits, long misses, long evictions, long entries, long bytes) {
  /** The counters of a store without a cache. */
  public static final CacheStats NONE = new CacheStats(0, 0, 0, 0, 0, 0);

  /**
   * Hits per point read that looked in the cache.
   *
   * @return hits / (hits + misses), or 0 before the first read
   */
  public double hitRatio() {
    long reads = hits + misses;
    return reads == 0 ? 0 : (double) hits / reads;
  }
}
