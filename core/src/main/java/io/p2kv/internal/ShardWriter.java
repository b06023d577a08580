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

  /** Null when nothing reads the shard concurrently (recovery at open, tests). */
  private final StripeVersions versions;
  /** Null unless the store caches values. */
  private final ValueCache cache;
  private final int shard;
  /** The keys the pending batch writes, for the stripe versions and the cache. */
  private final ArrayList<ValueCache.Key> writtenKeys = new ArrayList<>();
  /** With a cache: what each written key then holds (null: deleted). */
  private final ArrayList<Object> writtenValues = new ArrayList<>();

  /** A {@link #writtenValues} entry: drop the key from the cache, whatever the write did. */
  static final Object INVALIDATE = new Object();

  /**
   * @param versions the store's stripe versions, bracketing every engine write ({@link
   *     StripeVersions}); null when nothing reads the shard concurrently (recovery at open)
   * @param cache the value cache, or null; a cache needs {@code versions}
   */
  ShardWriter(Engine engine, WriteProfile profile, StripeVersions versions, ValueCache cache, int shard) {
    if (cache != null && versions == null) {
      throw new IllegalArgumentException("a value cache needs the stripe versions");
    }
    this.engine = engine;
    this.batch = engine.newBatch();
    this.profile = profile;
    this.versions = versions;
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
    if (versions != null) {
      writtenKeys.add(new ValueCache.Key(key));
      if (cache != null) {
        writtenValues.add(value);
      }
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
   * Writes the pending batch with one engine call; it is empty afterwards, also on failure. The
   * write is wrapped in the stripe versions' steps ({@link StripeVersions}), and with a cache in the
   * cache's ({@link ValueCache}).
   */
  void commit() {
    commit(null);
  }

  /**
   * Writes the pending batch as {@link #commit()} does, with the given durability.
   *
   * @param durability the write's durability, or null for the store's
   */
  void commit(io.p2kv.Durability durability) {
    boolean applied = false;
    beginCacheWrite();
    try {
      engine.write(batch, durability);
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

  /**
   * Deletes every key in {@code [from, to)} with the engine's range delete, on its own (the pending
   * batch must be empty). Every stripe of the shard is bracketed, since the keys are not known,
   * and with a cache the cached keys of the range are dropped ({@link ValueCache}, "Range
   * deletes").
   */
  void deleteRange(byte[] from, byte[] to) {
    if (versions == null) {
      engine.deleteRange(from, to);
      return;
    }
    versions.beginAll(shard);
    try {
      engine.deleteRange(from, to);
    } finally {
      if (cache != null) {
        cache.endRangeDelete(shard, from, to);
      } else {
        versions.endAll(shard);
      }
    }
  }

  /**
   * Ingests a table file whose keys lie in {@code [from, to)}, on its own (the pending batch must
   * be empty), bracketed as {@link #deleteRange} is: any key of the range may change.
   */
  void ingest(java.nio.file.Path file, byte[] from, byte[] to) {
    if (versions == null) {
      engine.ingest(file);
      return;
    }
    versions.beginAll(shard);
    try {
      engine.ingest(file);
    } finally {
      if (cache != null) {
        cache.endRangeDelete(shard, from, to);
      } else {
        versions.endAll(shard);
      }
    }
  }

  /** Before the engine write: the written stripes become odd ({@link StripeVersions}). */
  private void beginCacheWrite() {
    if (writtenKeys.isEmpty()) {
      return;
    }
    if (cache != null) {
      cache.beginWrite(shard, writtenKeys);
    } else {
      versions.begin(shard, writtenKeys);
    }
  }

  /** After the engine write: the cache learns what was written, the stripes become even. */
  private void endCacheWrite(boolean applied) {
    if (writtenKeys.isEmpty()) {
      return;
    }
    try {
      if (cache != null) {
        cache.endWrite(shard, writtenKeys, writtenValues, applied);
      } else {
        versions.end(shard, writtenKeys);
      }
    } finally {
      writtenKeys.clear();
      writtenValues.clear();
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
