package io.p2kv.internal;

import io.p2kv.Batch;
import io.p2kv.KeyValue;
import io.p2kv.P2kv;
import io.p2kv.StoreClosedException;
import io.p2kv.UpdateFunctionException;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineException;
import io.p2kv.internal.engine.EngineIterator;
import io.p2kv.internal.metrics.LatencyRecorder;
import io.p2kv.internal.separation.WriteProfile;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.TreeMap;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;
import org.jctools.queues.MpscArrayQueue;

/**
 * The worker of one shard: an Agrona {@link Agent} that drains the shard's queue and drives its
 * engine. p2KVS sections 4.1 and 4.3.
 *
 * <h2>Opportunistic batching (the paper's Algorithm 1)</h2>
 * Take the head request; while the next queued request is of the same kind ({@link Request.Write}
 * or {@link Request.Read}) and the run stays within its caps, take it too: a read run within
 * {@code maxBatch} keys, a write run within {@code maxWriteBatch} operations and {@code
 * maxWriteBatchBytes} payload ({@link ShardConfig}: the store's {@code maxBatch} and {@code
 * maxBatchBytes}, or its larger durable caps in SYNC mode). A write run becomes one engine batch
 * (one WAL append, one fsync in SYNC mode); a read run one multiGet. Never waits for more: what is
 * queued now is what is batched, so under light load each request runs alone, and a lone put or
 * get uses the engine's single-operation call. The one exception is group commit in SYNC mode
 * ({@link GroupCommit}): a durable write run whose queue runs dry before it is as large as the
 * last runs waits, yielding, up to one fsync's mean time (at most 1 ms) for their writers to come
 * back. Kinds are
 * never reordered. Scan parts, range deletes and cross-shard parts run alone.
 *
 * <h2>Updates</h2>
 * An {@link Request.Update} (update, merge, increment) is a write: it joins the write run around
 * it, so puts, deletes, single-shard batches and updates of one key apply in queue order, with no
 * lock, because this thread is the only writer of the shard. A run with updates executes in two
 * passes:
 *
 * <ol>
 *   <li>Find the updates whose key no earlier request of the run writes, and read those keys with
 *       one engine multiGet (one get for a single key), through the value cache when the store has
 *       one, like a read run. The engine holds everything committed by earlier runs; what this run
 *       writes is not committed yet.
 *   <li>Apply the requests in queue order. Puts, deletes and batches go to the pending batch as
 *       usual and are noted in the run's overlay (key to latest value, unsigned byte order). Each
 *       update's function gets the current value: the one read in step 1, or the overlay's, so
 *       several updates of one key in a run see each other's results; its result goes to the
 *       batch through {@link ShardWriter} (null deletes; null for an absent key writes nothing)
 *       and to the overlay. Then the whole run is one engine write, as without updates; a run of
 *       one update uses the single-operation put or delete.
 * </ol>
 *
 * A function gets an array nobody else holds: the engine's fresh copy, the cache's copy, or a copy
 * of an overlay value (which the caller of an earlier put or update still owns). What it returns
 * goes to the engine batch and to its caller; the cache keeps a copy of its own ({@link
 * ValueCache#endWrite}), updated through {@link ShardWriter} exactly as for a put or delete. A function that throws, or
 * returns an oversized value, fails only its own request ({@link UpdateFunctionException}, with
 * what it threw as the cause; for a counter, what the counter threw): it wrote nothing, the overlay
 * keeps the value from before it (a key whose engine copy it was given is read again if a later
 * update needs it, since the function may have changed that copy), and the run goes on. An engine
 * error fails the whole run, as for any write run. Each function is timed ({@link
 * WorkerCounters#updated}); a slow one delays everything queued behind it on this shard, which is
 * why functions must be short.
 *
 * <h2>Waiting</h2>
 * While this shard holds a prepared cross-shard part ({@link CrossShardParticipant}), {@link
 * #doWork} takes nothing from the queue and returns 0 until the batch is decided; the idle
 * strategy does the waiting (it parks: {@link #hasWork} does not count the requests queued behind
 * the wait), and the coordinator's decision wakes it like a new request would.
 *
 * <p>The same holds at the barrier of a consistent cut ({@link Cut}): from taking its {@link
 * Request.CutPart} until every worker has taken its own, {@code doWork} takes nothing and returns
 * 0; then the worker runs the cut's action on its engine and goes on.
 *
 * <h2>Concurrency: the worker role (flat combining)</h2>
 * Everything here runs in the shard's <em>worker role</em>, one thread at a time: the token in
 * {@link WorkerSignal} whose holder alone executes the duty cycle. The worker thread takes it for
 * each {@link #doWork} (or, in tests, the thread of an {@code AgentInvoker}); a sync caller that
 * finds the worker idle or parked takes it instead and runs {@link #runAsCaller} on its own
 * thread, so its request costs no wake-up and no wait for the worker to get a CPU. The role is
 * taken with a CAS and freed with a volatile write, so every field here (the writer and its
 * engine batch, the run arrays, the overlay, the participant, the cut, the counters) is handed
 * over with it; only {@link #atCut} and the participant's prepared part are read off the role (by
 * {@link #hasWork}), and are volatile. A caller executes exactly the worker's cycle (same order,
 * same batching) but stops once its own request is complete, and never ends the agent: {@link
 * #terminate} (stop) and thread pinning stay on the worker thread. Listeners, future stages and
 * update functions run in the role, wherever it is: {@link #inWorkerRole} refuses blocking store
 * calls there as on the worker thread. Counters are single-writer at a time ({@link
 * WorkerCounters}), read from any thread.
 *
 * <h2>Shutdown and failure</h2>
 * After {@link #requestStop()} the worker goes on executing what is queued (or failing it if the
 * store failed) and ends the agent at the first duty cycle that finds the queue empty and no
 * cross-shard part undecided; while a caller holds the role, it waits (parked) until the caller
 * lets go and wakes it. Ending retires the role, so no caller executes on the engine afterwards.
 * An engine error fails only the requests of that engine call. Any other throwable means the
 * worker is broken: it fails its run and its queue, marks the whole store failed (section 4.6),
 * retires the role and ends; if that happens on a caller's thread, the caller retires the role
 * and the worker thread, woken, ends at its next cycle.
 */
final class ShardWorker implements Agent, WorkerSignal.Work {
  /** Requests handled per duty cycle before re-checking stop and failure flags. */
  private static final int DUTY_CYCLE_LIMIT = 1024;

  private final int shard;
  private final MpscArrayQueue<Request> queue;
  private final Engine engine;
  private final StoreState store;
  private final WorkerSignal signal;
  private final CpuPinning pinning;
  private Object pinHandle;
  private final int maxBatch;
  private final int maxWriteBatch;
  private final long maxWriteBatchBytes;
  /** Null unless every engine write is fsynced (durability SYNC). */
  private final GroupCommit groupCommit;
  private final ShardWriter writer;
  private final CrossShardParticipant participant;
  private final WorkerCounters counters = new WorkerCounters();
  /** The store's stripe versions, which this worker's writer keeps: they validate pre-reads. */
  private final StripeVersions versions;
  /** Null when the store caches no values. */
  private final ValueCache cache;
  /** Records the latency of the async requests this worker completes; null when off. */
  private final LatencyRecorder latency;
  private final Request[] run;
  private int runSize;
  private final Object[] runResults;
  private final Completion[] syncRun;
  private final Object[] syncResults;
  private final ArrayList<byte[]> keys = new ArrayList<>();
  /**
   * The cut whose barrier this worker waits at, or null. Volatile: {@link #hasWork} reads it off
   * the role (see {@link WorkerSignal}).
   */
  private volatile Request.CutPart atCut;

  /** Overlay value: the key is absent. Compared by identity. */
  private static final byte[] ABSENT = new byte[0];
  /**
   * Overlay value: the run has not changed the key (yet); its value is the committed one. Also the
   * placeholder of step 1 for keys that step 2 sets before any update reads them. By identity.
   */
  private static final byte[] COMMITTED = new byte[0];
  /** The run's overlay for updates: key to the latest value the run wrote (see "Updates"). */
  private final TreeMap<byte[], byte[]> overlay = new TreeMap<>(Arrays::compareUnsigned);
  /**
   * Per run position: where the value read for that update is in the run's multiGet, {@link
   * #PRE_READ} if it uses its caller's read, or -1 (the overlay has its key).
   */
  private final int[] readAt;
  /** {@link #readAt}: the update uses the value its caller read ahead. */
  private static final int PRE_READ = -2;
  /** Per run position: a failure of that request alone (an update function), or null. */
  private final Throwable[] requestFailure;
  private int requestFailures;
  /** Operations and payload bytes of the engine write of a run with updates, for the counters. */
  private int runOps;
  private long runBytes;

  /** Set on a caller's thread while it runs the duty cycle ({@link #runAsCaller}): whose. */
  private static final ThreadLocal<ShardWorker> IN_ROLE = new ThreadLocal<>();

  private volatile boolean stopRequested;
  private volatile boolean terminated;

  ShardWorker(
      int shard,
      MpscArrayQueue<Request> queue,
      Engine engine,
      StoreState store,
      WorkerSignal signal,
      CpuPinning pinning,
      ShardConfig config,
      LatencyRecorder latency,
      WriteProfile profile,
      StripeVersions versions,
      ValueCache cache) {
    this.shard = shard;
    this.queue = queue;
    this.engine = engine;
    this.store = store;
    this.signal = signal;
    this.pinning = pinning;
    this.maxBatch = config.maxBatch();
    this.maxWriteBatch = config.maxWriteBatch();
    this.maxWriteBatchBytes = config.maxWriteBatchBytes();
    this.groupCommit = config.groupCommit() ? new GroupCommit() : null;
    int maxRun = Math.max(maxBatch, maxWriteBatch);
    this.latency = latency;
    this.writer = new ShardWriter(engine, profile, versions, cache, shard);
    this.versions = versions;
    this.cache = cache;
    this.participant = new CrossShardParticipant(shard, engine, writer, counters, signal);
    this.run = new Request[maxRun];
    this.runResults = new Object[maxRun];
    this.syncRun = new Completion[maxRun];
    this.syncResults = new Object[maxRun];
    this.readAt = new int[maxRun];
    this.requestFailure = new Throwable[maxRun];
  }

  /**
   * The group-commit state (tests).
   *
   * @return it, or null unless every engine write is fsynced
   */
  GroupCommit groupCommit() {
    return groupCommit;
  }

  @Override
  public String roleName() {
    return "p2kv-shard-" + shard;
  }

  @Override
  public void onStart() {
    signal.bind(Thread.currentThread());
    pinHandle = pinning.pinCurrentThread();
  }

  @Override
  public void onClose() {
    pinning.release(pinHandle);
    pinHandle = null;
  }

  /**
   * One duty cycle on the worker thread: takes the role (see "Flat combining"), executes, lets
   * the role go. Returns 0 without executing anything while a caller holds the role.
   */
  @Override
  public int doWork() {
    if (!signal.tryTakeAsWorker()) {
      if (signal.isRetired()) {
        end(); // a caller's duty cycle died (dieOf): the worker ends as if it had died itself
      }
      return 0;
    }
    int done = dutyCycle(null);
    if (stopRequested && !participant.isWaiting() && atCut == null && queue.isEmpty()) {
      terminate();
    }
    signal.releaseAsWorker();
    return done;
  }

  /**
   * Runs the worker's duty cycle on a caller's thread that has taken the role ({@link
   * WorkerSignal#signalOrTake}) because the worker was asleep: executes exactly what the worker
   * would, in queue order, until {@code own} (the caller's request, already queued) is complete
   * or a duty cycle's limit is reached, then lets the role go, waking the worker if work is left.
   * Never ends the worker: a stop request is left to the worker thread, which the release wakes.
   * Async requests completed here run their listeners on this thread, in the worker's role.
   *
   * @param own the caller's request
   */
  void runAsCaller(Completion own) {
    IN_ROLE.set(this);
    boolean died;
    try {
      died = dutyCycle(own) < 0;
    } finally {
      IN_ROLE.remove();
    }
    if (!died) {
      signal.releaseAsCaller(this);
    }
  }

  /**
   * Whether the calling thread executes a shard's duty cycle: a worker thread, or a caller that
   * holds a worker role ({@link #runAsCaller}). Blocking store calls are refused there.
   *
   * @return true in a worker role
   */
  static boolean inWorkerRole() {
    return Thread.currentThread() instanceof Shard.ShardThread || IN_ROLE.get() != null;
  }

  /**
   * Whether the calling thread is a caller running this worker's duty cycle ({@link #runAsCaller}).
   *
   * @return true if it holds this worker's role as a caller
   */
  boolean isCallerInRole() {
    return IN_ROLE.get() == this;
  }

  /**
   * The duty cycle proper, run by whoever holds the role: finishes a decided cross-shard part,
   * leaves a released cut, then drains the queue (or fails it if the store failed).
   *
   * @param own null on the worker thread; a caller's request, to stop once it is complete
   * @return requests handled, or -1 if the cycle died (see {@link #dieOf}) on a caller's thread
   */
  private int dutyCycle(Completion own) {
    int done = 0;
    try {
      if (participant.isWaiting()) {
        if (!participant.tryFinish()) {
          return 0;
        }
        done++;
      }
      if (atCut != null) {
        if (!atCut.cut.isReleased()) {
          return done;
        }
        leaveCut();
        done++;
      }
      Throwable storeFailure = store.failure();
      if (storeFailure != null) {
        done += failQueued(storeFailure);
      } else {
        Request r;
        while (done < DUTY_CYCLE_LIMIT && !participant.isWaiting() && atCut == null && (own == null || !own.isDone())
            && (r = queue.relaxedPoll()) != null) {
          done += run(r);
        }
      }
    } catch (Throwable fatal) {
      dieOf(fatal, own == null);
      return -1;
    }
    return done;
  }

  /**
   * For the idle strategy's last check before parking: whether a duty cycle could do something
   * now. While the shard waits for a cross-shard batch's decision or at a cut's barrier, queued
   * requests are not work: the cycle cannot take them until the wait ends, and the decision or the
   * release signals the worker. Counting them made a waiting worker loop without parking or
   * yielding whenever requests queued up behind the wait, so that under load the waiting workers
   * took the CPU from the ones whose votes they waited for (16 callers of cross-shard batches over
   * 4 shards on 2 cores: 2 K batches/s against 25 K before the idle strategy did the waiting).
   */
  @Override
  public boolean hasWork() {
    switch (participant.waitState()) {
      case CrossShardParticipant.DECIDED:
        return true;
      case CrossShardParticipant.UNDECIDED:
        return false;
      default:
        break;
    }
    Request.CutPart cut = atCut;
    if (cut != null) {
      return cut.cut.isReleased();
    }
    return !queue.isEmpty() || stopRequested;
  }

  private int run(Request r) {
    if (r instanceof Request.Write w) {
      return runWrites(w);
    }
    if (r instanceof Request.Read read) {
      return runReads(read);
    }
    if (r instanceof Request.ScanPart scan) {
      return runScan(scan);
    }
    if (r instanceof Request.RangeDeletePart rangeDelete) {
      return runRangeDelete(rangeDelete);
    }
    if (r instanceof Request.LoadPart load) {
      return runLoad(load);
    }
    if (r instanceof Request.CutPart cut) {
      atCut = cut;
      cut.cut.arrive(cut.part, signal);
      return 1;
    }
    participant.prepare((Request.CrossShardPart) r);
    return 1;
  }

  // ---------------------------------------------------------------- writes

  private int runWrites(Request.Write first) {
    Request[] run = this.run;
    int n = 0;
    run[n++] = first;
    runSize = n;
    int ops = first.opCount;
    long bytes = first.bytes;
    int updates = first instanceof Request.Update ? 1 : 0;
    // Group commit is for the store's own (SYNC) durability: a batch with its own durability (a
    // bulk load without the WAL) neither waits for others nor counts as an fsync.
    GroupCommit durable = first.durability() == null ? groupCommit : null;
    int target = durable == null ? 0 : Math.min(durable.target(), maxWriteBatch);
    long waitUntil = 0;
    boolean waiting = false;
    while (n < maxWriteBatch) {
      Request next = queue.relaxedPeek();
      if (next == null && n < target) {
        // Group commit: wait, yielding to the callers coming back, for the run to reach its target.
        long now = durable.nanoTime();
        if (!waiting) {
          waiting = true;
          waitUntil = now + durable.maxWaitNanos();
        } else if (now - waitUntil >= 0) {
          break;
        }
        Thread.yield();
        continue;
      }
      if (!(next instanceof Request.Write w) || ops + w.opCount > maxWriteBatch || bytes + w.bytes > maxWriteBatchBytes
          || w.durability() != first.durability()) {
        break;
      }
      queue.relaxedPoll();
      run[n++] = w;
      runSize = n;
      ops += w.opCount;
      bytes += w.bytes;
      if (w instanceof Request.Update) {
        updates++;
      }
    }
    Throwable failure = null;
    long start = durable == null ? 0 : durable.nanoTime();
    try {
      if (updates > 0) {
        runWithUpdates(n);
      } else if (n == 1 && first instanceof Request.Put put) {
        writer.putAlone(put.key, put.value);
      } else if (n == 1 && first instanceof Request.Delete delete) {
        writer.deleteAlone(delete.key);
      } else {
        try {
          for (int i = 0; i < n; i++) {
            ((Request.Write) run[i]).addTo(writer);
          }
        } catch (EngineException e) {
          writer.discard();
          throw e;
        }
        writer.commit(first.durability());
      }
    } catch (EngineException e) {
      failure = Errors.shardFailed(shard, e);
    }
    if (durable != null) {
      durable.wrote(n, durable.nanoTime() - start);
    }
    if (updates > 0) {
      ops = runOps; // what the run wrote, known only now; -1: no engine write was made
      bytes = runBytes;
    }
    countWrites(n, ops, bytes, failure != null);
    finishRun(n, updates > 0 ? runResults : null, failure);
    return n;
  }

  /**
   * Executes a write run that holds updates (see "Updates" above) and sets {@link #runOps} and
   * {@link #runBytes} to what its engine write carried ({@code runOps} -1 if no engine write was
   * made: nothing to write, or a read failed); the results go to {@link #runResults}, the failures
   * of single updates to {@link #requestFailure}.
   *
   * @throws EngineException if an engine read or the write failed: the whole run fails
   */
  private void runWithUpdates(int n) {
    Request[] run = this.run;
    TreeMap<byte[], byte[]> overlay = this.overlay;
    ArrayList<byte[]> keys = this.keys;
    int[] readAt = this.readAt;
    Object[] results = runResults;
    boolean alone = n == 1;
    boolean writing = false; // the engine write call has begun: it empties the batch itself
    runOps = -1;
    runBytes = 0;
    int ops = 0;
    long bytes = 0;
    int functions = 0;
    int preReads = 0;
    long nanos = 0;
    long maxNanos = 0;
    try {
      // Step 1: read, with one engine call, the keys that updates find unchanged by the run.
      for (int i = 0; i < n; i++) {
        Request r = run[i];
        readAt[i] = -1;
        if (r instanceof Request.Update u) {
          if (overlay.putIfAbsent(u.key, COMMITTED) != null) {
            continue; // an earlier request of the run has the key: step 2 takes it from the overlay
          }
          if (u.hasPreRead() && versions.stamp(shard, u.preReadStripe) == u.preReadStamp) {
            readAt[i] = PRE_READ; // the caller's read is the committed value (StripeVersions)
            preReads++;
          } else {
            readAt[i] = keys.size();
            keys.add(u.key);
          }
        } else if (r instanceof Request.Put put) {
          overlay.put(put.key, COMMITTED);
        } else if (r instanceof Request.Delete delete) {
          overlay.put(delete.key, COMMITTED);
        } else {
          for (Batch.Op op : ((Request.BatchWrite) r).ops) {
            overlay.put(op.key(), COMMITTED);
          }
        }
      }
      List<byte[]> read = null;
      if (!keys.isEmpty()) {
        read = readKeys(keys);
        counters.read(keys.size());
      }
      // Step 2: apply the run in queue order.
      for (int i = 0; i < n; i++) {
        Request r = run[i];
        if (!(r instanceof Request.Update u)) {
          Request.Write w = (Request.Write) r;
          w.addTo(writer);
          noteWritten(w, overlay);
          ops += w.opCount;
          bytes += w.bytes;
          continue;
        }
        byte[] current;
        boolean own = true; // nobody else holds `current`: the function may have it
        if (readAt[i] >= 0) {
          current = read.get(readAt[i]);
        } else if (readAt[i] == PRE_READ) {
          current = u.takePreRead();
        } else {
          byte[] v = overlay.get(u.key);
          if (v == COMMITTED) {
            // An earlier update of this key failed after being given the engine's copy.
            current = engine.get(u.key);
            counters.read(1);
          } else if (v == ABSENT) {
            current = null;
          } else {
            current = v;
            own = false;
          }
        }
        byte[] next = null;
        Throwable thrown = null;
        long start = System.nanoTime();
        try {
          next = u.fn.apply(own || current == null ? current : current.clone());
        } catch (Throwable t) {
          thrown = t;
        }
        long took = System.nanoTime() - start;
        functions++;
        nanos += took;
        maxNanos = Math.max(maxNanos, took);
        if (thrown != null || (next != null && next.length > P2kv.MAX_VALUE_BYTES)) {
          failOne(i, u, thrown, next);
          continue; // wrote nothing; the overlay keeps the value from before it
        }
        if (next != null) {
          if (alone) {
            runOps = 1;
            runBytes = u.key.length + (long) next.length;
            writer.putAlone(u.key, next);
          } else {
            writer.put(u.key, next);
          }
          overlay.put(u.key, next);
          ops++;
          bytes += u.key.length + (long) next.length;
        } else if (current != null) {
          if (alone) {
            runOps = 1;
            runBytes = u.key.length;
            writer.deleteAlone(u.key);
          } else {
            writer.delete(u.key);
          }
          overlay.put(u.key, ABSENT);
          ops++;
          bytes += u.key.length;
        } // else: null for an absent key, which stays absent: nothing to write
        results[i] = u.result(next);
      }
      if (ops > 0 && !alone) {
        runOps = ops;
        runBytes = bytes;
        writing = true;
        writer.commit();
      }
    } catch (EngineException e) {
      if (!alone && !writing) {
        writer.discard(); // a read failed after some adds
      }
      throw e;
    } finally {
      overlay.clear();
      keys.clear();
      if (functions > 0) {
        counters.updated(functions, nanos, maxNanos, preReads);
      }
    }
  }

  /** Records a blind write of the run in the overlay, in queue order. */
  private static void noteWritten(Request.Write w, TreeMap<byte[], byte[]> overlay) {
    if (w instanceof Request.Put put) {
      overlay.put(put.key, put.value);
    } else if (w instanceof Request.Delete delete) {
      overlay.put(delete.key, ABSENT);
    } else {
      for (Batch.Op op : ((Request.BatchWrite) w).ops) {
        overlay.put(op.key(), op.isDelete() ? ABSENT : op.value());
      }
    }
  }

  /** Fails one update of the run (its function threw or returned an oversized value). */
  private void failOne(int i, Request.Update u, Throwable thrown, byte[] next) {
    Throwable failure;
    if (thrown == null) {
      failure = new UpdateFunctionException(
          "an update function on shard " + shard + " returned a value of " + next.length + " bytes; the maximum is "
              + P2kv.MAX_VALUE_BYTES, null);
    } else if (u.counter) {
      failure = thrown; // p2kv's own counter function: its exception says what is wrong
    } else {
      failure = new UpdateFunctionException("an update function on shard " + shard + " threw " + thrown, thrown);
    }
    requestFailure[i] = failure;
    requestFailures++;
  }

  /** Counts a write run; {@code ops} -1: no engine write was made (a run of updates only). */
  private void countWrites(int n, int ops, long bytes, boolean failed) {
    long puts = 0;
    long deletes = 0;
    long batches = 0;
    for (int i = 0; i < n; i++) {
      Request r = run[i];
      if (r instanceof Request.Put) {
        puts++;
      } else if (r instanceof Request.Delete) {
        deletes++;
      } else if (r instanceof Request.BatchWrite) {
        batches++;
      }
    }
    WorkerCounters c = counters;
    c.puts += puts;
    c.deletes += deletes;
    c.batches += batches;
    if (ops >= 0) {
      c.wrote(ops, bytes, failed);
    }
  }

  // ---------------------------------------------------------------- point reads

  private int runReads(Request.Read first) {
    Request[] run = this.run;
    int n = 0;
    run[n++] = first;
    runSize = n;
    int count = first.keyCount();
    while (n < maxBatch) {
      Request next = queue.relaxedPeek();
      if (!(next instanceof Request.Read r) || count + r.keyCount() > maxBatch) {
        break;
      }
      queue.relaxedPoll();
      run[n++] = r;
      runSize = n;
      count += r.keyCount();
    }
    counters.read(count);
    try {
      if (n == 1 && first instanceof Request.Get get && cache == null) {
        runResults[0] = engine.get(get.key);
        finishRun(1, runResults, null);
        return 1;
      }
      ArrayList<byte[]> keys = this.keys;
      for (int i = 0; i < n; i++) {
        if (run[i] instanceof Request.Get get) {
          keys.add(get.key);
        } else {
          keys.addAll(((Request.MultiGetPart) run[i]).keys);
        }
      }
      List<byte[]> values = readKeys(keys);
      keys.clear();
      int at = 0;
      Object[] results = runResults;
      for (int i = 0; i < n; i++) {
        if (run[i] instanceof Request.MultiGetPart part) {
          int size = part.keys.size();
          results[i] = n == 1 ? values : values.subList(at, at + size);
          at += size;
        } else {
          results[i] = values.get(at++);
        }
      }
      finishRun(n, results, null);
    } catch (EngineException e) {
      keys.clear();
      finishRun(n, null, Errors.shardFailed(shard, e));
    }
    return n;
  }

  /**
   * The committed values of {@code keys}, each a fresh array nobody else holds: from the value
   * cache where it has them (it returns copies), the rest from one engine read (a get for one key),
   * which then fills the cache. On the worker no write of this shard is in progress, so the stamps
   * are even and the fills stand (see {@link ValueCache}); hits are answered in queue order, after
   * the writes queued before the read. Serves read runs and the reads of updates.
   */
  private List<byte[]> readKeys(List<byte[]> keys) {
    if (cache == null || !cache.consult()) {
      return readEngine(keys);
    }
    ValueCache.Lookup lookup = cache.new Lookup(keys, k -> shard);
    List<byte[]> missing = lookup.missing;
    return missing.isEmpty() ? lookup.values : lookup.complete(readEngine(missing));
  }

  private List<byte[]> readEngine(List<byte[]> keys) {
    return keys.size() == 1 ? Collections.singletonList(engine.get(keys.get(0))) : engine.multiGet(keys);
  }

  // ---------------------------------------------------------------- range deletes

  /**
   * One shard's part of a range delete, alone: one engine range delete, bracketed for the value
   * cache and the pre-reads of updates by {@link ShardWriter#deleteRange}; counted as one write
   * of one operation.
   */
  private int runRangeDelete(Request.RangeDeletePart part) {
    run[0] = part;
    runSize = 1;
    Throwable failure = null;
    try {
      writer.deleteRange(part.from, part.to);
    } catch (EngineException e) {
      failure = Errors.shardFailed(shard, e);
    }
    counters.deletes++; // a range delete counts as one delete per shard (ShardStats.deletes)
    counters.wrote(1, part.from.length + (long) part.to.length, failure != null);
    finishRun(1, null, failure);
    return 1;
  }

  // ---------------------------------------------------------------- bulk loads

  /**
   * One shard's part of a bulk load, alone: one engine ingest of the caller's table file,
   * bracketed for the value cache and the pre-reads of updates as a range delete of the file's
   * key range is ({@link ShardWriter#ingest}); counted as writes of its operations.
   */
  private int runLoad(Request.LoadPart part) {
    run[0] = part;
    runSize = 1;
    Throwable failure = null;
    try {
      writer.ingest(part.file, part.from, part.to);
    } catch (EngineException e) {
      failure = Errors.shardFailed(shard, e);
    }
    counters.loaded(part.ops, part.bytes, failure != null);
    finishRun(1, null, failure);
    return 1;
  }

  // ---------------------------------------------------------------- scans

  /**
   * One shard's part of an ordered read, alone (scans are never merged): one engine iterator,
   * created, read and closed here, so it sees exactly the writes queued before the request.
   */
  private int runScan(Request.ScanPart scan) {
    run[0] = scan;
    runSize = 1;
    try {
      runResults[0] = scanPart(scan.lower, scan.upper, scan.limit);
      finishRun(1, runResults, null);
    } catch (EngineException e) {
      finishRun(1, null, Errors.shardFailed(shard, e));
    }
    return 1;
  }

  private List<KeyValue> scanPart(byte[] lower, byte[] upper, int limit) {
    ArrayList<KeyValue> out = new ArrayList<>(Math.min(limit, 256));
    if (limit == 0) {
      return out;
    }
    // Forward only from a seek to the lower bound: only the upper bound is native, so an
    // open-ended scan can reuse a pooled engine iterator.
    try (EngineIterator it = engine.newIterator(null, upper)) {
      if (lower == null) {
        it.seekToFirst();
      } else {
        it.seek(lower);
      }
      while (it.valid()) {
        out.add(new KeyValue(it.key(), it.value()));
        if (out.size() >= limit) {
          break;
        }
        it.next();
      }
    }
    return out;
  }

  // ---------------------------------------------------------------- consistent cuts

  /**
   * Leaves the barrier of a released cut: runs its action on the engine (unless the cut was
   * cancelled) and completes the part.
   */
  private void leaveCut() {
    Request.CutPart part = atCut;
    atCut = null;
    Throwable cancelled = part.cut.cancelCause();
    if (cancelled != null) {
      part.fail(cancelled);
      return;
    }
    Object result;
    try {
      result = part.cut.runAction(shard, engine);
    } catch (EngineException e) {
      part.fail(Errors.shardFailed(shard, e));
      return;
    } catch (RuntimeException | Error e) {
      part.fail(e);
      throw e;
    }
    part.complete(result);
  }

  // ---------------------------------------------------------------- completion

  /**
   * Completes a run: async requests directly (recording their latency first, so a caller that sees
   * its future done also sees its latency); sync requests through the wake-up tree (see {@link
   * Completion#completeSyncRun}). A request that failed alone ({@link #requestFailure}: an update
   * whose function threw) is failed directly, outside the tree.
   *
   * @param results per-request results, or null for none
   * @param failure the failure of every request, or null
   */
  private void finishRun(int n, Object[] results, Throwable failure) {
    int failedAlone = requestFailures;
    requestFailures = 0;
    counters.failed(failure != null ? n : failedAlone);
    Request[] run = this.run;
    boolean record = latency != null && failure == null;
    long now = 0; // read once per run, when the first stamped (async) request needs it
    int m = 0;
    for (int i = 0; i < n; i++) {
      Request r = run[i];
      Object value = results == null || failure != null ? null : results[i];
      Throwable own = null;
      if (failedAlone > 0 && requestFailure[i] != null) {
        own = requestFailure[i];
        requestFailure[i] = null;
      }
      if (own != null && failure == null) {
        r.fail(own);
      } else if (r.isSync()) {
        syncResults[m] = value;
        syncRun[m++] = r;
      } else {
        if (record && r.startNanos != 0) {
          if (now == 0) {
            now = System.nanoTime();
          }
          latency.recordAt(r.operationType(), r.startNanos, now);
        }
        r.finish(value, failure);
      }
      run[i] = null;
      if (results != null) {
        results[i] = null;
      }
    }
    runSize = 0;
    if (m > 0) {
      Completion.completeSyncRun(syncRun, syncResults, m, failure);
    }
  }

  // ---------------------------------------------------------------- shutdown and failure

  private int failQueued(Throwable cause) {
    int n = 0;
    Request r;
    while ((r = queue.poll()) != null) {
      r.fail(cause);
      n++;
    }
    counters.failed(n);
    return n;
  }

  /**
   * A broken worker: fail what it holds, fail the store, fail the queue, retire the role, end. On
   * a caller's thread the worker thread ends instead, woken by the retired role.
   */
  private void dieOf(Throwable fatal, boolean onWorkerThread) {
    Throwable failure = store.workerDied(shard, fatal);
    // A run that died while it was being completed: finishRun has nulled the entries it handled,
    // and the sync requests it gathered for the wake-up tree wait in syncRun, not yet completed.
    for (int i = 0; i < runSize; i++) {
      if (run[i] != null) {
        run[i].fail(failure);
        run[i] = null;
      }
    }
    runSize = 0;
    for (int i = 0; i < syncRun.length; i++) {
      if (syncRun[i] != null) {
        syncRun[i].fail(failure);
        syncRun[i] = null;
      }
    }
    keys.clear();
    overlay.clear();
    Arrays.fill(requestFailure, null);
    requestFailures = 0;
    failQueued(failure);
    if (onWorkerThread) {
      terminate();
    }
    signal.retire();
  }

  /**
   * Ends the agent. Callers that enqueue after the last drain see the store closed or failed and
   * {@link #isTerminated()}, and fail their own request (see {@link Shard#submit}).
   */
  private void terminate() {
    signal.retire();
    end();
  }

  /** Ends the agent; the role is retired already, so nobody executes on the engine any more. */
  private void end() {
    terminated = true;
    throw new AgentTerminationException();
  }

  void requestStop() {
    stopRequested = true;
  }

  boolean isTerminated() {
    return terminated;
  }

  /** Fails everything queued after the worker thread is gone (used only if the thread never ran). */
  void failLeftovers(String storeName) {
    signal.retireWhenFree();
    failQueued(new StoreClosedException("store " + storeName + " is closed"));
    terminated = true;
  }

  WorkerCounters counters() {
    return counters;
  }

  /**
   * The write profile the worker feeds.
   *
   * @return the profile, or null if the policy is not adaptive
   */
  WriteProfile profile() {
    return writer.profile();
  }

  /** Frees the worker's engine batch; called once the worker has stopped. */
  void closeWriter() {
    writer.close();
  }
}
