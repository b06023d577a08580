package io.p2kv.internal;

import java.util.Arrays;

/**
 * The shards of one open store and the partitioner that routes keys to them. Immutable.
 */
final class ShardSet {
  private final Shard[] shards;
  private final Partitioner partitioner;

  ShardSet(Shard[] shards, Partitioner partitioner) {
    this.shards = shards;
    this.partitioner = partitioner;
  }

  /** The shard of a key. */
  Shard of(byte[] key) {
    return shards[partitioner.shardOf(key)];
  }

  int indexOf(byte[] key) {
    return partitioner.shardOf(key);
  }

  Shard get(int index) {
    return shards[index];
  }

  int count() {
    return shards.length;
  }

  /** Every shard, in index order (do not modify). */
  Shard[] all() {
    return shards;
  }

  /** The range partitioner if shards hold disjoint key ranges in index order, else null. */
  Partitioner sequential() {
    return partitioner.isRange() ? partitioner : null;
  }

  /** True if no key can lie in {@code [lower, upper)}. */
  static boolean isEmptyRange(byte[] lower, byte[] upper) {
    return upper != null && (upper.length == 0 || (lower != null && Arrays.compareUnsigned(lower, upper) >= 0));
  }

  /**
   * The shards a range touches, in index order: all of them under hash partitioning, the ones
   * whose key ranges overlap it under range partitioning, none for an empty range.
   */
  Shard[] forRange(byte[] lower, byte[] upper) {
    if (isEmptyRange(lower, upper)) {
      return new Shard[0];
    }
    if (!partitioner.isRange()) {
      return shards;
    }
    return Arrays.copyOfRange(shards, partitioner.firstShard(lower), partitioner.lastShard(upper) + 1);
  }
}
