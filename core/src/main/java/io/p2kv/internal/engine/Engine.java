package io.p2kv.internal.engine;

import io.p2kv.LevelStats;
import java.util.List;

/**
 * One shard's storage engine, seen as a black box (p2KVS section 4.6: the framework treats WAL,
 * memtable and LSM-tree as opaque and only needs open, submit and close).
 *
 * <h2>Concurrency</h2>
 * The write methods and the pending-batch methods are called by the shard's single worker thread
 * only. {@link #get} and {@link #multiGet} may also be called concurrently by caller threads (the
 * direct read path) and {@link #property} by any thread. {@link #close} is called once, after the
 * worker stopped and no caller is inside the engine.
 *
 * <h2>Errors</h2>
 * Every method reports engine failures as {@link EngineException}; after a failed {@link
 * #commitBatch} the pending batch is empty again.
 */
public interface Engine extends AutoCloseable {
  /**
   * Writes one put on its own (the single-request fast path).
   *
   * @param key key
   * @param value value
   */
  void put(byte[] key, byte[] value);

  /**
   * Writes one delete on its own.
   *
   * @param key key
   */
  void delete(byte[] key);

  /**
   * Appends a put to the pending batch.
   *
   * @param key key
   * @param value value
   */
  void batchPut(byte[] key, byte[] value);

  /**
   * Appends a delete to the pending batch.
   *
   * @param key key
   */
  void batchDelete(byte[] key);

  /** Writes the pending batch atomically with one engine call, then empties it (also on failure). */
  void commitBatch();

  /**
   * Point read.
   *
   * @param key key
   * @return the value, or null if absent
   */
  byte[] get(byte[] key);

  /**
   * Batched point read with one engine call.
   *
   * @param keys keys, not empty
   * @return values in key order, null where absent
   */
  List<byte[]> multiGet(List<byte[]> keys);

  /**
   * A numeric engine property.
   *
   * @param property which one
   * @return its value, or -1 if the engine does not know it
   */
  long property(EngineProperty property);

  /**
   * The shape of the engine's LSM tree: file count and bytes of each level, from level 0 up to
   * the last level that holds files. May be called by any thread.
   *
   * @return the levels, empty if the engine has none or does not report them
   */
  default List<LevelStats> levels() {
    return List.of();
  }

  /**
   * Flushes memtables to disk and waits (used by tests and tools).
   */
  void flush();

  /** Compacts the whole key range and waits (used by tools and benchmarks). */
  void compact();

  /** Frees the engine's resources. Idempotent. */
  @Override
  void close();
}
