package io.p2kv.internal;

import io.p2kv.IdleMode;
import io.p2kv.QueueFullException;
import io.p2kv.QueueFullPolicy;
import io.p2kv.StoreClosedException;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.metrics.LatencyRecorder;
import io.p2kv.internal.separation.WriteProfile;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.jctools.queues.MpscArrayQueue;

/**
 * One shard: its bounded request queue, its worker and its engine. p2KVS section 4.1.
 *
 * <h2>Concurrency</h2>
 * Any number of caller threads {@link #submit} into a JCTools MPSC array queue; exactly one
 * worker consumes it. Callers on the direct read path enter the engine themselves, counted in
 * a {@link ReaderGuard} so that close never frees the engine under them.
 *
 * <h2>Waking the worker</h2>
 * With {@link IdleMode#PARK} an idle worker sets {@code sleeping}, re-checks the queue and parks.
 * A caller enqueues, then reads {@code sleeping} and, if set, clears it and unparks the worker. The
 * queue offer is a CAS and both flags are volatile, so either the worker sees the new request
 * before parking or the caller sees the worker asleep: no lost wake-up. While the worker is busy
 * the caller pays one volatile read.
 *
 * <h2>Back-pressure</h2>
 * The queue is bounded. When it is full a caller either backs off (spin, yield, then parks of
 * growing length up to {@link #MAX_OFFER_PARK_NS}) until a slot frees, or fails fast with {@link
 * QueueFullException}, as configured. Rejections are counted.
 *
 * <h2>Shutdown</h2>
 * The store marks itself closed, waits for direct readers to leave, then asks each worker to stop.
 * A stopping worker executes what is queued, then marks itself terminated. A caller that enqueued
 * concurrently re-checks the store state after its offer; if the store is no longer open it waits
 * until its request completes or the worker has terminated without taking it, and then fails the
 * request itself. So every request completes or fails; none hangs.
 */
final class Shard {
  private static final long MAX_OFFER_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);
  private static final long WORKER_SAFETY_PARK_NS = TimeUnit.MILLISECONDS.toNanos(100);

  final int index;
  final Path dir;
  final MpscArrayQueue<Request> queue;
  final Engine engine;
  private final StoreState store;
  private final QueueFullPolicy queueFullPolicy;
  private final IdleMode idleMode;
  private final CpuPinning pinning;
  private final long yieldWaitNanos;
  final ShardWorker worker;
  final LongAdder rejectedOffers = new LongAdder();
  private final ReaderGuard readers = new ReaderGuard();

  private final AtomicInteger sleeping = new AtomicInteger();
  private volatile Thread workerThread;
  private Object pinHandle;
  private AgentRunner runner;

  Shard(
      int index,
      Path dir,
      Engine engine,
      StoreState store,
      int queueCapacity,
      QueueFullPolicy queueFullPolicy,
      IdleMode idleMode,
      CpuPinning pinning,
      long yieldWaitNanos,
      int maxBatch,
      long maxBatchBytes,
      LatencyRecorder latency,
      WriteProfile profile) {
    this.index = index;
    this.dir = dir;
    this.engine = engine;
    this.store = store;
    this.queue = new MpscArrayQueue<>(queueCapacity);
    this.queueFullPolicy = queueFullPolicy;
    this.idleMode = idleMode;
    this.pinning = pinning;
    this.yieldWaitNanos = yieldWaitNanos;
    this.worker = new ShardWorker(this, engine, store, maxBatch, maxBatchBytes, yieldWaitNanos, latency, profile);
  }

  /** Starts the worker thread. */
  void start() {
    runner = new AgentRunner(idleStrategy(), this::onWorkerError, null, worker);
    AgentRunner.startOnThread(runner, r -> new ShardThread(r, worker.roleName()));
  }

  IdleStrategy idleStrategy() {
    return switch (idleMode) {
      case PARK -> new ParkingIdleStrategy(this, 16, yieldWaitNanos);
      case BACKOFF -> new BackoffIdleStrategy(
          64, 16, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(1));
      case YIELD -> new YieldingIdleStrategy();
      case BUSY_SPIN -> new BusySpinIdleStrategy();
    };
  }

  private void onWorkerError(Throwable t) {
    // The worker handles its own failures; AgentTerminationException is how it stops.
    if (!(t instanceof org.agrona.concurrent.AgentTerminationException)) {
      store.fail(index, t);
    }
  }

  void onWorkerStart() {
    workerThread = Thread.currentThread();
    pinHandle = pinning.pinCurrentThread();
  }

  void onWorkerClose() {
    pinning.release(pinHandle);
    pinHandle = null;
  }

  /**
   * Enqueues a request and wakes the worker if it sleeps. Does not wait for completion.
   *
   * @throws StoreClosedException or StoreFailedException if the store is not open
   * @throws QueueFullException in fail-fast mode when the queue is full
   */
  void submit(Request r) {
    store.checkOpen();
    if (!queue.offer(r)) {
      offerSlow(r);
    }
    signal();
    if (!store.isOpen()) {
      settleAfterClose(r);
    }
  }

  private void offerSlow(Request r) {
    if (queueFullPolicy == QueueFullPolicy.FAIL_FAST) {
      rejectedOffers.increment();
      throw new QueueFullException(
          "queue of shard " + index + " is full (" + queue.capacity() + " requests); store " + store.name());
    }
    rejectedOffers.increment();
    int attempt = 0;
    do {
      signal();
      if (!store.isOpen()) {
        throw store.notOpen();
      }
      if (attempt < 16) {
        Thread.onSpinWait();
      } else if (attempt < 24) {
        Thread.yield();
      } else {
        LockSupport.parkNanos(Math.min(MAX_OFFER_PARK_NS, 1000L << Math.min(attempt - 24, 10)));
      }
      attempt++;
    } while (!queue.offer(r));
  }

  /**
   * The store closed or failed around our offer: make sure the request completes even if the
   * worker's last drain missed it.
   */
  private void settleAfterClose(Request r) {
    signal();
    if (!r.awaitOrAbandoned(worker::isTerminated)) {
      r.fail(store.notOpen());
    }
  }

  /** Wakes the worker if it is parked (PARK idle mode). */
  void signal() {
    if (sleeping.get() != 0 && sleeping.compareAndSet(1, 0)) {
      LockSupport.unpark(workerThread);
    }
  }

  /** Called by the worker's idle strategy when it has nothing to do. */
  void parkWorker() {
    sleeping.set(1);
    if (queue.isEmpty()) {
      // The timeout is a safety net only; callers wake the worker.
      LockSupport.parkNanos(this, WORKER_SAFETY_PARK_NS);
    }
    sleeping.lazySet(0);
  }

  /**
   * Enters the engine from a caller's thread (direct reads, iterators, stats); every enter is
   * paired with {@link #exitDirect()} on the same thread. See {@link ReaderGuard}.
   *
   * @throws StoreClosedException or StoreFailedException if the store is not open
   */
  void enterDirect() {
    readers.enter();
    if (!store.isOpen()) {
      readers.exit();
      throw store.notOpen();
    }
  }

  void exitDirect() {
    readers.exit();
  }

  /** Counts point reads served on the direct path (for the stats). */
  void countDirectReads(long n) {
    readers.countReads(n);
  }

  long directReads() {
    return readers.reads();
  }

  /** Waits until no caller is inside the engine (the store is already marked closed). */
  void awaitDirectReaders() {
    int spins = 0;
    while (!readers.idle()) {
      if (++spins < 100) {
        Thread.onSpinWait();
      } else {
        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(100));
      }
    }
  }

  /** Stops the worker after it has executed what is queued; waits for its thread to end. */
  void stopWorker() {
    worker.requestStop();
    Thread t = workerThread;
    if (t != null) {
      LockSupport.unpark(t);
    }
    sleeping.set(0);
    if (runner != null) {
      // Let the agent end itself after its final drain (AgentRunner.close would end the duty
      // cycle loop at once and leave requests queued), then close the runner.
      Thread thread = runner.thread();
      if (thread != null && thread != AgentRunner.TOMBSTONE) {
        boolean interrupted = false;
        while (thread.isAlive()) {
          try {
            thread.join();
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
      runner.close();
    }
    if (!worker.isTerminated()) {
      // The thread never ran the agent (failed start): nobody else will drain the queue.
      worker.failLeftovers(store.name());
    }
  }

  /** The worker thread type, so the store can refuse blocking calls from its own workers. */
  static final class ShardThread extends Thread {
    ShardThread(Runnable r, String name) {
      super(r, name);
      setDaemon(true);
    }
  }
}
