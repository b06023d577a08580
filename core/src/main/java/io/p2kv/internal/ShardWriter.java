package io.p2kv.internal;

import io.p2kv.Batch;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineBatch;
import io.p2kv.internal.separation.WriteProfile;
import java.util.ArrayList;
import java.util.List;

/**
 * Not thread-safe: the write side of one shard worker. Every user write the worker applies passes
 * through here, so the write profile of the adaptive value-separation policy is fed in one place,
 * with no allocation and no locks, and published once per engine write. Owns the worker's engine
 * batch (closed by the shard after the worker stopped).
 */
final class ShardWriter implements AutoCloseable {
  private final Engine engine;
  private final EngineBatch batch;
  /** Null unless the value-separation policy is adaptive. */
  private final WriteProfile profile;

  /** Null unless the store caches values. */
  private final ValueCache cache;
  private final int shard;
  /** The keys the pending batch writes, and what each then holds (null: deleted), for the cache. */
  private final ArrayList<ValueCache.Key> writtenKeys = new ArrayList<>();
  private final ArrayList<Object> writtenValues = new ArrayList<>();

  /** A {@link #writtenValues} entry: drop the key from the cache, whatever the write did. */
  static final Object INVALIDATE = new Object();

  ShardWriter(Engine engine, WriteProfile profile, ValueCache cache, int shard) {
    this.engine = engine;
    this.batch = engine.newBatch();
    this.profile = profile;
    this.cache = cache;
    this.shard = shard;
  }

  /** Adds a put to the pending batch. */
  void put(byte[] key, byte[] value) {
    if (profile != null) {
      profile.recordPut(key, value.length);
    }
    batch.put(key, value);
    written(key, value);
  }

  /** Adds a delete to the pending batch. */
  void delete(byte[] key) {
    if (profile != null) {
      profile.recordDelete(key);
    }
    batch.delete(key);
    written(key, null);
  }

  /**
   * The pending batch changes {@code key} in a way this writer does not see (a rollback written
   * straight into {@link #pending()}): the cache drops it when the batch is written.
   */
  void invalidate(byte[] key) {
    written(key, INVALIDATE);
  }

  private void written(byte[] key, Object value) {
    if (cache != null) {
      writtenKeys.add(new ValueCache.Key(key));
      writtenValues.add(value);
    }
  }

  /** Adds a batch's operations, in order, to the pending batch. */
  void add(List<Batch.Op> ops) {
    for (Batch.Op op : ops) {
      if (op.isDelete()) {
        delete(op.key());
      } else {
        put(op.key(), op.value());
      }
    }
  }

  /** Adds a metadata put to the pending batch (committed atomically with the user writes). */
  void putMeta(byte[] key, byte[] value) {
    batch.putMeta(key, value);
  }

  /** Adds a metadata delete to the pending batch. */
  void deleteMeta(byte[] key) {
    batch.deleteMeta(key);
  }

  /**
   * Writes the pending batch with one engine call; it is empty afterwards, also on failure. With a
   * cache, the write is wrapped in the cache's write steps ({@link ValueCache}).
   */
  void commit() {
    boolean applied = false;
    beginCacheWrite();
    try {
      engine.write(batch);
      applied = true;
    } finally {
      endCacheWrite(applied);
      publishProfile();
    }
  }

  /** Drops what was added (a failure while filling the batch). */
  void discard() {
    batch.clear();
    writtenKeys.clear();
    writtenValues.clear();
    publishProfile();
  }

  /** Writes one put with the engine's single-operation call (a run of one). */
  void putAlone(byte[] key, byte[] value) {
    if (profile != null) {
      profile.recordPut(key, value.length);
    }
    written(key, value);
    boolean applied = false;
    beginCacheWrite();
    try {
      engine.put(key, value);
      applied = true;
    } finally {
      endCacheWrite(applied);
      publishProfile();
    }
  }

  /** Writes one delete with the engine's single-operation call. */
  void deleteAlone(byte[] key) {
    if (profile != null) {
      profile.recordDelete(key);
    }
    written(key, null);
    boolean applied = false;
    beginCacheWrite();
    try {
      engine.delete(key);
      applied = true;
    } finally {
      endCacheWrite(applied);
      publishProfile();
    }
  }

  private void beginCacheWrite() {
    if (cache != null && !writtenKeys.isEmpty()) {
      cache.beginWrite(shard, writtenKeys);
    }
  }

  private void endCacheWrite(boolean applied) {
    if (cache != null && !writtenKeys.isEmpty()) {
      try {
        cache.endWrite(shard, writtenKeys, writtenValues, applied);
      } finally {
        writtenKeys.clear();
        writtenValues.clear();
      }
    }
  }

  private void publishProfile() {
    if (profile != null) {
      profile.publish();
    }
  }

  /**
   * The pending batch itself, for writes that are not user writes (rolling back an aborted
   * cross-shard part), which the write profile must not count.
   */
  EngineBatch pending() {
    return batch;
  }

  WriteProfile profile() {
    return profile;
  }

  @Override
  public void close() {
    batch.close();
  }
}
