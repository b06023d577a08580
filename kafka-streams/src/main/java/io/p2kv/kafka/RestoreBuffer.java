package io.p2kv.kafka;

import io.p2kv.Batch;
import java.util.ArrayList;
import java.util.List;

/**
 * Not thread-safe: restored changelog records of one task's store, in arrival order, packed into a
 * few large byte arrays rather than kept as objects, so that records waiting for their bulk load
 * cost the garbage collector a few arrays instead of three objects each. Each record is {@code
 * key length (4 bytes) | key | value length (4 bytes; -1 for a tombstone) | value}, never split
 * across arrays.
 */
final class RestoreBuffer {
  /** Size of a packed array; a record longer than that gets an array of its own. */
  static final int CHUNK_BYTES = 256 << 10;

  private final List<byte[]> chunks = new ArrayList<>();
  private final List<Integer> chunkEnds = new ArrayList<>();
  private byte[] current;
  private int position;
  private int records;
  private long bytes;

  /** Appends a record; a null value is a tombstone. */
  void add(byte[] key, byte[] value) {
    int length = 8 + key.length + (value == null ? 0 : value.length);
    if (current == null || position + length > current.length) {
      closeChunk();
      current = new byte[Math.max(CHUNK_BYTES, length)];
      position = 0;
    }
    position = putInt(current, position, key.length);
    System.arraycopy(key, 0, current, position, key.length);
    position += key.length;
    position = putInt(current, position, value == null ? -1 : value.length);
    if (value != null) {
      System.arraycopy(value, 0, current, position, value.length);
      position += value.length;
    }
    records++;
  }

  private void closeChunk() {
    if (current != null) {
      chunks.add(current);
      chunkEnds.add(position);
      bytes += current.length;
      current = null;
    }
  }

  boolean isEmpty() {
    return records == 0;
  }

  /** Heap bytes the packed arrays take. */
  long heapBytes() {
    return bytes + (current == null ? 0 : current.length);
  }

  /**
   * The records as a batch of store writes, in arrival order, and empties this buffer.
   *
   * @param keys the store's key layout, which turns each user key into its store key
   */
  Batch drain(StoreKeys keys) {
    closeChunk();
    Batch batch = new Batch(records);
    for (int c = 0; c < chunks.size(); c++) {
      byte[] chunk = chunks.get(c);
      int end = chunkEnds.get(c);
      int p = 0;
      while (p < end) {
        int keyLength = getInt(chunk, p);
        byte[] key = keys.data(chunk, p + 4, keyLength);
        p += 4 + keyLength;
        int valueLength = getInt(chunk, p);
        p += 4;
        if (valueLength < 0) {
          batch.delete(key);
        } else {
          byte[] value = new byte[valueLength];
          System.arraycopy(chunk, p, value, 0, valueLength);
          p += valueLength;
          batch.put(key, value);
        }
      }
    }
    chunks.clear();
    chunkEnds.clear();
    records = 0;
    bytes = 0;
    return batch;
  }

  private static int putInt(byte[] a, int p, int v) {
    a[p] = (byte) (v >>> 24);
    a[p + 1] = (byte) (v >>> 16);
    a[p + 2] = (byte) (v >>> 8);
    a[p + 3] = (byte) v;
    return p + 4;
  }

  private static int getInt(byte[] a, int p) {
    return (a[p] & 0xFF) << 24 | (a[p + 1] & 0xFF) << 16 | (a[p + 2] & 0xFF) << 8 | (a[p + 3] & 0xFF);
  }
}
