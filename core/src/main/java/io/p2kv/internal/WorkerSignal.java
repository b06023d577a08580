package io.p2kv.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * Parks an idle shard worker and wakes it when there is work ({@link io.p2kv.IdleMode#PARK}), and
 * holds the shard's <em>worker role</em>: the token whose holder alone may execute the shard's
 * duty cycle (drain the queue, drive the engine, complete requests).
 *
 * <h2>Sleep protocol (no lost wake-up)</h2>
 * The worker sets {@code sleeping} to {@link #PARKING}, then checks for work ({@link Work#hasWork()}: a queued request,
 * or the decision of the cross-shard batch it waits for) and parks only if there is none. Whoever
 * makes work (a caller enqueueing, a coordinator deciding) first publishes it (a CAS on the queue,
 * a volatile write of the decision), then reads {@code sleeping} and, if {@link #PARKING}, clears
 * it and unparks the worker. Both sides write before they read a volatile the other writes (Dekker), so
 * either the worker sees the work before parking or the signaller sees the worker asleep. While
 * the worker is busy a signaller pays one volatile read.
 *
 * <h2>The worker role (flat combining)</h2>
 * {@code role} is {@link #FREE}, held by the worker thread ({@link #WORKER}), held by a caller
 * ({@link #CALLER}), or {@link #RETIRED} for good. The worker thread takes it ({@link
 * #tryTakeAsWorker}, a CAS) for each duty cycle and lets it go after ({@link #releaseAsWorker}). A
 * sync caller that has just enqueued and finds the worker not busy ({@link #IDLE}: it found no work
 * and is polling, or {@link #PARKING}) takes it instead ({@link #signalOrTake}, one CAS) and runs
 * the duty cycle on its own thread: it saves the cross-core wake-up of a parked worker, and the
 * wait for a polling worker to get a CPU again among busy callers (milliseconds on 2 cores with
 * 8-32 callers, docs/benchmarks/COMBINING.md). A busy worker ({@link #BUSY}) keeps the role, so
 * under load requests still queue up and batch behind it; a caller whose request is alone in the
 * queue (nothing to batch it with) or that has waited takes it whatever the worker's state ({@link
 * #takeWhileWaiting}, {@link Shard#submitSync}). A caller on a virtual thread does so only while
 * few virtual threads wait on the shard, and otherwise hands its request to the worker thread
 * ({@link Shard#callVirtual}). Then the caller lets go with {@link
 * #releaseAsCaller}. The CAS that takes the role and the volatile write that frees it order every
 * holder's writes to the worker's state before the next holder's reads: the state moves with the
 * role.
 *
 * <p>Who is responsible for queued work at each moment, so that none is lost:
 *
 * <ul>
 *   <li>The worker thread, while awake, re-polls before parking ({@link #park}).
 *   <li>Whoever holds the role: the worker thread loops anyway; a caller, after freeing the role,
 *       re-checks the work and, if there is some and the role is still free, signals the worker.
 *   <li>So a worker that announces sleep and finds the role held parks without looking at the work
 *       (the holder will look when it lets go), and a signaller that finds the role held by a
 *       caller does not wake the worker. Both are Dekker pairs on {@code role}: the holder frees
 *       the role, then reads the work and {@code sleeping}; the worker writes {@code sleeping},
 *       then reads the role; a signaller publishes the work, then reads the role. In the total
 *       order of these volatile accesses, whoever reads the role as held reads it before it is
 *       freed, so the holder's later reads see what that side wrote before.
 *   <li>{@link #RETIRED}: the worker ended (stop, or a fatal error), or a caller's duty cycle died
 *       of a fatal error and the worker thread must end. Nobody takes the role again, so nothing
 *       executes on the shard's engine after the worker thread ended; a worker that finds the role
 *       retired ends at once instead of parking.
 * </ul>
 */
final class WorkerSignal {
  /** The timeout is a safety net only: signallers wake the worker. */
  private static final long SAFETY_PARK_NS = TimeUnit.MILLISECONDS.toNanos(100);

  private final long safetyParkNanos;

  /** Role: nobody executes the duty cycle. */
  static final int FREE = 0;
  /** Role: the worker thread executes a duty cycle. */
  static final int WORKER = 1;
  /** Role: a caller executes a duty cycle on its own thread. */
  static final int CALLER = 2;
  /** Role: the worker ended or must end; nobody executes the duty cycle again. */
  static final int RETIRED = 3;

  /** What the worker checks for after announcing that it will sleep. */
  interface Work {
    /**
     * Whether the worker has something to do.
     *
     * @return true if it must not park
     */
    boolean hasWork();
  }

  /** {@code sleeping}: the worker is executing, or has just found work. */
  static final int BUSY = 0;
  /** {@code sleeping}: the worker announced it will park (see "Sleep protocol"). */
  static final int PARKING = 1;
  /** {@code sleeping}: the worker found no work and is polling (spinning, yielding) before it parks. */
  static final int IDLE = 2;

  /** {@link #BUSY}, {@link #PARKING} or {@link #IDLE}; only the worker sets a non-zero value. */
  private final AtomicInteger sleeping = new AtomicInteger();
  private final AtomicInteger role = new AtomicInteger(FREE);
  /** 1 while a waiting caller spins ({@link #startSpinning}); one spinner per shard. */
  private final AtomicInteger spinner = new AtomicInteger();
  private volatile Thread worker;

  WorkerSignal() {
    this(SAFETY_PARK_NS);
  }

  /**
   * A signal whose worker parks for at most {@code safetyParkNanos} per park (tests use a long
   * one, so that a worker stays parked until it is signalled).
   */
  WorkerSignal(long safetyParkNanos) {
    this.safetyParkNanos = safetyParkNanos;
  }

  /** Called once on the worker thread before its first duty cycle. */
  void bind(Thread workerThread) {
    worker = workerThread;
  }

  /**
   * Wakes the worker if it is parked; call after publishing the work. Does nothing while a caller
   * holds the role: it re-checks the work when it lets go.
   */
  void signal() {
    if (sleeping.get() == PARKING && role.get() != CALLER && sleeping.compareAndSet(PARKING, BUSY)) {
      LockSupport.unpark(worker);
    }
  }

  /**
   * After enqueueing a request: if the worker is not busy (idle or parking) and the role free,
   * takes the role for the caller instead of waking the worker. If the worker is busy it will see
   * the request; if the role is held, its holder will (a parked worker stays parked).
   *
   * @return true if the caller now holds the role: it must run the duty cycle and then call {@link
   *     #releaseAsCaller}
   */
  boolean signalOrTake() {
    return sleeping.get() != BUSY && takeWhileWaiting();
  }

  /**
   * A sync caller whose request is alone in the queue, or still pending after it yielded: takes
   * the role if it is free, whatever the worker's state. A worker thread that is runnable but not
   * running (descheduled between duty cycles, on a machine whose cores the callers keep busy) would
   * otherwise hold the request back until the scheduler runs it again, and a lone request has
   * nothing a busy worker could batch it with.
   *
   * @return true if the caller now holds the role (same duty as {@link #signalOrTake})
   */
  boolean takeWhileWaiting() {
    return role.get() == FREE && role.compareAndSet(FREE, CALLER);
  }

  /**
   * The role's current holder: {@link #FREE}, {@link #WORKER}, {@link #CALLER} or {@link #RETIRED}.
   *
   * @return the role's state
   */
  int role() {
    return role.get();
  }

  /**
   * A waiting sync caller asks to be the shard's one spinner ({@link Shard#awaitSync}).
   *
   * @return true if it is; it must call {@link #stopSpinning} when it stops
   */
  boolean startSpinning() {
    return spinner.get() == 0 && spinner.compareAndSet(0, 1);
  }

  /** The spinner stops spinning: another waiter may spin. */
  void stopSpinning() {
    spinner.set(0);
  }

  /**
   * Whether a waiting caller spins (tests).
   *
   * @return true while one does
   */
  boolean isSpinning() {
    return spinner.get() != 0;
  }

  /**
   * A caller that holds the role lets it go, then wakes the worker if {@code work} is left and no
   * one has taken the role since.
   *
   * @param work what the caller re-checks once the role is free
   */
  void releaseAsCaller(Work work) {
    role.set(FREE);
    if (role.get() == FREE && work.hasWork()) {
      signal();
    }
  }

  /**
   * The worker thread, at the start of a duty cycle.
   *
   * @return true if it now holds the role; false if a caller holds it or it is retired
   */
  boolean tryTakeAsWorker() {
    return role.compareAndSet(FREE, WORKER);
  }

  /** The worker thread, at the end of a duty cycle (it loops and re-checks the work itself). */
  void releaseAsWorker() {
    role.set(FREE);
  }

  /**
   * Retires the role held by the calling thread: nobody executes the duty cycle again. Then
   * wakes the worker, which must end (if the worker thread itself retires, it ends anyway).
   */
  void retire() {
    role.set(RETIRED);
    wakeUnconditionally();
  }

  /**
   * Takes the role for good from whoever holds it, waiting for a caller to finish its duty cycle
   * (used only when the worker thread never ran).
   */
  void retireWhenFree() {
    int spins = 0;
    while (!role.compareAndSet(FREE, RETIRED)) {
      if (role.get() == RETIRED) {
        return;
      }
      if (++spins < 100) {
        Thread.onSpinWait();
      } else {
        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(50));
      }
    }
  }

  /** Whether the role is retired: the worker must end. */
  boolean isRetired() {
    return role.get() == RETIRED;
  }

  /**
   * Whether the worker has announced sleep and not been woken since (tests).
   *
   * @return true while the sleeping flag is set
   */
  boolean isSleeping() {
    return sleeping.get() == PARKING;
  }

  /**
   * The worker found no work and starts polling before it parks: from now on a sync caller takes
   * the role rather than wait for this thread to get a CPU again (see {@link #signalOrTake}).
   */
  void idle() {
    if (sleeping.get() == BUSY) {
      sleeping.lazySet(IDLE);
    }
  }

  /** The worker found work: callers leave it to the worker again. */
  void busy() {
    if (sleeping.get() != BUSY) {
      sleeping.lazySet(BUSY);
    }
  }

  /** Wakes the worker whether or not it announced sleep (stop requests). */
  void wakeUnconditionally() {
    sleeping.set(BUSY);
    Thread t = worker;
    if (t != null) {
      LockSupport.unpark(t);
    }
  }

  /**
   * Called by the worker's idle strategy when it has nothing to do: parks unless {@code work}
   * says otherwise after the sleep was announced. If the role is held, parks without asking
   * {@code work} (its holder re-checks when it lets go); if it is retired, does not park.
   *
   * @param work what to re-check
   */
  void park(Work work) {
    sleeping.set(PARKING);
    int r = role.get();
    if (r == FREE ? !work.hasWork() : r != RETIRED) {
      LockSupport.parkNanos(this, safetyParkNanos);
    }
    sleeping.lazySet(IDLE); // polls again; busy() once it finds work
  }
}
