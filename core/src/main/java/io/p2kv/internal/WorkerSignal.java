package io.p2kv.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Parks an idle shard worker and wakes it when there is work ({@link io.p2kv.IdleMode#PARK}).
 *
 * <h2>Protocol (no lost wake-up)</h2>
 * The worker sets {@code sleeping}, then checks for work ({@link Work#hasWork()}: a queued request,
 * or the decision of the cross-shard batch it waits for) and parks only if there is none. Whoever
 * makes work (a caller enqueueing, a coordinator deciding) first publishes it (a CAS on the queue,
 * a volatile write of the decision), then reads {@code sleeping} and, if set, clears it and
 * unparks the worker. Both sides write before they read a volatile the other writes (Dekker), so
 * either the worker sees the work before parking or the signaller sees the worker asleep. While
 * the worker is busy a signaller pays one volatile read.
 */
final class WorkerSignal {
  /** The timeout is a safety net only: signallers wake the worker. */
  private static final long SAFETY_PARK_NS = TimeUnit.MILLISECONDS.toNanos(100);

  /** What the worker checks for after announcing that it will sleep. */
  interface Work {
    /**
     * Whether the worker has something to do.
     *
     * @return true if it must not park
     */
    boolean hasWork();
  }

  private final AtomicInteger sleeping = new AtomicInteger();
  private volatile Thread worker;

  /** Called once on the worker thread before its first duty cycle. */
  void bind(Thread workerThread) {
    worker = workerThread;
  }

  /** Wakes the worker if it is parked; call after publishing the work. */
  void signal() {
    if (sleeping.get() != 0 && sleeping.compareAndSet(1, 0)) {
      LockSupport.unpark(worker);
    }
  }

  /** Wakes the worker whether or not it announced sleep (stop requests). */
  void wakeUnconditionally() {
    sleeping.set(0);
    Thread t = worker;
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  /**
   * Called by the worker's idle strategy when it has nothing to do: parks unless {@code work}
   * says otherwise after the sleep was announced.
   *
   * @param work what to re-check
   */
  void park(Work work) {
    sleeping.set(1);
    if (!work.hasWork()) {
      LockSupport.parkNanos(this, SAFETY_PARK_NS);
    }
    sleeping.lazySet(0);
  }
}
