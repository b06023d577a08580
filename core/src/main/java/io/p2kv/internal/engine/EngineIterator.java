package io.p2kv.internal.engine;

/**
 * A cursor over one engine's keys in unsigned byte order, within optional bounds, reading one
 * point-in-time view of the engine: the view is fixed when the iterator is created (for RocksDB,
 * the implicit snapshot of a {@code RocksIterator}); seeks move within that view and never refresh
 * it.
 *
 * <h2>Concurrency</h2>
 * Not thread-safe: used by one thread at a time, handed between threads only with a happens-before
 * edge (a queue, a lock, the shard's direct-access guard). It may run concurrently with the
 * engine's writes and point reads. {@link #close} frees native memory: it must not run while
 * another method of the same iterator runs, and no method may run after it; the store enforces
 * both with the shard's direct-access guard.
 *
 * <h2>Positioning</h2>
 * After a seek, {@link #valid()} tells whether the cursor is on an entry within the bounds. The
 * seek targets are already clamped to the bounds by the caller, but an engine must still never
 * return an entry outside them.
 */
public interface EngineIterator extends AutoCloseable {
  /** Positions at the first entry within the bounds. */
  void seekToFirst();

  /** Positions at the last entry within the bounds. */
  void seekToLast();

  /**
   * Positions at the first entry whose key is {@code >= key}.
   *
   * @param key the target, within the bounds
   */
  void seek(byte[] key);

  /**
   * Positions at the last entry whose key is {@code <= key}.
   *
   * @param key the target, within the bounds
   */
  void seekForPrev(byte[] key);

  /**
   * Whether the cursor is on an entry.
   *
   * @return true if on an entry; false once past either end
   * @throws EngineException if iteration failed (I/O error, corruption)
   */
  boolean valid();

  /**
   * The current key; only when {@link #valid()}.
   *
   * @return a new array
   */
  byte[] key();

  /**
   * The current value; only when {@link #valid()}.
   *
   * @return a new array
   */
  byte[] value();

  /** Moves to the next entry in key order; only when {@link #valid()}. */
  void next();

  /** Moves to the previous entry in key order; only when {@link #valid()}. */
  void prev();

  /** Frees the iterator and everything it holds. Idempotent: later calls do nothing. */
  @Override
  void close();
}
