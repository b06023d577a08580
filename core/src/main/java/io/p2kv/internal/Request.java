package io.p2kv.internal;

import io.p2kv.Batch;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One queued request and its completion.
 *
 * <h2>Completion (the hand-off)</h2>
 * A request completes exactly once, on the worker thread (or on the thread that fails it when the
 * store closes or fails). How the caller learns of it depends on the sink:
 *
 * <ul>
 *   <li>no sink (a sync caller): the caller spins a little, then publishes itself in {@code
 *       waiter} and parks; the completer writes {@code state} and then reads {@code waiter},
 *       unparking only a caller that actually parked. Both fields are volatile, so of "caller
 *       writes waiter, reads state" and "completer writes state, reads waiter" at least one side
 *       sees the other (Dekker): no lost wake-up, and no {@code synchronized} anywhere, so a virtual
 *       thread unmounts while it waits.
 *   <li>a {@link CompletableFuture}, a {@link BiConsumer} callback, or an internal {@link Sink}:
 *       called by the completer.
 * </ul>
 */
public final class Request {
  private static final Logger LOG = LoggerFactory.getLogger(Request.class);

  /** A put. */
  public static final byte PUT = 0;

  /** A delete. */
  public static final byte DELETE = 1;

  /** A single-shard atomic batch. */
  public static final byte BATCH = 2;

  /** A point read. */
  public static final byte GET = 3;

  /** A batched point read (one shard's part of a multiGet). */
  public static final byte MULTI_GET = 4;

  /** One shard's part of an ordered read: up to {@code limit} pairs of a key range. */
  public static final byte SCAN = 5;

  /** One shard's part of a cross-shard atomic batch: never merged with other requests. */
  public static final byte CROSS_PART = 6;

  private static final int PENDING = 0;
  private static final int COMPLETING = 1;
  private static final int DONE = 2;

  private static final VarHandle STATE;

  /**
   * Yields before parking even when the time window has passed: under contention each yield lets
   * other threads run and so takes longer, and a count keeps the wait proportional to the load.
   */
  private static final int MIN_YIELDS = 16;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(Request.class, "state", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  /** Internal completion target (used to assemble multi-shard results). */
  public interface Sink {
    /**
     * Called once when the request completes.
     *
     * @param request the request
     * @param result its result (null for writes)
     * @param error its failure, or null
     */
    void onComplete(Request request, Object result, Throwable error);
  }

  final byte type;
  final byte[] key;
  final byte[] value;
  /** BATCH: the ops (List of Batch.Op); MULTI_GET: the keys (List of byte[]). */
  final List<?> items;
  /** Operations for the write batch limit (1, or the batch size, or the keys of a multiGet). */
  final int opCount;
  /** Payload bytes for the byte limit. */
  final long bytes;
  /** SCAN: most pairs to read. */
  final int limit;
  private final Object sink;
  /** Free for the sink's use (e.g. the offset of this part in a multiGet). */
  public final int tag;

  /**
   * {@link System#nanoTime()} when an async operation started, or 0: the worker records the
   * latency of such a request when it completes it successfully (latency recording on).
   */
  long startNanos;

  private volatile int state;
  private volatile Thread waiter;
  /** Wake-up tree: callers this caller wakes once it is woken (set by the worker before DONE). */
  private Request wakeLeft;
  private Request wakeRight;
  private Object result;
  private Throwable error;

  private Request(byte type, byte[] key, byte[] value, List<?> items, int opCount, long bytes, Object sink, int tag) {
    this(type, key, value, items, opCount, bytes, 0, sink, tag);
  }

  private Request(
      byte type, byte[] key, byte[] value, List<?> items, int opCount, long bytes, int limit, Object sink, int tag) {
    this.limit = limit;
    this.type = type;
    this.key = key;
    this.value = value;
    this.items = items;
    this.opCount = opCount;
    this.bytes = bytes;
    this.sink = sink;
    this.tag = tag;
  }

  /**
   * A put.
   *
   * @param key key
   * @param value value
   * @param sink null for a sync caller, or a future, callback or {@link Sink}
   * @return the request
   */
  public static Request put(byte[] key, byte[] value, Object sink) {
    return new Request(PUT, key, value, null, 1, key.length + (long) value.length, sink, 0);
  }

  /**
   * A delete.
   *
   * @param key key
   * @param sink see {@link #put}
   * @return the request
   */
  public static Request delete(byte[] key, Object sink) {
    return new Request(DELETE, key, null, null, 1, key.length, sink, 0);
  }

  /**
   * An atomic single-shard batch.
   *
   * @param ops the operations
   * @param bytes their payload bytes
   * @param sink see {@link #put}
   * @return the request
   */
  public static Request batch(List<Batch.Op> ops, long bytes, Object sink) {
    return new Request(BATCH, null, null, ops, ops.size(), bytes, sink, 0);
  }

  /**
   * One shard's part of a cross-shard batch; its sink is the batch's {@link CrossShardTxn}.
   *
   * @param ops this shard's operations, in batch order
   * @param bytes their payload bytes
   * @param txn the coordinator
   * @param part index of this part in the batch
   * @return the request
   */
  static Request crossPart(List<Batch.Op> ops, long bytes, CrossShardTxn txn, int part) {
    return new Request(CROSS_PART, null, null, ops, ops.size(), bytes, txn, part);
  }

  /**
   * A point read.
   *
   * @param key key
   * @param sink see {@link #put}
   * @return the request
   */
  public static Request get(byte[] key, Object sink) {
    return new Request(GET, key, null, null, 1, key.length, sink, 0);
  }

  /**
   * One shard's part of a multiGet.
   *
   * @param keys keys on that shard
   * @param sink see {@link #put}
   * @param tag free for the sink
   * @return the request
   */
  public static Request multiGet(List<byte[]> keys, Object sink, int tag) {
    return new Request(MULTI_GET, null, null, keys, keys.size(), 0, sink, tag);
  }

  /**
   * One shard's part of an ordered read: the worker reads up to {@code limit} pairs of {@code
   * [lower, upper)} in key order from one engine iterator and completes with a {@code
   * List<KeyValue>}.
   *
   * @param lower inclusive lower bound, or null
   * @param upper exclusive upper bound, or null
   * @param limit most pairs to read
   * @param sink see {@link #put}
   * @param tag free for the sink
   * @return the request
   */
  public static Request scan(byte[] lower, byte[] upper, int limit, Object sink, int tag) {
    return new Request(SCAN, lower, upper, null, 1, 0, limit, sink, tag);
  }

  boolean isWrite() {
    return type <= BATCH;
  }

  boolean isRead() {
    return type == GET || type == MULTI_GET;
  }

  Object sink() {
    return sink;
  }

  /** True for a sync caller's request: nobody but the waiting caller observes completion. */
  boolean isSync() {
    return sink == null;
  }

  /**
   * Whether the request has completed.
   *
   * @return true once completed or failed
   */
  public boolean isDone() {
    return state == DONE;
  }

  void complete(Object value) {
    finish(value, null);
  }

  void fail(Throwable t) {
    finish(null, t);
  }

  /**
   * Completes the request exactly once; later calls are ignored.
   *
   * @return true if this call completed it
   */
  @SuppressWarnings("unchecked")
  boolean finish(Object value, Throwable t) {
    if (state != PENDING || !STATE.compareAndSet(this, PENDING, COMPLETING)) {
      return false;
    }
    result = value;
    error = t;
    state = DONE;
    Object s = sink;
    if (s == null) {
      Thread w = waiter;
      if (w != null) {
        LockSupport.unpark(w);
      }
    } else if (s instanceof CompletableFuture) {
      CompletableFuture<Object> f = (CompletableFuture<Object>) s;
      if (t == null) {
        f.complete(value);
      } else {
        f.completeExceptionally(t);
      }
    } else if (s instanceof Sink) {
      ((Sink) s).onComplete(this, value, t);
    } else {
      try {
        ((BiConsumer<Object, Throwable>) s).accept(value, t);
      } catch (Throwable callbackError) {
        LOG.warn("p2kv callback threw; ignored", callbackError);
      }
    }
    return true;
  }

  /**
   * Completes a sync request without waking its caller: the worker completes a run's sync
   * requests children-first, then wakes only the root of the wake-up tree (see {@link
   * #linkWakeTree}).
   */
  void completeQuietly(Object value, Throwable t) {
    if (state != PENDING || !STATE.compareAndSet(this, PENDING, COMPLETING)) {
      return;
    }
    result = value;
    error = t;
    state = DONE;
  }

  /**
   * Links the sync requests of one run into a binary wake-up tree: element i wakes 2i+1 and 2i+2.
   * The worker then completes them with {@link #completeQuietly} from the last to the first and
   * unparks only the first; each caller, once it sees its own request done, unparks its two
   * children. So the worker makes one unpark system call per run instead of one per caller, and
   * the rest happen in parallel on the callers' threads.
   *
   * <p>No lost wake-up: a child is completed before its parent (program order, volatile), so a
   * parent that sees itself done and then reads the child's {@code waiter} races only with the
   * child's own "write waiter, read state" (Dekker): either the child sees DONE and does not
   * park, or the parent sees the waiter and unparks it.
   */
  static void linkWakeTree(Request[] sync, int m) {
    for (int i = 0; i < m; i++) {
      int l = 2 * i + 1;
      sync[i].wakeLeft = l < m ? sync[l] : null;
      sync[i].wakeRight = l + 1 < m ? sync[l + 1] : null;
    }
  }

  /** Unparks the caller of this request if it parked. */
  void wakeWaiter() {
    Thread w = waiter;
    if (w != null) {
      LockSupport.unpark(w);
    }
  }

  private void wakeChildren() {
    Request l = wakeLeft;
    if (l != null) {
      wakeLeft = null;
      l.wakeWaiter();
      Request r = wakeRight;
      if (r != null) {
        wakeRight = null;
        r.wakeWaiter();
      }
    }
  }

  /**
   * Waits (sync callers only) until the request completes: polls, yielding the CPU between polls,
   * for up to {@code yieldNanos}, then parks until woken. Yielding keeps the thread runnable, so a
   * request that completes within the window costs no park/unpark pair (two system calls and, on
   * a virtual machine, a costly cross-core wake-up of an idle CPU); yielding rather than spinning
   * lets the worker and other callers use the core meanwhile. Not interruptible: the request is
   * already queued and will complete; an interrupt is remembered and restored on return.
   *
   * @param yieldNanos how long to poll before parking; 0 parks at once
   */
  public void await(long yieldNanos) {
    if (state == DONE) {
      wakeChildren();
      return;
    }
    if (yieldNanos > 0) {
      long deadline = System.nanoTime() + yieldNanos;
      int yields = 0;
      do {
        Thread.yield();
        if (state == DONE) {
          wakeChildren();
          return;
        }
      } while (++yields < MIN_YIELDS || System.nanoTime() - deadline < 0);
    }
    Thread me = Thread.currentThread();
    waiter = me;
    boolean interrupted = false;
    while (state != DONE) {
      LockSupport.park(this);
      if (Thread.interrupted()) {
        interrupted = true;
      }
    }
    wakeChildren();
    if (interrupted) {
      me.interrupt();
    }
  }

  /**
   * Waits for completion or until {@code abandoned} says the request can no longer complete. Used
   * only while a store closes or fails.
   *
   * @param abandoned true once nobody will complete the request
   * @return true if completed, false if abandoned
   */
  boolean awaitOrAbandoned(java.util.function.BooleanSupplier abandoned) {
    long parkNs = TimeUnit.MICROSECONDS.toNanos(50);
    while (state != DONE) {
      if (abandoned.getAsBoolean()) {
        return state == DONE;
      }
      LockSupport.parkNanos(this, parkNs);
    }
    return true;
  }

  /**
   * The result of a completed request, or its failure rethrown.
   *
   * @return the result
   */
  public Object resultOrThrow() {
    Throwable t = error;
    if (t != null) {
      throw Errors.rethrowForCaller(t);
    }
    return result;
  }
}
