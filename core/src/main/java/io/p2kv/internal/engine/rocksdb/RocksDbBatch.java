package io.p2kv.internal.engine.rocksdb;

import io.p2kv.internal.engine.EngineBatch;
import java.util.Arrays;
import org.rocksdb.WriteBatch;

/**
 * Not thread-safe: one reusable write batch of a {@link RocksDbEngine}, user writes in the default
 * column family and metadata in the engine's metadata column family.
 *
 * <p>The batch is encoded on the Java heap in RocksDB's own write-batch format and handed to
 * RocksDB whole, with one JNI call, when it is written ({@link #toWriteBatch}): adding each
 * operation through {@code org.rocksdb.WriteBatch.put} is a JNI call per operation, which copies the
 * key and the value into native buffers and then into the batch, about 0.3 us for a 128-byte pair
 * on this machine against about 0.07 us for the Java encoding (docs/benchmarks/WRITE-PATH.md). The
 * format (RocksDB's {@code db/write_batch.cc}): a 12-byte header, the sequence number (fixed64,
 * set by RocksDB when it writes the batch) and the operation count (fixed32, little-endian), then
 * per operation a type byte, for the metadata column family its id (varint32), the key and for a
 * put the value, each as a varint32 length and its bytes. {@code RocksDbBatchTest} checks the
 * encoding byte for byte against batches RocksDB builds itself.
 *
 * <p>Memory: the encoded batch lives on the heap while it fills and is copied once when written,
 * so a batch of N bytes needs about 2N bytes of heap at its write (a worker's own runs are capped
 * by {@code maxBatchBytes} or {@code maxDurableBatchBytes}; a user's {@code Batch} is not). A
 * buffer grown past 1 MiB is dropped when the batch is cleared.
 */
final class RocksDbBatch implements EngineBatch {
  /** RocksDB's {@code kTypeDeletion}, {@code kTypeValue} and their column-family variants. */
  private static final byte DELETION = 0x0;
  private static final byte VALUE = 0x1;
  private static final byte CF_DELETION = 0x4;
  private static final byte CF_VALUE = 0x5;
  /** Sequence number (8 bytes) and count (4 bytes). */
  private static final int HEADER_BYTES = 12;
  /** The encoding buffer a new batch starts with. */
  private static final int INITIAL_BYTES = 16 * 1024;
  /** The encoding buffer a cleared batch keeps; a larger one, grown by a big batch, is dropped. */
  private static final int KEPT_BYTES = 1 << 20;
  /** The largest encoded batch: a Java array's limit, with room for the header. */
  private static final long MAX_BYTES = Integer.MAX_VALUE - 16;

  private final RocksDbEngine engine;
  private final int metaCfId;
  private byte[] rep = new byte[INITIAL_BYTES];
  private int size = HEADER_BYTES;
  private int count;

  RocksDbBatch(RocksDbEngine engine, int metaCfId) {
    this.engine = engine;
    this.metaCfId = metaCfId;
  }

  @Override
  public void put(byte[] key, byte[] value) {
    reserve(1 + 10 + (long) key.length + value.length);
    rep[size++] = VALUE;
    bytes(key);
    bytes(value);
    count++;
  }

  @Override
  public void delete(byte[] key) {
    reserve(1 + 5 + (long) key.length);
    rep[size++] = DELETION;
    bytes(key);
    count++;
  }

  @Override
  public void putMeta(byte[] key, byte[] value) {
    reserve(1 + 15 + (long) key.length + value.length);
    rep[size++] = CF_VALUE;
    varint(metaCfId);
    bytes(key);
    bytes(value);
    count++;
  }

  @Override
  public void deleteMeta(byte[] key) {
    reserve(1 + 10 + (long) key.length);
    rep[size++] = CF_DELETION;
    varint(metaCfId);
    bytes(key);
    count++;
  }

  /**
   * A native batch holding the operations added (sequence number 0: RocksDB assigns it), for one
   * write; the caller closes it.
   */
  WriteBatch toWriteBatch() {
    return new WriteBatch(encoded());
  }

  /** A copy of the encoded batch, its header's count set (the sequence number stays 0). */
  byte[] encoded() {
    byte[] r = Arrays.copyOf(rep, size);
    r[8] = (byte) count;
    r[9] = (byte) (count >>> 8);
    r[10] = (byte) (count >>> 16);
    r[11] = (byte) (count >>> 24);
    return r;
  }

  private void reserve(long bytes) {
    long needed = size + bytes;
    if (needed <= rep.length) {
      return;
    }
    if (needed > MAX_BYTES) {
      clear();
      throw engine.failure("batch add", "a write batch would exceed " + MAX_BYTES + " bytes");
    }
    rep = Arrays.copyOf(rep, (int) Math.min(MAX_BYTES, Math.max(needed, 2L * rep.length)));
  }

  private void bytes(byte[] b) {
    varint(b.length);
    System.arraycopy(b, 0, rep, size, b.length);
    size += b.length;
  }

  private void varint(int v) {
    byte[] r = rep;
    int at = size;
    while ((v & ~0x7F) != 0) {
      r[at++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    r[at++] = (byte) v;
    size = at;
  }

  @Override
  public int count() {
    return count;
  }

  @Override
  public void clear() {
    size = HEADER_BYTES;
    count = 0;
    if (rep.length > KEPT_BYTES) {
      rep = new byte[INITIAL_BYTES];
    }
  }

  @Override
  public void close() {
    clear();
  }
}
