package io.p2kv.internal;

/**
 * Maps a key to its shard: {@code murmur3_x86_32(key, seed) mod N}, the hash read as unsigned
 * (p2KVS section 4.2). The name and seed are recorded in the manifest so a store is never reopened
 * with another mapping.
 */
public final class Partitioner {
  /** Name recorded in the manifest. */
  public static final String NAME = "hash";

  /** Hash function recorded in the manifest. */
  public static final String HASH = "murmur3_x86_32";

  /** Seed recorded in the manifest. */
  public static final int SEED = 0;

  private final int shards;

  /**
   * Creates a partitioner.
   *
   * @param shards number of shards, at least 1
   */
  public Partitioner(int shards) {
    if (shards < 1) {
      throw new IllegalArgumentException("shards must be >= 1: " + shards);
    }
    this.shards = shards;
  }

  /**
   * The shard that owns a key.
   *
   * @param key the key
   * @return shard index in [0, shards)
   */
  public int shardOf(byte[] key) {
    return shards == 1 ? 0 : Integer.remainderUnsigned(Murmur3.hash32(key, SEED), shards);
  }

  /**
   * Number of shards.
   *
   * @return shards
   */
  public int shards() {
    return shards;
  }
}
