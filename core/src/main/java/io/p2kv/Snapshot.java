package io.p2kv;

import java.util.List;

/**
 * Thread-safe: a consistent, read-only view of the whole store at one instant, across all shards.
 * Obtain one from {@link P2kv#snapshot()} and close it (try-with-resources).
 *
 * <pre>{@code
 * try (Snapshot s = store.snapshot()) {
 *   long total = 0;
 *   try (KvIterator it = s.prefixIterator(ACCOUNT_PREFIX)) {
 *     while (it.hasNext()) {
 *       total += decode(it.next().value());
 *     }
 *   }
 * }
 * }</pre>
 *
 * <h2>What it sees</h2>
 * Every read of a snapshot sees the same consistent cut of the store (defined in {@link P2kv},
 * "Consistent cuts"): every write completed before {@link P2kv#snapshot()} was called, every
 * cross-shard {@link Batch} wholly or not at all, and no effect without its cause. Writes after
 * the cut are never visible, however long the snapshot stays open. Reads run on the calling
 * thread, straight from RocksDB snapshots; they bypass the value cache.
 *
 * <h2>Cost</h2>
 * Taking a snapshot holds every shard's writers for a moment (the workers meet at a barrier; see
 * "Consistent cuts"). An open snapshot costs no CPU, but RocksDB keeps every version it may read:
 * overwritten and deleted values are kept by compactions until the snapshot is closed, so
 * a long-lived snapshot on a busy store grows the store on disk. Close snapshots promptly.
 *
 * <h2>Life cycle</h2>
 * {@link #close} is idempotent and waits for reads in progress. After it, every method throws
 * {@link IllegalStateException}; iterators already opened from the snapshot keep working until
 * closed. Closing the store closes the snapshots still open (their methods then throw {@link
 * StoreClosedException}). A snapshot dropped without close is reclaimed once the garbage collector
 * finds it, logged like a leaked iterator ({@link KvIterator}, "Life cycle") and counted in {@link
 * StoreStats#leakedSnapshots()}.
 */
public final class Snapshot implements AutoCloseable {
  /** The store's side of a snapshot (arguments already checked); {@link P2kv#snapshot()} makes it. */
  interface Reads {
    byte[] get(byte[] key);

    List<byte[]> multiGet(List<byte[]> keys);

    List<KeyValue> range(byte[] lower, byte[] upper, int limit);

    KvIterator iterator(byte[] lower, byte[] upper, boolean reverse);

    void close();
  }

  private final Reads snapshot;

  Snapshot(Reads snapshot) {
    this.snapshot = snapshot;
  }

  /**
   * Reads a value at the cut.
   *
   * @param key the key
   * @return the value, or null if the key was absent at the cut
   * @throws NullPointerException if key is null
   * @throws IllegalArgumentException if key is too long
   * @throws IllegalStateException if this snapshot is closed
   * @throws P2kvException if the store is closed or failed, or a shard's engine failed
   */
  public byte[] get(byte[] key) {
    Limits.checkKey(key);
    return snapshot.get(key);
  }

  /**
   * Reads many keys at the cut.
   *
   * @param keys the keys (duplicates allowed)
   * @return a new mutable list of values in the order of {@code keys}, null where absent
   * @throws IllegalStateException if this snapshot is closed
   * @throws P2kvException as for {@link #get}
   */
  public List<byte[]> multiGet(List<byte[]> keys) {
    P2kv.checkKeys(keys);
    return snapshot.multiGet(keys);
  }

  /**
   * Reads up to {@code limit} pairs with key {@code >= startKey}, in key order, at the cut.
   *
   * @param startKey the smallest key to return, or null to start at the first key
   * @param limit most pairs to return
   * @return a new mutable list in unsigned key order
   * @throws IllegalStateException if this snapshot is closed
   * @throws P2kvException as for {@link #get}
   */
  public List<KeyValue> scan(byte[] startKey, int limit) {
    P2kv.checkBound(startKey);
    P2kv.checkLimit(limit);
    return snapshot.range(startKey, null, limit);
  }

  /**
   * Reads every pair with key in {@code [startInclusive, endExclusive)} at the cut, into memory;
   * use {@link #iterator} for ranges of unknown size.
   *
   * @param startInclusive the smallest key, or null for no lower bound
   * @param endExclusive the first key after the range, or null for no upper bound
   * @return a new mutable list in unsigned key order
   * @throws IllegalStateException if this snapshot is closed
   * @throws P2kvException as for {@link #get}
   */
  public List<KeyValue> range(byte[] startInclusive, byte[] endExclusive) {
    return range(startInclusive, endExclusive, Integer.MAX_VALUE);
  }

  /**
   * Reads up to {@code limit} pairs with key in {@code [startInclusive, endExclusive)} at the cut,
   * the smallest keys first.
   *
   * @param startInclusive the smallest key, or null for no lower bound
   * @param endExclusive the first key after the range, or null for no upper bound
   * @param limit most pairs to return
   * @return a new mutable list in unsigned key order
   * @throws IllegalStateException if this snapshot is closed
   * @throws P2kvException as for {@link #get}
   */
  public List<KeyValue> range(byte[] startInclusive, byte[] endExclusive, int limit) {
    P2kv.checkBound(startInclusive);
    P2kv.checkBound(endExclusive);
    P2kv.checkLimit(limit);
    return snapshot.range(startInclusive, endExclusive, limit);
  }

  /**
   * A forward streaming iterator over {@code [startInclusive, endExclusive)} at the cut; close it.
   *
   * @param startInclusive the smallest key, or null for no lower bound
   * @param endExclusive the first key after the range, or null for no upper bound
   * @return an open iterator
   * @throws IllegalStateException if this snapshot is closed
   * @throws P2kvException as for {@link #get}
   */
  public KvIterator iterator(byte[] startInclusive, byte[] endExclusive) {
    P2kv.checkBound(startInclusive);
    P2kv.checkBound(endExclusive);
    return snapshot.iterator(startInclusive, endExclusive, false);
  }

  /**
   * A reverse streaming iterator over {@code [startInclusive, endExclusive)} at the cut; close it.
   *
   * @param startInclusive the smallest key, or null for no lower bound
   * @param endExclusive the first key after the range, or null for no upper bound
   * @return an open iterator
   * @throws IllegalStateException if this snapshot is closed
   * @throws P2kvException as for {@link #get}
   */
  public KvIterator reverseIterator(byte[] startInclusive, byte[] endExclusive) {
    P2kv.checkBound(startInclusive);
    P2kv.checkBound(endExclusive);
    return snapshot.iterator(startInclusive, endExclusive, true);
  }

  /**
   * A forward streaming iterator over the keys that start with {@code prefix}, at the cut.
   *
   * @param prefix the prefix; the empty prefix iterates over every key
   * @return an open iterator
   * @throws IllegalStateException if this snapshot is closed
   * @throws P2kvException as for {@link #get}
   */
  public KvIterator prefixIterator(byte[] prefix) {
    Limits.checkKey(prefix);
    return snapshot.iterator(prefix.length == 0 ? null : prefix, P2kv.prefixEnd(prefix), false);
  }

  /** Releases the snapshot. Idempotent; safe from any thread. */
  @Override
  public void close() {
    snapshot.close();
  }
}
