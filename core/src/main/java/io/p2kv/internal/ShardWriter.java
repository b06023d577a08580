package io.p2kv.internal;

import io.p2kv.Batch;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineBatch;
import io.p2kv.internal.separation.WriteProfile;
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

  ShardWriter(Engine engine, WriteProfile profile) {
    this.engine = engine;
    this.batch = engine.newBatch();
    this.profile = profile;
  }

  /** Adds a put to the pending batch. */
  void put(byte[] key, byte[] value) {
    if (profile != null) {
      profile.recordPut(key, value.length);
    }
    batch.put(key, value);
  }

  /** Adds a delete to the pending batch. */
  void delete(byte[] key) {
    if (profile != null) {
      profile.recordDelete(key);
    }
    batch.delete(key);
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

  /** Writes the pending batch with one engine call; it is empty afterwards, also on failure. */
  void commit() {
    try {
      engine.write(batch);
    } finally {
      publishProfile();
    }
  }

  /** Drops what was added (a failure while filling the batch). */
  void discard() {
    batch.clear();
    publishProfile();
  }

  /** Writes one put with the engine's single-operation call (a run of one). */
  void putAlone(byte[] key, byte[] value) {
    if (profile != null) {
      profile.recordPut(key, value.length);
    }
    try {
      engine.put(key, value);
    } finally {
      publishProfile();
    }
  }

  /** Writes one delete with the engine's single-operation call. */
  void deleteAlone(byte[] key) {
    if (profile != null) {
      profile.recordDelete(key);
    }
    try {
      engine.delete(key);
    } finally {
      publishProfile();
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
