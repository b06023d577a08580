package io.p2kv.internal.engine;

/**
 * Not thread-safe: a write batch of one engine, owned by the thread that fills it (the shard's
 * worker, or recovery before the worker starts). Operations apply in the order added, atomically,
 * when the batch is passed to {@link Engine#write}, which empties it. Metadata operations go to
 * the engine's metadata space (invisible to user reads) and commit atomically with the user
 * writes of the same batch (undo records of cross-shard batches).
 */
public interface EngineBatch extends AutoCloseable {
  /**
   * Adds a put.
   *
   * @param key key
   * @param value value
   */
  void put(byte[] key, byte[] value);

  /**
   * Adds a delete.
   *
   * @param key key
   */
  void delete(byte[] key);

  /**
   * Adds a put into the metadata space.
   *
   * @param key metadata key
   * @param value metadata value
   */
  void putMeta(byte[] key, byte[] value);

  /**
   * Adds a delete in the metadata space.
   *
   * @param key metadata key
   */
  void deleteMeta(byte[] key);

  /**
   * Operations added since the batch was last written or cleared.
   *
   * @return the count
   */
  int count();

  /** Drops every operation added (after a failure while filling it). */
  void clear();

  /** Frees the batch. Idempotent. */
  @Override
  void close();
}
