package io.p2kv.internal;

import io.p2kv.Batch;
import io.p2kv.Durability;
import io.p2kv.KeyValue;
import io.p2kv.OperationType;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * One queued request: a typed value per kind, completed through {@link Completion}.
 *
 * <ul>
 *   <li>{@link Write}s ({@link Put}, {@link Delete}, {@link BatchWrite}, {@link Update}) merge
 *       into one engine batch (the run's updates first read their keys with one multiGet);
 *   <li>{@link Read}s ({@link Get}, {@link MultiGetPart}) merge into one engine multiGet;
 *   <li>a {@link ScanPart}, a {@link RangeDeletePart}, a {@link LoadPart}, a {@link CrossShardPart}
 *       and a {@link CutPart} always run alone.
 * </ul>
 *
 * A request without a {@link Listener} belongs to a sync caller, who waits for it; otherwise the
 * completer calls the listener: a {@link FutureListener} the store handed out, a {@link
 * CallbackListener} around the user's callback, or an internal assembler of multi-shard results.
 */
abstract sealed class Request extends Completion {
  /** Hears of a request's completion, on the completing thread. */
  interface Listener {
    /**
     * Called once when the request completes.
     *
     * @param request the request
     * @param result its result (null for writes)
     * @param error its failure, or null
     */
    void onComplete(Request request, Object result, Throwable error);
  }

  private final Listener listener;

  /**
   * {@link System#nanoTime()} when an async operation started, or 0: the worker records the
   * latency of such a request when it completes it successfully (latency recording on).
   */
  long startNanos;

  private Request(Listener listener) {
    this.listener = listener;
  }

  /**
   * The operation whose latency an async request of this kind records when stamped.
   *
   * @return the type; null for parts, which are never stamped
   */
  OperationType operationType() {
    return null;
  }

  @Override
  final boolean isSync() {
    return listener == null;
  }

  @Override
  final boolean notifyListener(Object value, Throwable t) {
    Listener l = listener;
    if (l == null) {
      return false;
    }
    l.onComplete(this, value, t);
    return true;
  }

  // ---------------------------------------------------------------- writes

  /** A request merged into the worker's write batch. */
  abstract static sealed class Write extends Request {
    /** Operations, for the batch's count limit. */
    final int opCount;
    /** Key and value bytes, for the batch's byte limit. */
    final long bytes;

    private Write(int opCount, long bytes, Listener listener) {
      super(listener);
      this.opCount = opCount;
      this.bytes = bytes;
    }

    /** Adds this request's operations to the worker's pending batch. */
    abstract void addTo(ShardWriter writer);

    /**
     * The durability this request asks for instead of the store's, or null: a run holds requests
     * of one durability only, written with one engine call.
     */
    Durability durability() {
      return null;
    }
  }

  /** A put. */
  static final class Put extends Write {
    final byte[] key;
    final byte[] value;

    Put(byte[] key, byte[] value, Listener listener) {
      super(1, key.length + (long) value.length, listener);
      this.key = key;
      this.value = value;
    }

    @Override
    void addTo(ShardWriter writer) {
      writer.put(key, value);
    }

    @Override
    OperationType operationType() {
      return OperationType.PUT;
    }
  }

  /** A delete. */
  static final class Delete extends Write {
    final byte[] key;

    Delete(byte[] key, Listener listener) {
      super(1, key.length, listener);
      this.key = key;
    }

    @Override
    void addTo(ShardWriter writer) {
      writer.delete(key);
    }

    @Override
    OperationType operationType() {
      return OperationType.DELETE;
    }
  }

  /** An atomic batch whose keys all live on one shard. */
  static final class BatchWrite extends Write {
    final List<Batch.Op> ops;
    /** Null: the store's. */
    private final Durability durability;

    BatchWrite(List<Batch.Op> ops, long bytes, Durability durability, Listener listener) {
      super(ops.size(), bytes, listener);
      this.ops = ops;
      this.durability = durability;
    }

    @Override
    Durability durability() {
      return durability;
    }

    @Override
    void addTo(ShardWriter writer) {
      writer.add(ops);
    }

    @Override
    OperationType operationType() {
      return OperationType.WRITE;
    }
  }

  /**
   * A read-modify-write of one key, executed by the worker: the function maps the current value
   * (null if absent) to the new one (null deletes). Completes with the new value, or with a {@link
   * Long} for a counter. See {@link ShardWorker}, "Updates".
   */
  static final class Update extends Write {
    final byte[] key;
    final UnaryOperator<byte[]> fn;
    /** True for {@link Counter#add}: the result is the counter's new value as a {@link Long}. */
    final boolean counter;
    /**
     * The value the caller read ahead ({@link UpdatePreReads}), its stripe and the stripe's version
     * before the read; an odd stamp: none. Set before the request is queued (the queue publishes
     * them), read by the worker only.
     */
    private byte[] preRead;
    int preReadStripe;
    long preReadStamp = 1;

    /**
     * Creates an update.
     *
     * @param key the key
     * @param fn the function
     * @param operandBytes the bytes the request brings (a merge operand), for the run's byte cap
     * @param counter whether the result is a counter's value
     * @param listener the listener, or null for a sync caller
     */
    Update(byte[] key, UnaryOperator<byte[]> fn, long operandBytes, boolean counter, Listener listener) {
      super(1, key.length + operandBytes, listener);
      this.key = key;
      this.fn = fn;
      this.counter = counter;
    }

    /** Attaches the caller's read of the key, taken after {@code stamp} was even. */
    void preRead(byte[] value, int stripe, long stamp) {
      this.preRead = value;
      this.preReadStripe = stripe;
      this.preReadStamp = stamp;
    }

    boolean hasPreRead() {
      return (preReadStamp & 1) == 0;
    }

    /** The caller's read, handed over once (the function may change it). */
    byte[] takePreRead() {
      byte[] v = preRead;
      preRead = null;
      return v;
    }

    /** Never called: the worker applies updates itself (it must read first). */
    @Override
    void addTo(ShardWriter writer) {
      throw new IllegalStateException("an update is applied by ShardWorker, not added blindly");
    }

    /** What the request completes with, given the value the function returned. */
    Object result(byte[] newValue) {
      return counter ? (Object) Counter.decode(newValue) : newValue;
    }

    @Override
    OperationType operationType() {
      return OperationType.UPDATE;
    }
  }

  // ---------------------------------------------------------------- point reads

  /** A request merged into the worker's multiGet. */
  abstract static sealed class Read extends Request {
    private Read(Listener listener) {
      super(listener);
    }

    /** Keys read, for the read run's count limit. */
    abstract int keyCount();
  }

  /** A point read; completes with the value or null. */
  static final class Get extends Read {
    final byte[] key;

    Get(byte[] key, Listener listener) {
      super(listener);
      this.key = key;
    }

    @Override
    int keyCount() {
      return 1;
    }

    @Override
    OperationType operationType() {
      return OperationType.GET;
    }
  }

  /** One shard's part of a multiGet; completes with a {@code List<byte[]>} in key order. */
  static final class MultiGetPart extends Read {
    final List<byte[]> keys;
    /** Index of this part in its multiGet. */
    final int part;

    MultiGetPart(List<byte[]> keys, int part, Listener listener) {
      super(listener);
      this.keys = keys;
      this.part = part;
    }

    @Override
    int keyCount() {
      return keys.size();
    }

    @SuppressWarnings("unchecked")
    List<byte[]> values() {
      return (List<byte[]>) resultOrThrow();
    }

    @Override
    OperationType operationType() {
      return OperationType.MULTI_GET;
    }
  }

  // ---------------------------------------------------------------- alone

  /**
   * One shard's part of an ordered read: up to {@code limit} pairs of {@code [lower, upper)} in key
   * order, read by the worker from one engine iterator; completes with a {@code List<KeyValue>}.
   */
  static final class ScanPart extends Request {
    final byte[] lower;
    final byte[] upper;
    final int limit;
    /** Index of this part in its ordered read. */
    final int part;

    ScanPart(byte[] lower, byte[] upper, int limit, int part, Listener listener) {
      super(listener);
      this.lower = lower;
      this.upper = upper;
      this.limit = limit;
      this.part = part;
    }

    @SuppressWarnings("unchecked")
    List<KeyValue> pairs() {
      return (List<KeyValue>) resultOrThrow();
    }
  }

  /**
   * One shard's part of a range delete: the shard's keys in {@code [from, to)}, deleted with one
   * engine range delete after the requests queued before it. Never merged with writes: a run's
   * updates read the engine for keys the run has not written, which a range delete earlier in the
   * run would have to answer for. Completes with null.
   */
  static final class RangeDeletePart extends Request {
    final byte[] from;
    final byte[] to;

    RangeDeletePart(byte[] from, byte[] to, Listener listener) {
      super(listener);
      this.from = from;
      this.to = to;
    }
  }

  /**
   * One shard's part of a bulk load ({@link BulkLoads}): a table file the caller wrote, holding
   * {@code ops} writes of keys in {@code [from, to)}, ingested by the worker after the requests
   * queued before it, alone. Completes with null.
   */
  static final class LoadPart extends Request {
    final java.nio.file.Path file;
    final byte[] from;
    final byte[] to;
    final int ops;
    final long bytes;

    LoadPart(java.nio.file.Path file, byte[] from, byte[] to, int ops, long bytes, Listener listener) {
      super(listener);
      this.file = file;
      this.from = from;
      this.to = to;
      this.ops = ops;
      this.bytes = bytes;
    }
  }

  /**
   * One shard's part of a cross-shard atomic batch; its listener is the batch's {@link
   * CrossShardTxn}, and its completion is the shard's vote (see {@link CrossShardParticipant}).
   */
  static final class CrossShardPart extends Request {
    final List<Batch.Op> ops;
    final long bytes;
    final CrossShardTxn txn;
    /** Index of this part in its batch. */
    final int part;
    /** The prepare write's durability; null: the store's. */
    final Durability durability;

    CrossShardPart(List<Batch.Op> ops, long bytes, CrossShardTxn txn, int part, Durability durability) {
      super(txn);
      this.ops = ops;
      this.bytes = bytes;
      this.txn = txn;
      this.part = part;
      this.durability = durability;
    }
  }

  /**
   * One shard's barrier of a consistent cut; its listener is the {@link Cut}. The worker that takes
   * it waits until every shard's worker has taken its own, then runs the cut's action on its engine
   * and completes it with the result.
   */
  static final class CutPart extends Request {
    final Cut<?> cut;
    /** The shard, and the index of this part in its cut. */
    final int part;

    CutPart(Cut<?> cut, int part) {
      super(cut);
      this.cut = cut;
      this.part = part;
    }
  }
}
