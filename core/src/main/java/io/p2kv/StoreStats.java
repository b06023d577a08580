package io.p2kv;

import java.util.List;

/**
 * Immutable: a snapshot of a store's statistics, one entry per shard.
 *
 * @param shards per-shard statistics, by shard index
 */
public record StoreStats(List<ShardStats> shards) {
  /**
   * Creates a snapshot.
   *
   * @param shards per-shard statistics
   */
  public StoreStats {
    shards = List.copyOf(shards);
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
}
