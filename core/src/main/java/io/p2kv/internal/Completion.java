package io.p2kv.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * The completion of one queued request: its result or failure, set exactly once, and the hand-off
 * to whoever waits for it. Subclassed by {@link Request}.
 *
 * <h2>Who learns of it</h2>
 * A request completes exactly once, in its shard's worker role: on the worker thread, or on a
 * sync caller's thread that runs the worker's duty cycle while the worker sleeps ({@link
 * WorkerSignal}); or on the thread that fails it when the store closes or fails. With a {@link
 * Request.Listener} the completer calls it; without one (a sync caller) the caller waits in {@link
 * #await}.
 *
 * <h2>Sync hand-off (no lost wake-up)</h2>
 * The caller spins a little, then publishes itself in {@code waiter} and parks; the completer
 * writes {@code state} and then reads {@code waiter}, unparking only a caller that actually
 * parked. Both fields are volatile, so of "caller writes waiter, reads state" and "completer
 * writes state, reads waiter" at least one side sees the other (Dekker). No {@code synchronized}
 * anywhere, so a virtual thread unmounts while it waits.
 *
 * <h2>Wake-up tree</h2>
 * The worker completes the sync requests of one run with {@link #completeQuietly} and wakes only
 * the first (see {@link #completeSyncRun}); each caller, once it sees its own request done, wakes
 * its two children. So the worker makes one unpark system call per run instead of one per caller,
 * and the rest happen in parallel on the callers' threads. No lost wake-up: a child is completed
 * before its parent (program order, volatile), so a parent that sees itself done and then reads the
 * child's {@code waiter} races only with the child's own "write waiter, read state" (Dekker):
 * either the child sees DONE and does not park, or the parent sees the waiter and unparks it.
 */
abstract class Completion {
  private static final int PENDING = 0;
  private static final int COMPLETING = 1;
  private static final int DONE = 2;

  private static final VarHandle STATE;

  /**
   * Yields before parking even when the time window has passed: under contention each yield lets
   * other threads run and so takes longer, and a count keeps the wait proportional to the load.
   */
  private static final int MIN_YIELDS = 16;

  private static final long ABANDON_POLL_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(Completion.class, "state", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private volatile int state;
  private volatile Thread waiter;
  /** Wake-up tree: callers this caller wakes once it is woken (set by the worker before DONE). */
  private Completion wakeLeft;
  private Completion wakeRight;
  private Object result;
  private Throwable error;

  /**
   * Tells the listener, if any, that the request completed. Called once, by the completer, after
   * the result is visible.
   *
   * @return false if there is no listener (a sync caller waits instead)
   */
  abstract boolean notifyListener(Object value, Throwable t);

  /** True for a sync caller's request: nobody but the waiting caller observes completion. */
  abstract boolean isSync();

  final void complete(Object value) {
    finish(value, null);
  }

  final void fail(Throwable t) {
    finish(null, t);
  }

  /**
   * Completes the request exactly once and tells its listener or wakes its caller; later calls
   * are ignored.
   *
   * @return true if this call completed it
   */
  final boolean finish(Object value, Throwable t) {
    if (!settle(value, t)) {
      return false;
    }
    if (!notifyListener(value, t)) {
      wakeWaiter();
    }
    return true;
  }

  /**
   * Completes a sync request without waking its caller (the wake-up tree does).
   *
   * @return true if this call completed it
   */
  final boolean completeQuietly(Object value, Throwable t) {
    return settle(value, t);
  }

  private boolean settle(Object value, Throwable t) {
    if (state != PENDING || !STATE.compareAndSet(this, PENDING, COMPLETING)) {
      return false;
    }
    result = value;
    error = t;
    state = DONE;
    return true;
  }

  /**
   * Completes the sync requests of one run through a binary wake-up tree: element i wakes 2i+1 and
   * 2i+2. Children are completed before their parents (last to first), then only the root is
   * unparked. Clears {@code sync}.
   *
   * @param sync the run's sync requests, in run order
   * @param values their results, or null for none
   * @param m how many
   * @param failure the failure of every one, or null
   */
  static void completeSyncRun(Completion[] sync, Object[] values, int m, Throwable failure) {
    for (int i = 0; i < m; i++) {
      int l = 2 * i + 1;
      sync[i].wakeLeft = l < m ? sync[l] : null;
      sync[i].wakeRight = l + 1 < m ? sync[l + 1] : null;
    }
    for (int i = m - 1; i >= 0; i--) {
      sync[i].completeQuietly(values == null ? null : values[i], failure);
    }
    Completion root = sync[0];
    for (int i = 0; i < m; i++) {
      sync[i] = null;
      if (values != null) {
        values[i] = null;
      }
    }
    root.wakeWaiter();
  }

  /** Unparks the caller of this request if it parked. */
  private void wakeWaiter() {
    Thread w = waiter;
    if (w != null) {
      LockSupport.unpark(w);
    }
  }

  private void wakeChildren() {
    Completion l = wakeLeft;
    if (l != null) {
      wakeLeft = null;
      l.wakeWaiter();
      Completion r = wakeRight;
      if (r != null) {
        wakeRight = null;
        r.wakeWaiter();
      }
    }
  }

  /**
   * Waits (sync callers only) until the request completes: polls, yielding the CPU between polls,
   * for up to {@code yieldNanos}, then parks until woken. Yielding keeps the thread runnable, so a
   * request that completes within the window costs no park/unpark pair; yielding rather than
   * spinning lets the worker and other callers use the core meanwhile. Not interruptible: the
   * request is already queued and will complete; an interrupt is remembered and restored on
   * return.
   *
   * @param yieldNanos how long to poll before parking; 0 parks at once
   */
  final void await(long yieldNanos) {
    await(yieldNanos, null);
  }

  /** Who may complete a pending request on the waiting caller's thread (see {@link #await(long, Helper)}). */
  interface Helper {
    /**
     * Called after each yield while the request is pending.
     *
     * @param r the request
     * @param waitedNanos how long the caller has polled so far
     */
    void helpWhileWaiting(Completion r, long waitedNanos);
  }

  /**
   * {@link #await(long)}, and while it polls, after each yield, {@code helper} may complete the
   * request on this thread (a sync caller taking its shard's worker role; see {@link
   * Shard#awaitSync}).
   *
   * @param yieldNanos how long to poll before parking; 0 parks at once
   * @param helper called after each yield while the request is pending, or null
   */
  final void await(long yieldNanos, Helper helper) {
    if (state == DONE) {
      wakeChildren();
      return;
    }
    if (yieldNanos > 0) {
      long start = System.nanoTime();
      long deadline = start + yieldNanos;
      int yields = 0;
      do {
        Thread.yield();
        if (state != DONE && helper != null) {
          helper.helpWhileWaiting(this, System.nanoTime() - start);
        }
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
   * Whether the request has completed (its result is visible to the reader).
   *
   * @return true once completed
   */
  final boolean isDone() {
    return state == DONE;
  }

  /**
   * Waits for completion or until {@code abandoned} says the request can no longer complete. Used
   * only while a store closes or fails.
   *
   * @param abandoned true once nobody will complete the request
   * @return true if completed, false if abandoned
   */
  final boolean awaitOrAbandoned(BooleanSupplier abandoned) {
    while (state != DONE) {
      if (abandoned.getAsBoolean()) {
        return state == DONE;
      }
      LockSupport.parkNanos(this, ABANDON_POLL_NANOS);
    }
    return true;
  }

  /**
   * The result of a completed request, or its failure rethrown on the caller's thread.
   *
   * @return the result
   */
  final Object resultOrThrow() {
    Throwable t = error;
    if (t != null) {
      throw Errors.rethrowForCaller(t);
    }
    return result;
  }
}
