package io.p2kv.internal;

import io.p2kv.IdleMode;
import io.p2kv.P2kvException;
import io.p2kv.QueueFullException;
import io.p2kv.QueueFullPolicy;
import io.p2kv.ShardStats;
import io.p2kv.StoreClosedException;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineAdmin;
import io.p2kv.internal.engine.EngineException;
import io.p2kv.internal.engine.EngineProperty;
import io.p2kv.internal.metrics.LatencyRecorder;
import io.p2kv.internal.separation.WriteProfile;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;
import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.AgentRunner;
import org.agrona.concurrent.AgentTerminationException;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.agrona.concurrent.YieldingIdleStrategy;
import org.jctools.queues.MpscArrayQueue;

/**
 * One shard: its bounded request queue, its worker and its engine. p2KVS section 4.1.
 *
 * <h2>Concurrency</h2>
 * Any number of caller threads {@link #submit} into a JCTools MPSC array queue; exactly one worker
 * consumes it. Callers on the direct read path enter the engine themselves through {@link
 * #direct}, counted in a {@link ReaderGuard} so that close never frees the engine under them.
 * Waking an idle worker is {@link WorkerSignal}'s protocol.
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
final class Shard implements Completion.Helper {
  private static final long MAX_OFFER_PARK_NS = TimeUnit.MILLISECONDS.toNanos(1);

  /** An engine call made on a caller's thread, inside the shard's reader guard. */
  @FunctionalInterface
  interface DirectCall<A, T> {
    T call(Engine engine, A argument);
  }

  final int index;
  final Engine engine;
  private final MpscArrayQueue<Request> queue;
  private final StoreState store;
  private final ShardConfig config;
  private final WorkerSignal signal;
  final ShardWorker worker;
  private final LongAdder rejectedOffers = new LongAdder();
  private final ReaderGuard readers = new ReaderGuard();
  /** Sync callers on virtual threads inside {@link #callVirtual} on this shard (tests add to it). */
  final AtomicInteger virtualCallers = new AtomicInteger();
  private AgentRunner runner;

  /**
   * @param signal the worker's signal (tests give one whose safety park they control)
   */
  Shard(
      int index,
      Engine engine,
      StoreState store,
      ShardConfig config,
      CpuPinning pinning,
      LatencyRecorder latency,
      WriteProfile profile,
      StripeVersions versions,
      ValueCache cache,
      WorkerSignal signal) {
    this.signal = signal;
    this.index = index;
    this.engine = engine;
    this.store = store;
    this.config = config;
    this.queue = new MpscArrayQueue<>(config.queueCapacity());
    this.worker =
        new ShardWorker(
            index, queue, engine, store, signal, pinning, config, latency, profile,
            versions, cache);
  }

  /** Starts the worker thread. */
  void start() {
    runner = new AgentRunner(idleStrategy(), this::onWorkerError, null, worker);
    AgentRunner.startOnThread(runner, r -> new ShardThread(r, worker.roleName()));
  }

  IdleStrategy idleStrategy() {
    return switch (config.idleMode()) {
      case PARK -> new ParkingIdleStrategy(signal, worker, 16, config.yieldWaitNanos());
      case BACKOFF -> new BackoffIdleStrategy(
          64, 16, TimeUnit.MICROSECONDS.toNanos(1), TimeUnit.MILLISECONDS.toNanos(1));
      case YIELD -> new YieldingIdleStrategy();
      case BUSY_SPIN -> new BusySpinIdleStrategy();
    };
  }

  private void onWorkerError(Throwable t) {
    // The worker handles its own failures; AgentTerminationException is how it stops.
    if (!(t instanceof AgentTerminationException)) {
      store.workerDied(index, t);
    }
  }

  // ---------------------------------------------------------------- the queue

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
    signal.signal();
    if (!store.isOpen() && !roleHeldByCurrentThread()) {
      // Holding this shard's role, the thread is the one that drains the queue (or hands it to the
      // worker thread when it lets the role go): waiting here for the request would never end.
      settleAfterClose(r);
    }
  }

  /**
   * Whether the calling thread holds this shard's worker role: its worker thread, or a caller
   * running its duty cycle (a callback or future stage run there that enqueues more).
   */
  private boolean roleHeldByCurrentThread() {
    return worker.isCallerInRole() || (runner != null && runner.thread() == Thread.currentThread());
  }

  /**
   * Enqueues a sync caller's request; if the role is free and the worker sleeps or the request is
   * alone in the queue, runs the worker's duty cycle on this thread until the request is complete
   * instead of waking the worker (flat combining; {@link WorkerSignal#signalOrTake}, {@link
   * ShardWorker#runAsCaller}). Does not wait otherwise: the caller then awaits the request.
   *
   * @throws StoreClosedException or StoreFailedException if the store is not open
   * @throws QueueFullException in fail-fast mode when the queue is full
   */
  void submitSync(Request r) {
    submitSync(r, false);
  }

  /**
   * {@link #submitSync(Request)}, or with {@code handOff} a plain hand-off to the worker thread:
   * enqueue and wake it, never take the role.
   */
  private void submitSync(Request r, boolean handOff) {
    store.checkOpen();
    if (!queue.offer(r)) {
      offerSlow(r);
    }
    boolean taken;
    if (handOff) {
      signal.signal();
      taken = false;
    } else {
      // The queue's size is read only when the worker looks busy: alone, the request has nothing
      // to batch with.
      taken = signal.signalOrTake() || (queue.size() <= 1 && signal.takeWhileWaiting());
    }
    if (taken) {
      worker.runAsCaller(r);
    }
    noteTakenAtSubmit(taken);
    if (!store.isOpen()) {
      settleAfterClose(r);
    }
  }

  /**
   * Moves {@link #takenAtSubmit} 1/16 of the way towards 1 or 0. Writes the field only when the
   * value changes, so that callers do not keep taking the cache line of this shard's read-mostly
   * fields from each other once the average has settled at 1 (rare writes) or 0.
   */
  private void noteTakenAtSubmit(boolean taken) {
    int share = takenAtSubmit;
    int next = taken ? share + ((TAKEN_ONE - share) >> TAKEN_DECAY_SHIFT) : share - (share >> TAKEN_DECAY_SHIFT);
    if (next != share) {
      takenAtSubmit = next;
    }
  }

  /**
   * A sync call from a virtual thread: submits the request and parks until it is complete.
   *
   * <p>While few virtual threads wait on this shard, the caller may take the worker role at submit
   * as a platform thread does ({@link #submitSync(Request)}): a lone caller then writes its own
   * request on its carrier and never parks, where a hand-off would cost it an unmount, a wake-up
   * of the worker thread and a resubmission to its scheduler. Past {@link
   * #VIRTUAL_HAND_OFF_CALLERS} waiting callers it hands the request to the worker thread instead.
   * A virtual thread holding the role pins its carrier for the whole RocksDB write (a JNI call), so
   * with many waiters the role moved from carrier to carrier, each holder writing the few requests
   * queued since the last one (mean write batches of 2.5 from 32 virtual threads and 10-14 from
   * 256, against 18 and 120 when every call was handed off), and the carriers that should resubmit
   * the woken waiters were busy writing (docs/benchmarks/WRITE-PATH.md, stop 50).
   *
   * @param r the caller's request
   */
  void callVirtual(Request r) {
    int callers = virtualCallers.incrementAndGet();
    try {
      submitSync(r, callers > VIRTUAL_HAND_OFF_CALLERS);
      awaitSync(r, 0);
    } finally {
      virtualCallers.decrementAndGet();
    }
  }

  /**
   * Virtual-thread callers waiting on one shard past which they hand their requests off instead
   * of taking the worker role: with 2 or 4 callers taking the role was 10-20 % faster, with 8 to
   * 16 the two were about even, with 32 the hand-off was 1.14-1.6x faster (WRITE-PATH.md, stop
   * 50).
   */
  static final int VIRTUAL_HAND_OFF_CALLERS = 4;

  /**
   * Waits for a sync request {@link #submitSync} queued.
   *
   * <p>First, if another caller holds the role (it is running a short duty cycle of its own) and
   * no other waiter of this shard is spinning, the caller spins, without giving up its CPU, for
   * up to {@link #callerSpinNanos}: until its request is complete, or the role is free, which it
   * then takes to run the duty cycle itself. Yielding instead would hand the CPU to the threads
   * that keep the cores busy, and the caller would run again only after their time slices
   * (milliseconds with 8 reader threads on 2 cores) although the holder lets go within
   * microseconds (docs/benchmarks/COMBINING.md, "Spinning while a caller holds the role"). One
   * spinner per shard, and none while the worker thread holds the role (a batch under load) or
   * for a virtual thread ({@code yieldNanos} 0), so that spinning never takes the CPU the holder
   * needs. Nor while most recent sync requests were not taken at submit ({@link #takenAtSubmit}):
   * then writes arrive in a steady stream that the worker batches, and 16 spinning writers on 2
   * cores cost sync puts a third of their throughput.
   *
   * <p>Then it polls and parks ({@link Completion#await(long, Completion.Helper)}); once it has
   * waited {@link #TAKE_AFTER_NANOS}, it takes the worker role if it is free ({@link
   * WorkerSignal#takeWhileWaiting}) and runs the duty cycle until its request is complete: the
   * worker thread is then between duty cycles but not running, and the request would wait for the
   * scheduler (milliseconds when the callers keep every core busy) instead of for the write.
   *
   * @param r the caller's request
   * @param yieldNanos the caller's polling window ({@link Completion#await(long)})
   */
  void awaitSync(Request r, long yieldNanos) {
    if (yieldNanos > 0 && takenAtSubmit >= SPIN_TAKEN_SHARE && !r.isDone() && signal.startSpinning()) {
      boolean took;
      try {
        took = spinWhileACallerHolds(r);
      } finally {
        signal.stopSpinning();
      }
      if (took) {
        worker.runAsCaller(r);
      }
    }
    r.await(yieldNanos, this);
  }

  /**
   * The spin of {@link #awaitSync}.
   *
   * @return true if the caller took the role (it must run the duty cycle)
   */
  private boolean spinWhileACallerHolds(Request r) {
    long start = System.nanoTime();
    while (!r.isDone()) {
      int role = signal.role();
      if (role == WorkerSignal.FREE) {
        if (store.isOpen() && signal.takeWhileWaiting()) {
          return true;
        }
      } else if (role != WorkerSignal.CALLER || System.nanoTime() - start > callerSpinNanos) {
        return false;
      }
      Thread.onSpinWait();
    }
    return false;
  }

  /**
   * How long a sync caller spins while another caller holds the role: a few duty cycles of a
   * caller (one RocksDB write of a small batch takes 5-20 us here); past it the holder has lost
   * its CPU, and the caller yields as before.
   */
  static final long CALLER_SPIN_NANOS = 30_000;

  /** {@link #CALLER_SPIN_NANOS}; tests set it longer, to step through a spin without a time limit. */
  long callerSpinNanos = CALLER_SPIN_NANOS;

  /** {@link #takenAtSubmit} of 1: every recent sync request was taken at submit. */
  private static final int TAKEN_ONE = 1 << 10;
  /** Each sync request moves {@link #takenAtSubmit} 1/16 of the way to 0 or 1. */
  private static final int TAKEN_DECAY_SHIFT = 4;
  /** Callers spin only while at least 3 in 4 recent sync requests were taken at submit. */
  private static final int SPIN_TAKEN_SHARE = TAKEN_ONE * 3 / 4;

  /**
   * The share of recent sync requests whose caller took the role at submit, as a moving average
   * in units of 1/{@link #TAKEN_ONE}: near 1 when writes are rare beside other work (a collision
   * with another caller's short duty cycle is the exception, worth a spin), low when the worker
   * batches a steady stream of writes (waiters must leave it the CPU). Updated by every sync
   * caller without synchronization: lost updates only blur a heuristic.
   */
  int takenAtSubmit = TAKEN_ONE;

  @Override
  public void helpWhileWaiting(Completion r, long waitedNanos) {
    if (waitedNanos >= TAKE_AFTER_NANOS && store.isOpen() && signal.takeWhileWaiting()) {
      worker.runAsCaller(r);
    }
  }

  /**
   * How long a sync caller waits for the worker before it may take the role itself: about two
   * batches' worth of RocksDB writes, so a running worker keeps its batching.
   */
  static final long TAKE_AFTER_NANOS = 50_000;

  private void offerSlow(Request r) {
    rejectedOffers.increment();
    if (config.queueFullPolicy() == QueueFullPolicy.FAIL_FAST) {
      throw new QueueFullException(
          "queue of shard " + index + " is full (" + queue.capacity() + " requests); store " + store.name());
    }
    if (roleHeldByCurrentThread()) {
      // Only this thread drains the queue while it holds the role: waiting would stall the shard.
      throw new QueueFullException("queue of shard " + index + " is full (" + queue.capacity() + " requests) and the"
          + " request comes from the shard's own worker (a callback or future stage running there), which alone"
          + " drains it: waiting would never end; store " + store.name() + ". Enqueue from another thread, or"
          + " use a larger queueCapacity");
    }
    int attempt = 0;
    do {
      signal.signal();
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
    signal.signal();
    if (!r.awaitOrAbandoned(worker::isTerminated)) {
      r.fail(store.notOpen());
    }
  }

  /** Requests queued and not yet taken by the worker role (an estimate while callers enqueue). */
  int queueDepth() {
    return queue.size();
  }

  // ---------------------------------------------------------------- the direct path

  /**
   * Calls the engine on the caller's thread, inside the reader guard, and maps an engine error to
   * the public {@link io.p2kv.ShardFailedException}.
   *
   * @throws StoreClosedException or StoreFailedException if the store is not open
   */
  <A, T> T direct(DirectCall<A, T> call, A argument) {
    return directRead(call, argument, 0);
  }

  /**
   * A point read on the caller's thread: {@link #direct} that also counts {@code reads} direct
   * reads for the stats, in the same atomic update that enters the reader guard (so a get costs
   * two atomic updates). Reads that fail are not counted.
   *
   * @throws StoreClosedException or StoreFailedException if the store is not open
   */
  <A, T> T directRead(DirectCall<A, T> call, A argument, int reads) {
    readers.enterAndCount(reads);
    if (!store.isOpen()) {
      readers.exitUncounted(reads);
      throw store.notOpen();
    }
    boolean served = false;
    try {
      T result = call.call(engine, argument);
      served = true;
      return result;
    } catch (EngineException e) {
      throw Errors.shardFailed(index, e);
    } finally {
      if (served) {
        readers.exit();
      } else {
        readers.exitUncounted(reads);
      }
    }
  }

  /**
   * Enters the engine from a caller's thread; paired with {@link #exitDirect()} on the same thread.
   * Prefer {@link #direct}. See {@link ReaderGuard}.
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

  /**
   * Frees native objects of an iterator or a snapshot, one per shard, each inside its shard's
   * reader guard and at most once (whoever sets its slot in {@code released} frees it). A shard
   * whose guard refuses entry (the store is closing or failed) is skipped: the store's close frees
   * what is left. A failure to free one is thrown after the others were tried.
   *
   * @param shards the shards, one per slot
   * @param objects the objects by slot; null where there is none (nothing to free, no guard)
   * @param released 1 where the object was freed
   * @param free frees one object
   * @return true if every object is freed now
   */
  static <T> boolean releaseEach(Shard[] shards, T[] objects, AtomicIntegerArray released, Consumer<T> free) {
    boolean all = true;
    RuntimeException first = null;
    for (int i = 0; i < shards.length; i++) {
      if (objects[i] == null || released.get(i) != 0) {
        continue;
      }
      Shard s = shards[i];
      try {
        s.enterDirect();
      } catch (P2kvException notOpen) {
        all = false;
        continue;
      }
      try {
        if (released.compareAndSet(i, 0, 1)) {
          free.accept(objects[i]);
        }
      } catch (RuntimeException e) {
        if (first == null) {
          first = e;
        }
      } finally {
        s.exitDirect();
      }
    }
    if (first != null) {
      throw first;
    }
    return all;
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

  // ---------------------------------------------------------------- stats

  /**
   * A stats snapshot of this shard: the worker's counters, the queue, and the engine's properties
   * (read inside the reader guard).
   *
   * @throws StoreClosedException if the store is closed
   */
  ShardStats snapshot() {
    WorkerCounters c = worker.counters();
    ShardStats.Builder b =
        ShardStats.builder(index)
            .puts(c.puts)
            .deletes(c.deletes)
            .batches(c.batches)
            .crossShardParts(c.crossShardParts)
            .writeCalls(c.writeCalls)
            .writeOps(c.writeOps)
            .maxWriteBatch(c.maxWriteBatch)
            .workerReads(c.workerReads)
            .readCalls(c.readCalls)
            .maxReadBatch(c.maxReadBatch)
            .failedRequests(c.failedRequests)
            .updates(c.updates)
            .updateNanos(c.updateNanos)
            .maxUpdateNanos(c.maxUpdateNanos)
            .preReadUpdates(c.preReadUpdates)
            .userBytesWritten(c.userBytesWritten)
            .directReads(readers.reads())
            .queueDepth(queueDepth())
            .queueCapacity(queue.capacity())
            .rejectedOffers(rejectedOffers.sum());
    return direct(Shard::addEngineStats, b).build();
  }

  private static ShardStats.Builder addEngineStats(Engine engine, ShardStats.Builder b) {
    EngineAdmin admin = engine.admin();
    EngineAdmin.BlobCacheReads blobCache = admin.blobCacheReads();
    return b.memtableBytes(admin.property(EngineProperty.MEMTABLE_BYTES))
        .pendingCompactionBytes(admin.property(EngineProperty.PENDING_COMPACTION_BYTES))
        .sstBytes(admin.property(EngineProperty.SST_BYTES))
        .blobBytes(admin.property(EngineProperty.BLOB_BYTES))
        .estimatedKeys(admin.property(EngineProperty.ESTIMATED_KEYS))
        .levels(admin.levels())
        .flushWriteBytes(admin.property(EngineProperty.FLUSH_WRITE_BYTES))
        .compactionWriteBytes(admin.property(EngineProperty.COMPACTION_WRITE_BYTES))
        .blobWriteBytes(admin.property(EngineProperty.BLOB_WRITE_BYTES))
        .liveDataBytes(admin.property(EngineProperty.LIVE_DATA_BYTES))
        .blobGarbageBytes(admin.property(EngineProperty.BLOB_GARBAGE_BYTES))
        .backgroundJobs(admin.property(EngineProperty.BACKGROUND_JOBS))
        .separation(admin.separation())
        .blobCacheCapacityBytes(admin.property(EngineProperty.BLOB_CACHE_CAPACITY))
        .blobCacheUsageBytes(admin.property(EngineProperty.BLOB_CACHE_USAGE))
        .blobCacheHits(blobCache.hits())
        .blobCacheMisses(blobCache.misses())
        .scannedPairs(admin.property(EngineProperty.SCANNED_PAIRS))
        .inliningFilesLeft(admin.property(EngineProperty.REWRITE_FILES_LEFT));
  }

  // ---------------------------------------------------------------- shutdown

  /** Asks the worker to stop once it has executed what is queued; does not wait. */
  void requestStop() {
    worker.requestStop();
    signal.wakeUnconditionally();
  }

  /**
   * Stops the worker after it has executed what is queued, waits for its thread to end, then frees
   * the worker's engine batch.
   */
  void stopWorker() {
    requestStop();
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
    worker.closeWriter();
  }

  /** The worker thread type, so the store can refuse blocking calls from its own workers. */
  static final class ShardThread extends Thread {
    ShardThread(Runnable r, String name) {
      super(r, name);
      setDaemon(true);
    }
  }
}
