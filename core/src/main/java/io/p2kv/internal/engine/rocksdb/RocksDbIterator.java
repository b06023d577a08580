package io.p2kv.internal.engine.rocksdb;

import io.p2kv.internal.engine.EngineIterator;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.Snapshot;

/**
 * A {@link RocksIterator} with the native objects it needs. The iterator's implicit snapshot (the
 * sequence number when it was created or last refreshed) is its point-in-time view.
 *
 * <p>Two kinds: a <b>bounded</b> iterator owns its {@link ReadOptions} and bound {@link Slice}s,
 * and closing frees, in order, the iterator, the read options, then the slices the options point
 * to, exactly once. An <b>unbounded</b> iterator comes from the engine's pool ({@link
 * RocksDbEngine#newIterator}) and uses the engine's shared read options; closing hands the
 * RocksIterator back to the pool, or frees it if the pool is full, the engine is closing or the
 * iteration failed.
 */
final class RocksDbIterator implements EngineIterator {
  private static final int INITIAL_SCRATCH = 256;
  private static final int MAX_SCRATCH = 64 << 10;

  private final RocksDbEngine engine;
  private final RocksIterator iterator;
  private final ReadOptions readOptions;
  private final Slice lower;
  private final Slice upper;
  /** Run once after this iterator is freed (a snapshot's reference), or null. */
  private final Runnable onClose;
  private final AtomicBoolean closed = new AtomicBoolean();
  private boolean failed;
  /**
   * Where key() and value() copy the current entry's bytes before the exact-size copy that is
   * returned: rocksdbjni's array-returning key() and value() allocate the array from native code
   * (a JNI allocation and a local reference per call), which costs more than copying a second
   * time in Java. Grows to the largest key or value read, values up to {@link #MAX_SCRATCH}; a
   * larger value is read straight into its own array.
   */
  private byte[] scratch = new byte[INITIAL_SCRATCH];

  RocksDbIterator(RocksDbEngine engine, RocksIterator iterator, ReadOptions readOptions, Slice lower, Slice upper) {
    this(engine, iterator, readOptions, lower, upper, null);
  }

  private RocksDbIterator(
      RocksDbEngine engine, RocksIterator iterator, ReadOptions readOptions, Slice lower, Slice upper, Runnable onClose) {
    this.onClose = onClose;
    this.engine = engine;
    this.iterator = iterator;
    this.readOptions = readOptions;
    this.lower = lower;
    this.upper = upper;
  }

  @Override
  public void seekToFirst() {
    iterator.seekToFirst();
  }

  @Override
  public void seekToLast() {
    iterator.seekToLast();
  }

  @Override
  public void seek(byte[] key) {
    iterator.seek(key);
  }

  @Override
  public void seekForPrev(byte[] key) {
    iterator.seekForPrev(key);
  }

  @Override
  public boolean valid() {
    if (iterator.isValid()) {
      return true;
    }
    try {
      iterator.status();
    } catch (RocksDBException e) {
      failed = true;
      throw engine.failure("iterate", e);
    }
    return false;
  }

  @Override
  public byte[] key() {
    int n = iterator.key(scratch);
    if (n <= scratch.length) {
      return Arrays.copyOf(scratch, n);
    }
    grow(n);
    iterator.key(scratch);
    return Arrays.copyOf(scratch, n);
  }

  @Override
  public byte[] value() {
    int n = iterator.value(scratch);
    if (n <= scratch.length) {
      return Arrays.copyOf(scratch, n);
    }
    if (n > MAX_SCRATCH) {
      byte[] out = new byte[n];
      iterator.value(out);
      return out;
    }
    grow(n);
    iterator.value(scratch);
    return Arrays.copyOf(scratch, n);
  }

  /** Makes the scratch buffer hold at least {@code n} bytes (n at most {@link #MAX_SCRATCH}, or a key). */
  private void grow(int n) {
    scratch = new byte[Math.max(n, Math.min(MAX_SCRATCH, scratch.length * 2))];
  }

  @Override
  public void next() {
    iterator.next();
  }

  @Override
  public void prev() {
    iterator.prev();
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    try {
      if (readOptions == null) {
        engine.release(iterator, failed);
        return;
      }
      iterator.close();
      readOptions.close();
      if (lower != null) {
        lower.close();
      }
      if (upper != null) {
        upper.close();
      }
    } finally {
      engine.forget(this);
      if (onClose != null) {
        onClose.run();
      }
    }
  }

  /**
   * Opens an iterator with optional bounds, cleaning up what it created if a step fails.
   *
   * @param engine the engine whose DB to read
   * @param lowerInclusive lower bound or null
   * @param upperExclusive upper bound or null
   * @param snapshot the snapshot to read, or null for the latest state
   * @param onClose run once after the iterator is freed, or null
   * @return the iterator
   */
  static RocksDbIterator open(
      RocksDbEngine engine, byte[] lowerInclusive, byte[] upperExclusive, Snapshot snapshot, Runnable onClose) {
    ReadOptions readOptions = new ReadOptions();
    Slice lower = null;
    Slice upper = null;
    try {
      // A prefix extractor set through the tuning hook must not make a seek skip other prefixes.
      readOptions.setTotalOrderSeek(true);
      if (snapshot != null) {
        readOptions.setSnapshot(snapshot);
      }
      if (lowerInclusive != null && lowerInclusive.length > 0) {
        lower = new Slice(lowerInclusive);
        readOptions.setIterateLowerBound(lower);
      }
      if (upperExclusive != null) {
        upper = new Slice(upperExclusive);
        readOptions.setIterateUpperBound(upper);
      }
      RocksIterator iterator = engine.db().newIterator(readOptions);
      return new RocksDbIterator(engine, iterator, readOptions, lower, upper, onClose);
    } catch (RuntimeException | Error e) {
      readOptions.close();
      if (lower != null) {
        lower.close();
      }
      if (upper != null) {
        upper.close();
      }
      throw e;
    }
  }
}
