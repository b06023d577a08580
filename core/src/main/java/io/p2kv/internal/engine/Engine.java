package io.p2kv.internal.engine;

import io.p2kv.LevelStats;
import io.p2kv.SeparationSettings;
import java.util.List;

/**
 * One shard's storage engine, seen as a black box (p2KVS section 4.6: the framework treats WAL,
 * memtable and LSM-tree as opaque and only needs open, submit and close).
 *
 * <h2>Concurrency</h2>
 * The write methods and the pending-batch methods are called by the shard's single worker thread
 * only. {@link #get}, {@link #multiGet} and {@link #newIterator} may also be called concurrently by
 * caller threads (the direct read path), and {@link #property}, {@link #levels}, {@link
 * #applySeparation}, {@link #flush} and {@link #compact} by any thread. {@link #close} is called
 * once, after the worker stopped, the separation tuner stopped, no caller is inside the engine and
 * every iterator was closed; it closes any iterator still open as a last resort.
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
   * Applies new value-separation settings to the live engine. Called off the worker thread (by the
   * store's separation tuner or at open); must not block the worker's writes for long. The default
   * does nothing (engines without value separation).
   *
   * @param settings the settings
   */
  default void applySeparation(SeparationSettings settings) {}

  /**
   * The value-separation settings in force.
   *
   * @return the settings; {@link SeparationSettings#NONE} for engines without value separation
   */
  default SeparationSettings separation() {
    return SeparationSettings.NONE;
  }

  /**
   * Whether the user's tuning hook changed the value-separation options p2kv set, so that
   * retuning them would override the user's choice.
   *
   * @return true if the hook took over value separation
   */
  default boolean separationOverridden() {
    return false;
  }

  /**
   * Flushes memtables to disk and waits (used by tests and tools).
   */
  void flush();

  /**
   * Compacts the whole key range, the bottom level included, collecting blob garbage from every
   * blob file, and waits (used by tools, tests and benchmarks).
   */
  void compact();

  /** Frees the engine's resources. Idempotent. */
  @Override
  void close();
}
