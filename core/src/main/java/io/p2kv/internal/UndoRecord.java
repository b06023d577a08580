package io.p2kv.internal;

import io.p2kv.Batch;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineBatch;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Metadata records of cross-shard batches, kept in each engine's metadata space.
 *
 * <ul>
 *   <li>{@code 'u' + gsn (8 bytes, big-endian)} on each shard of a batch: the undo record, the
 *       values its keys had before the batch, written atomically with the shard's part.
 *   <li>{@code 'c' + gsn} on shard 0: the commit record. Its existence decides that batch {@code
 *       gsn} committed.
 *   <li>{@code 'g'} on shard 0: the GSN high-water mark (see {@link GsnSequence}).
 * </ul>
 *
 * <p>Undo record value: {@code gsn:8 count:4} then per distinct key {@code keyLen:4 key
 * present:1 [valueLen:4 value]}.
 */
final class UndoRecord {
  static final byte UNDO = 'u';
  static final byte COMMIT = 'c';
  static final byte[] GSN_KEY = {'g'};

  private UndoRecord() {}

  static byte[] key(byte kind, long gsn) {
    return ByteBuffer.allocate(9).put(kind).putLong(gsn).array();
  }

  static long gsnOf(byte[] key) {
    return ByteBuffer.wrap(key, 1, 8).getLong();
  }

  /**
   * The most bytes an undo record may hold ({@link io.p2kv.P2kv#MAX_BATCH_BYTES}): it holds the old
   * values of a part's keys, which a batch's own size does not bound (deletes of large values), and
   * it is built on the worker's heap.
   */
  static final long MAX_BYTES = io.p2kv.P2kv.MAX_BATCH_BYTES;

  /** Reads the current value of every distinct key of {@code ops} and encodes the undo record. */
  static byte[] capture(long gsn, List<Batch.Op> ops, Engine engine) {
    return capture(gsn, ops, engine, MAX_BYTES);
  }

  /**
   * {@link #capture(long, List, Engine)} with a size limit.
   *
   * @throws IllegalArgumentException if the record would exceed {@code maxBytes}: the batch
   *     would overwrite or delete more bytes than its rollback may keep
   */
  static byte[] capture(long gsn, List<Batch.Op> ops, Engine engine, long maxBytes) {
    Map<ByteBuffer, byte[]> distinct = new LinkedHashMap<>();
    for (Batch.Op op : ops) {
      distinct.putIfAbsent(ByteBuffer.wrap(op.key()), op.key());
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteBuffer head = ByteBuffer.allocate(12).putLong(gsn).putInt(distinct.size());
    out.writeBytes(head.array());
    for (byte[] key : distinct.values()) {
      byte[] old = engine.get(key);
      out.writeBytes(ByteBuffer.allocate(4).putInt(key.length).array());
      out.writeBytes(key);
      if (old == null) {
        out.write(0);
      } else {
        if ((long) out.size() + old.length > maxBytes) {
          throw new IllegalArgumentException("a cross-shard batch would overwrite or delete more than " + maxBytes
              + " bytes of old values on one shard, which its rollback must keep; split it into smaller batches");
        }
        out.write(1);
        out.writeBytes(ByteBuffer.allocate(4).putInt(old.length).array());
        out.writeBytes(old);
      }
    }
    return out.toByteArray();
  }

  /** Adds the writes that restore the old values to a batch. */
  static void addRollback(byte[] record, EngineBatch batch) {
    for (byte[][] kv : decode(record)) {
      if (kv[1] == null) {
        batch.delete(kv[0]);
      } else {
        batch.put(kv[0], kv[1]);
      }
    }
  }

  /** The (key, old value or null) pairs of an undo record. */
  static List<byte[][]> decode(byte[] record) {
    ByteBuffer b = ByteBuffer.wrap(record);
    b.getLong();
    int n = b.getInt();
    List<byte[][]> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      byte[] key = new byte[b.getInt()];
      b.get(key);
      byte[] old = null;
      if (b.get() == 1) {
        old = new byte[b.getInt()];
        b.get(old);
      }
      out.add(new byte[][] {key, old});
    }
    return out;
  }
}
