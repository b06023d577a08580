package io.p2kv.internal.engine.rocksdb;

import io.p2kv.internal.engine.EngineIterator;
import io.p2kv.internal.engine.EngineSnapshot;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.Snapshot;

/**
 * A RocksDB {@link Snapshot} with the {@link ReadOptions} that read through it. Reference counted:
 * the view holds one reference and each iterator opened from it another, because an iterator's
 * read options point at the snapshot; the snapshot and its options are freed, exactly once, when
 * the last reference goes (or when the engine closes, after its iterators).
 */
final class RocksDbSnapshot implements EngineSnapshot {
  private final RocksDbEngine engine;
  private final Snapshot snapshot;
  private final ReadOptions readOptions;
  private final AtomicInteger refs = new AtomicInteger(1);
  private final AtomicBoolean closed = new AtomicBoolean();
  private final AtomicBoolean released = new AtomicBoolean();

  RocksDbSnapshot(RocksDbEngine engine, Snapshot snapshot) {
    this.engine = engine;
    this.snapshot = snapshot;
    this.readOptions = new ReadOptions().setSnapshot(snapshot);
  }

  @Override
  public byte[] get(byte[] key) {
    try {
      return engine.db().get(readOptions, key);
    } catch (RocksDBException e) {
      throw engine.failure("snapshot get", e);
    }
  }

  @Override
  public List<byte[]> multiGet(List<byte[]> keys) {
    try {
      return engine.db().multiGetAsList(readOptions, keys);
    } catch (RocksDBException e) {
      throw engine.failure("snapshot multiGet", e);
    }
  }

  @Override
  public EngineIterator newIterator(byte[] lowerInclusive, byte[] upperExclusive) {
    refs.incrementAndGet();
    try {
      return engine.openIterator(lowerInclusive, upperExclusive, snapshot, this::unref);
    } catch (RuntimeException | Error e) {
      unref();
      throw e;
    }
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      unref();
    }
  }

  private void unref() {
    if (refs.decrementAndGet() == 0) {
      release();
    }
  }

  /** Frees the snapshot and its options once; the engine calls it at close for views left open. */
  void release() {
    if (released.compareAndSet(false, true)) {
      engine.forget(this);
      engine.db().releaseSnapshot(snapshot);
      readOptions.close();
    }
  }
}
