package io.p2kv.internal.engine;

import io.p2kv.LevelStats;
import java.util.List;

/**
 * One shard's storage engine, seen as a black box (p2KVS section 4.6: the framework treats WAL,
 * memtable and LSM-tree as opaque and only needs open, submit and close).
 *
 * <h2>Concurrency</h2>
 * The write methods and the pending-batch methods are called by the shard's single worker thread
 * only. {@link #get}, {@link #multiGet} and {@link #newIterator} may also be called concurrently by
 * caller threads (the direct read path) and {@link #property} by any thread. {@link #close} is
 * called once, after the worker stopped, no caller is inside the engine and every iterator was
 * closed; it closes any iterator still open as a last resort.
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
   * Appends a put into the engine's metadata space (invisible to user reads) to the pending batch,
   * so that metadata commits atomically with user writes (undo records of cross-shard batches).
   *
   * @param key metadata key
   * @param value metadata value
   */
  void batchPutMeta(byte[] key, byte[] value);

  /**
   * Appends a delete in the metadata space to the pending batch.
   *
   * @param key metadata key
   */
  void batchDeleteMeta(byte[] key);

  /**
   * Writes one metadata put on its own, with the store's durability. Thread-safe: may be called
   * from any thread, concurrently with the worker (commit records of cross-shard batches).
   *
   * @param key metadata key
   * @param value metadata value
   */
  void putMeta(byte[] key, byte[] value);

  /**
   * Deletes one metadata key on its own, without waiting for durability. Thread-safe.
   *
   * @param key metadata key
   */
  void deleteMeta(byte[] key);

  /**
   * Every metadata pair whose key starts with {@code prefix}, in key order (recovery; called
   * before the worker starts).
   *
   * @param prefix key prefix
   * @return pairs as {key, value}
   */
  List<byte[][]> scanMeta(byte[] prefix);

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
   * Opens an iterator over the keys in {@code [lowerInclusive, upperExclusive)}, reading the
   * engine as of this call (see {@link EngineIterator}). It is not positioned: seek first.
   *
   * @param lowerInclusive lower bound, or null for none
   * @param upperExclusive upper bound, or null for none
   * @return the iterator; the caller closes it
   */
  EngineIterator newIterator(byte[] lowerInclusive, byte[] upperExclusive);

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
