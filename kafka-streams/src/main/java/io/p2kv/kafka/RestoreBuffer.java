package io.p2kv.kafka;

import io.p2kv.Batch;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Not thread-safe: restored changelog records of one task's store, in arrival order, appended to a
 * file (in the task's state directory) until their bulk load reads them back. Records that wait
 * for their load thus cost the heap one 64 KiB write buffer per store instead of their bytes: held
 * on the heap, a restore of 2 M records grew the committed heap to 420-535 MiB against the 210-260
 * MiB of Kafka's own stores, and the heap a JVM has grown it keeps; in files, to 280-390 MiB
 * (docs/benchmarks/KAFKA-STREAMS.md, stop 37). There they sit in the operating system's page cache,
 * which gives them back when it needs the memory. Each record is {@code key length (4 bytes) | key
 * | value length (4 bytes; -1 for a tombstone) | value}.
 */
final class RestoreBuffer {
  private static final int IO_BUFFER_BYTES = 64 << 10;

  private final Path file;
  private DataOutputStream out;
  private int records;
  private long bytes;

  /**
   * @param file where the records wait; created at the first record, deleted by {@link #drain} and
   *     {@link #discard}
   */
  RestoreBuffer(Path file) {
    this.file = file;
  }

  /**
   * Appends a record; a null value is a tombstone.
   *
   * @throws UncheckedIOException if the file cannot be written (a full disk)
   */
  void add(byte[] key, byte[] value) {
    try {
      if (out == null) {
        out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(file), IO_BUFFER_BYTES));
      }
      out.writeInt(key.length);
      out.write(key);
      if (value == null) {
        out.writeInt(-1);
      } else {
        out.writeInt(value.length);
        out.write(value);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write restored records to " + file, e);
    }
    records++;
    bytes += 8 + key.length + (value == null ? 0 : value.length);
  }

  boolean isEmpty() {
    return records == 0;
  }

  /** Bytes of the records buffered. */
  long bytes() {
    return bytes;
  }

  /**
   * The records as a batch of store writes, in arrival order; deletes the file. Call once.
   *
   * @param keys the store's key layout, which turns each user key into its store key
   * @throws UncheckedIOException if the file cannot be read back
   */
  Batch drain(StoreKeys keys) {
    Batch batch = new Batch(records);
    if (out == null) {
      return batch;
    }
    try {
      out.close();
      try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), IO_BUFFER_BYTES))) {
        byte[] scratch = new byte[64];
        for (int r = 0; r < records; r++) {
          int keyLength = in.readInt();
          if (keyLength > scratch.length) {
            scratch = new byte[Math.max(keyLength, 2 * scratch.length)];
          }
          in.readFully(scratch, 0, keyLength);
          byte[] key = keys.data(scratch, 0, keyLength);
          int valueLength = in.readInt();
          if (valueLength < 0) {
            batch.delete(key);
          } else {
            byte[] value = new byte[valueLength];
            in.readFully(value);
            batch.put(key, value);
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read restored records back from " + file, e);
    } finally {
      discard();
    }
    return batch;
  }

  /** Drops the records and deletes the file; safe to call more than once. */
  void discard() {
    try {
      if (out != null) {
        out.close();
      }
    } catch (IOException e) {
      // deleted next; nothing of it is read again
    }
    try {
      Files.deleteIfExists(file);
    } catch (IOException e) {
      // a leftover file is deleted when the store is next initialised
    }
    records = 0;
    bytes = 0;
  }
}
