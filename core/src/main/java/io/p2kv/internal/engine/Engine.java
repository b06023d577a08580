package io.p2kv.internal.engine;

import io.p2kv.SeparationSettings;
import java.util.List;

/**
 * One shard's storage engine, seen as a black box (p2KVS section 4.6: the framework treats WAL,
 * memtable and LSM-tree as opaque and only needs open, submit and close).
 *
 * <h2>Concurrency</h2>
 * The write methods and the pending-batch methods are called by the shard's single worker thread
 * only. {@link #get} and {@link #multiGet} may also be called concurrently by caller threads (the
 * direct read path), and {@link #property}, {@link #applySeparation}, {@link #flush} and {@link
 * #compact} by any thread. {@link #close} is called once, after the worker stopped, the separation
 * tuner stopped and no caller is inside the engine.
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
