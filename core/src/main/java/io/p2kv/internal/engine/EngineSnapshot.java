package io.p2kv.internal.engine;

import java.util.List;

/**
 * A point-in-time read view of one engine (for RocksDB, a {@code Snapshot}): every read through it
 * sees the engine as it was when {@link Engine#snapshot()} was called, whatever was written since.
 * The store takes one per shard at a consistent cut ({@code io.p2kv.internal.Cut}).
 *
 * <h2>Concurrency</h2>
 * Reads may run concurrently from any thread. {@link #close} must not run while a read or {@link
 * #newIterator} runs (the store guarantees it); iterators opened from the view stay usable after
 * it is closed and keep reading the same view: the engine frees the view once the last of them is
 * closed too. The engine frees every view still open when it closes.
 */
public interface EngineSnapshot extends AutoCloseable {
  /**
   * Point read in the view.
   *
   * @param key key
   * @return the value, or null if absent in the view
   */
  byte[] get(byte[] key);

  /**
   * Batched point read in the view.
   *
   * @param keys keys, not empty
   * @return values in key order, null where absent
   */
  List<byte[]> multiGet(List<byte[]> keys);

  /**
   * An iterator over {@code [lowerInclusive, upperExclusive)} of the view; not positioned.
   *
   * @param lowerInclusive lower bound, or null
   * @param upperExclusive upper bound, or null
   * @return the iterator; the caller closes it
   */
  EngineIterator newIterator(byte[] lowerInclusive, byte[] upperExclusive);

  /** Gives the view back. Idempotent. */
  @Override
  void close();
}
