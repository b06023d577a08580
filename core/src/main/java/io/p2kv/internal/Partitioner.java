package io.p2kv.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Maps a key to its shard. Two kinds, recorded in the manifest so a store is never reopened with
 * another mapping:
 *
 * <ul>
 *   <li><b>hash</b> (the default, p2KVS section 4.2): {@code murmur3_x86_32(key, seed) mod N}, the
 *       hash read as unsigned. Spreads any workload evenly; an ordered read must ask every shard.
 *   <li><b>range</b>: N - 1 split keys in strictly increasing unsigned order; shard i owns {@code
 *       [split[i-1], split[i])}, the first shard everything below {@code split[0]}, the last
 *       everything from {@code split[N-2]} up. An ordered read touches only the shards its range
 *       overlaps, and their key ranges follow shard order; but a hot key range loads one shard.
 * </ul>
 */
public final class Partitioner {
  /** Name of the hash partitioner in the manifest. */
  public static final String NAME = "hash";

  /** Name of the range partitioner in the manifest. */
  public static final String RANGE = "range";

  /** Hash function recorded in the manifest. */
  public static final String HASH = "murmur3_x86_32";

  /** Seed recorded in the manifest. */
  public static final int SEED = 0;

  private final int shards;
  /** Range partitioning: the split keys; null for hash partitioning. */
  private final byte[][] splits;

  /**
   * Creates a hash partitioner.
   *
   * @param shards number of shards, at least 1
   */
  public Partitioner(int shards) {
    if (shards < 1) {
      throw new IllegalArgumentException("shards must be >= 1: " + shards);
    }
    this.shards = shards;
    this.splits = null;
  }

  private Partitioner(byte[][] splits) {
    this.shards = splits.length + 1;
    this.splits = splits;
  }

  /**
   * Creates a range partitioner.
   *
   * @param splitKeys strictly increasing, non-empty keys; {@code splitKeys.size() + 1} shards
   * @return the partitioner
   * @throws IllegalArgumentException if the keys are empty or not strictly increasing
   */
  public static Partitioner range(List<byte[]> splitKeys) {
    String problem = checkSplits(splitKeys);
    if (problem != null) {
      throw new IllegalArgumentException(problem);
    }
    byte[][] copy = new byte[splitKeys.size()][];
    for (int i = 0; i < copy.length; i++) {
      copy[i] = splitKeys.get(i).clone();
    }
    return new Partitioner(copy);
  }

  /**
   * What is wrong with a list of split keys.
   *
   * @param splitKeys the keys
   * @return a message, or null if they are valid
   */
  public static String checkSplits(List<byte[]> splitKeys) {
    for (int i = 0; i < splitKeys.size(); i++) {
      byte[] k = splitKeys.get(i);
      if (k == null) {
        return "split key " + i + " is null";
      }
      if (k.length == 0) {
        return "split key " + i + " is empty: no key is below the empty key, so its shard would stay empty";
      }
      if (i > 0 && Arrays.compareUnsigned(splitKeys.get(i - 1), k) >= 0) {
        return "split keys must be strictly increasing in unsigned byte order; key " + i + " is not";
      }
    }
    return null;
  }

  /**
   * The shard that owns a key.
   *
   * @param key the key
   * @return shard index in [0, shards)
   */
  public int shardOf(byte[] key) {
    if (splits != null) {
      return countSplits(key, true);
    }
    return shards == 1 ? 0 : Integer.remainderUnsigned(Murmur3.hash32(key, SEED), shards);
  }

  /**
   * The first shard that may hold keys {@code >= lower}.
   *
   * @param lower inclusive lower bound, or null
   * @return shard index
   */
  public int firstShard(byte[] lower) {
    return splits == null || lower == null ? 0 : countSplits(lower, true);
  }

  /**
   * The last shard that may hold keys {@code < upper}.
   *
   * @param upper exclusive upper bound, or null
   * @return shard index
   */
  public int lastShard(byte[] upper) {
    return splits == null || upper == null ? shards - 1 : countSplits(upper, false);
  }

  /** Number of split keys {@code <= key} (inclusive) or {@code < key}. */
  private int countSplits(byte[] key, boolean inclusive) {
    int lo = 0;
    int hi = splits.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      int c = Arrays.compareUnsigned(splits[mid], key);
      if (c < 0 || (inclusive && c == 0)) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  /**
   * Whether this is a range partitioner (shards hold disjoint key ranges in shard order).
   *
   * @return true for range partitioning
   */
  public boolean isRange() {
    return splits != null;
  }

  /**
   * The split keys.
   *
   * @return copies of the split keys; empty for hash partitioning
   */
  public List<byte[]> splitKeys() {
    List<byte[]> out = new ArrayList<>();
    if (splits != null) {
      for (byte[] s : splits) {
        out.add(s.clone());
      }
    }
    return out;
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
