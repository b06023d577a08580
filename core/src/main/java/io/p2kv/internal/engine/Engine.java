package io.p2kv.internal.engine;

import java.util.List;

/**
 * One shard's storage engine, seen as a black box (p2KVS section 4.6: the framework treats WAL,
 * memtable and LSM-tree as opaque and only needs open, submit and close). This interface holds the
 * data operations; statistics, tuning and maintenance are on {@link #admin()}.
 *
 * <h2>Concurrency</h2>
 * The write methods ({@link #put}, {@link #delete}, {@link #deleteRange}, {@link
 * #write}) are called in the shard's
 * worker role only: by one thread at a time, the worker thread or a caller holding the role, with
 * a happens-before edge from each holder to the next; so is each {@link EngineBatch}, which the
 * worker owns. {@link
 * #get}, {@link #multiGet} and {@link #newIterator} may also be called concurrently by caller
 * threads (the direct read path); {@link #putMeta} and {@link #deleteMeta} by any thread. {@link
 * #close} is called once, after the worker stopped, the separation tuner stopped, no caller is
 * inside the engine and every iterator was closed; it closes any iterator still open as a last
 * resort.
 *
 * <h2>Errors</h2>
 * Every method reports engine failures as {@link EngineException}; the store maps them to public
 * exceptions in one place ({@code io.p2kv.internal.Errors}).
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
   * Deletes every key in {@code [fromInclusive, toExclusive)} with one engine write (RocksDB's
   * {@code DeleteRange}: one range tombstone, whatever the number of keys), durable as the other
   * writes. Later writes of keys in the range are not affected.
   *
   * @param fromInclusive first key deleted
   * @param toExclusive first key after the range; not below {@code fromInclusive}
   */
  void deleteRange(byte[] fromInclusive, byte[] toExclusive);

  /**
   * A new, empty write batch for this engine. The caller owns it and closes it, before the engine.
   *
   * @return the batch
   */
  EngineBatch newBatch();

  /**
   * Writes a batch of this engine atomically with one engine call, with the store's durability,
   * then empties it (also when the write fails, so it can be reused).
   *
   * @param batch a batch from {@link #newBatch()}
   */
  default void write(EngineBatch batch) {
    write(batch, null);
  }

  /**
   * Writes a batch as {@link #write(EngineBatch)} does, with the given durability instead of the
   * store's. An engine that writes without its log while the store's durability logs remembers it,
   * so that a checkpoint flushes first ({@link EngineAdmin#beginCheckpoint}).
   *
   * @param batch a batch from {@link #newBatch()}
   * @param durability the durability of this write, or null for the store's
   */
  void write(EngineBatch batch, io.p2kv.Durability durability);

  /**
   * Opens a new table file at {@code file} for a later {@link #ingest}, without touching the
   * engine's data. Thread-safe: called on a caller's thread (inside the shard's reader guard, until
   * the writer is closed), concurrently with the worker.
   *
   * @param file the file to create; its directory exists, on the engine's file system
   * @return the file's writer, which the caller closes
   */
  TableWriter openTable(java.nio.file.Path file);

  /**
   * Not thread-safe: writes one table file, an operation at a time, in strictly increasing unsigned
   * key order (no key twice).
   */
  interface TableWriter extends AutoCloseable {
    /**
     * Adds a put.
     *
     * @param key the key, above the last one added
     * @param value the value
     */
    void put(byte[] key, byte[] value);

    /**
     * Adds a delete.
     *
     * @param key the key, above the last one added
     */
    void delete(byte[] key);

    /** Completes the file, which holds at least one operation; it can then be ingested. */
    void finish();

    /** Frees the writer; a file it did not finish is incomplete, and the caller deletes it. */
    @Override
    void close();
  }

  /**
   * Adds a table file from {@link #openTable} to the data, atomically, newer than every write
   * before this call: its puts and deletes replace what the engine held for their keys. Durable on
   * return, with or without the log. The file is moved into the engine (it is gone on success).
   * Worker role only, like the other writes.
   *
   * @param file the table file
   */
  void ingest(java.nio.file.Path file);

  /**
   * Writes one metadata put on its own, with the store's durability. Thread-safe: may be called
   * from any thread, concurrently with the worker.
   *
   * @param key metadata key
   * @param value metadata value
   */
  default void putMeta(byte[] key, byte[] value) {
    putMeta(key, value, null);
  }

  /**
   * Writes one metadata put on its own, at least as durably as {@code atLeast}: logged where the
   * store's writes are not, fsynced where they are not. A cross-shard batch that asked for more
   * durability than the store's has its commit record written so, or a crash could roll back a
   * batch that was acknowledged. Thread-safe: may be called from any thread, concurrently with the
   * worker.
   *
   * @param key metadata key
   * @param value metadata value
   * @param atLeast the least durability the put needs, or null for the store's
   */
  void putMeta(byte[] key, byte[] value, io.p2kv.Durability atLeast);

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
   * @return the value, or null if absent: a new array the caller owns (the worker hands it to an
   *     update function, which may modify it)
   */
  byte[] get(byte[] key);

  /**
   * Batched point read with one engine call.
   *
   * @param keys keys, not empty
   * @return values in key order, null where absent; new arrays the caller owns, as for {@link
   *     #get}
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
   * A point-in-time read view of the engine as of this call. Cheap (no copy); it keeps the data
   * it sees alive until closed, so close it.
   *
   * @return the view; the caller closes it
   */
  EngineSnapshot snapshot();

  /**
   * Statistics, tuning and maintenance of this engine.
   *
   * @return the administrative side of the engine
   */
  EngineAdmin admin();

  /** Frees the engine's resources. Idempotent. */
  @Override
  void close();
}
