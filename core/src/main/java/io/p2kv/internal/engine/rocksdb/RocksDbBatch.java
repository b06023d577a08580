package io.p2kv.internal.engine.rocksdb;

import io.p2kv.internal.engine.EngineBatch;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * Not thread-safe: one reusable {@link WriteBatch} of a {@link RocksDbEngine}, user writes in the
 * default column family and metadata in the engine's metadata column family. A failed add clears
 * the batch, so a half-filled batch is never written.
 */
final class RocksDbBatch implements EngineBatch {
  private final RocksDbEngine engine;
  private final ColumnFamilyHandle metaCf;
  private final WriteBatch batch = new WriteBatch();

  RocksDbBatch(RocksDbEngine engine, ColumnFamilyHandle metaCf) {
    this.engine = engine;
    this.metaCf = metaCf;
  }

  WriteBatch batch() {
    return batch;
  }

  @Override
  public void put(byte[] key, byte[] value) {
    try {
      batch.put(key, value);
    } catch (RocksDBException e) {
      throw clearAfter("batch put", e);
    }
  }

  @Override
  public void delete(byte[] key) {
    try {
      batch.delete(key);
    } catch (RocksDBException e) {
      throw clearAfter("batch delete", e);
    }
  }

  @Override
  public void putMeta(byte[] key, byte[] value) {
    try {
      batch.put(metaCf, key, value);
    } catch (RocksDBException e) {
      throw clearAfter("batch meta put", e);
    }
  }

  @Override
  public void deleteMeta(byte[] key) {
    try {
      batch.delete(metaCf, key);
    } catch (RocksDBException e) {
      throw clearAfter("batch meta delete", e);
    }
  }

  private RuntimeException clearAfter(String operation, RocksDBException e) {
    batch.clear();
    return engine.failure(operation, e);
  }

  @Override
  public int count() {
    return batch.count();
  }

  @Override
  public void clear() {
    batch.clear();
  }

  @Override
  public void close() {
    batch.close();
  }
}
