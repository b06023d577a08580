package io.p2kv.internal;

import io.p2kv.KeyValue;
import io.p2kv.StoreClosedException;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineException;
import io.p2kv.internal.engine.EngineIterator;
import io.p2kv.internal.metrics.LatencyRecorder;
import io.p2kv.internal.separation.WriteProfile;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;
import org.jctools.queues.MpscArrayQueue;

/**
 * The worker of one shard: an Agrona {@link Agent} that drains the shard's queue and drives its
 * engine. p2KVS sections 4.1 and 4.3.
 *
 * <h2>Opportunistic batching (the paper's Algorithm 1)</h2>
 * Take the head request; while the next queued request is of the same kind ({@link Request.Write}
 * or {@link Request.Read}) and the run stays within {@code maxBatch} operations and {@code
 * maxBatchBytes} payload, take it too. A write run becomes one engine batch (one WAL append, one
 * fsync in SYNC mode); a read run one multiGet. Never waits for more: what is queued now is what is
 * batched, so under light load each request runs alone, and a lone put or get uses the engine's
 * single-operation call. Kinds are never reordered. Scan parts and cross-shard parts run alone.
 *
 * <h2>Waiting</h2>
 * While this shard holds a prepared cross-shard part ({@link CrossShardParticipant}), {@link
 * #doWork} takes nothing from the queue and returns 0 until the batch is decided; the idle
 * strategy does the waiting, and the coordinator's decision wakes it like a new request would.
 *
 * <p>The same holds at the barrier of a consistent cut ({@link Cut}): from taking its {@link
 * Request.CutPart} until every worker has taken its own, {@code doWork} takes nothing and returns
 * 0; then the worker runs the cut's action on its engine and goes on.
 *
 * <h2>Concurrency</h2>
 * Everything here runs on the worker thread (or, in tests, on the thread of an {@code
 * AgentInvoker}). Counters are single-writer ({@link WorkerCounters}), read from any thread.
 *
 * <h2>Shutdown and failure</h2>
 * After {@link #requestStop()} the worker goes on executing what is queued (or failing it if the
 * store failed) and ends the agent at the first duty cycle that finds the queue empty and no
 * cross-shard part undecided. An engine error fails only the requests of that engine call. Any
 * other throwable means the worker is broken: it fails its run and its queue, marks the whole store
 * failed (section 4.6) and ends.
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
  private final long maxBatchBytes;
  private final ShardWriter writer;
  private final CrossShardParticipant participant;
  private final WorkerCounters counters = new WorkerCounters();
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
  /** The cut whose barrier this worker waits at, or null. */
  private Request.CutPart atCut;

  private volatile boolean stopRequested;
  private volatile boolean terminated;

  ShardWorker(
      int shard,
      MpscArrayQueue<Request> queue,
      Engine engine,
      StoreState store,
      WorkerSignal signal,
      CpuPinning pinning,
      int maxBatch,
      long maxBatchBytes,
      LatencyRecorder latency,
      WriteProfile profile,
      ValueCache cache) {
    this.shard = shard;
    this.queue = queue;
    this.engine = engine;
    this.store = store;
    this.signal = signal;
    this.pinning = pinning;
    this.maxBatch = maxBatch;
    this.maxBatchBytes = maxBatchBytes;
    this.latency = latency;
    this.writer = new ShardWriter(engine, profile, cache, shard);
    this.cache = cache;
    this.participant = new CrossShardParticipant(shard, engine, writer, counters, signal);
    this.run = new Request[maxBatch];
    this.runResults = new Object[maxBatch];
    this.syncRun = new Completion[maxBatch];
    this.syncResults = new Object[maxBatch];
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

  @Override
  public int doWork() {
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
          return 0;
        }
        leaveCut();
        done++;
      }
      Throwable storeFailure = store.failure();
      if (storeFailure != null) {
        done += failQueued(storeFailure);
      } else {
        Request r;
        while (done < DUTY_CYCLE_LIMIT && !participant.isWaiting() && atCut == null && (r = queue.relaxedPoll()) != null) {
          done += run(r);
        }
      }
    } catch (Throwable fatal) {
      dieOf(fatal);
    }
    if (stopRequested && !participant.isWaiting() && atCut == null && queue.isEmpty()) {
      terminate();
    }
    return done;
  }

  /** For the idle strategy's last check before parking. */
  @Override
  public boolean hasWork() {
    Request.CutPart cut = atCut;
    return !queue.isEmpty() || participant.isDecided() || stopRequested || (cut != null && cut.cut.isReleased());
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
    while (n < maxBatch) {
      Request next = queue.relaxedPeek();
      if (!(next instanceof Request.Write w) || ops + w.opCount > maxBatch || bytes + w.bytes > maxBatchBytes) {
        break;
      }
      queue.relaxedPoll();
      run[n++] = w;
      runSize = n;
      ops += w.opCount;
      bytes += w.bytes;
    }
    Throwable failure = null;
    try {
      if (n == 1 && first instanceof Request.Put put) {
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
        writer.commit();
      }
    } catch (EngineException e) {
      failure = Errors.shardFailed(shard, e);
    }
    countWrites(n, ops, bytes, failure != null);
    finishRun(n, null, failure);
    return n;
  }

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
      } else {
        batches++;
      }
    }
    WorkerCounters c = counters;
    c.puts += puts;
    c.deletes += deletes;
    c.batches += batches;
    c.wrote(ops, bytes, failed);
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
      List<byte[]> values = cache == null ? engine.multiGet(keys) : readThroughCache(keys);
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
   * The values of {@code keys} from the value cache where it has them, the rest from one engine
   * read, which then fills the cache. On the worker no write of this shard is in progress, so
   * the stamps are even and the fills stand (see {@link ValueCache}); hits are answered in queue
   * order, after the writes queued before the read.
   */
  private List<byte[]> readThroughCache(List<byte[]> keys) {
    ValueCache.Lookup lookup = cache.new Lookup(keys, k -> shard);
    List<byte[]> missing = lookup.missing;
    if (missing.isEmpty()) {
      return lookup.values;
    }
    return lookup.complete(missing.size() == 1 ? Collections.singletonList(engine.get(missing.get(0))) : engine.multiGet(missing));
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
   * Completion#completeSyncRun}).
   *
   * @param results per-request results, or null for none
   * @param failure the failure of every request, or null
   */
  private void finishRun(int n, Object[] results, Throwable failure) {
    if (failure != null) {
      counters.failed(n);
    }
    Request[] run = this.run;
    boolean record = latency != null && failure == null;
    long now = 0; // read once per run, when the first stamped (async) request needs it
    int m = 0;
    for (int i = 0; i < n; i++) {
      Request r = run[i];
      Object value = results == null ? null : results[i];
      if (r.isSync()) {
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

  /** A broken worker: fail what it holds, fail the store, fail the queue, end. */
  private void dieOf(Throwable fatal) {
    Throwable failure = store.workerDied(shard, fatal);
    for (int i = 0; i < runSize; i++) {
      run[i].fail(failure);
      run[i] = null;
    }
    runSize = 0;
    keys.clear();
    failQueued(failure);
    terminate();
  }

  /**
   * Ends the agent. Callers that enqueue after the last drain see the store closed or failed and
   * {@link #isTerminated()}, and fail their own request (see {@link Shard#submit}).
   */
  private void terminate() {
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
