package io.p2kv.internal;

import io.p2kv.Batch;
import io.p2kv.KeyValue;
import io.p2kv.OperationType;
import io.p2kv.ShardFailedException;
import io.p2kv.StoreClosedException;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineException;
import io.p2kv.internal.engine.EngineIterator;
import io.p2kv.internal.metrics.LatencyRecorder;
import io.p2kv.internal.separation.WriteProfile;
import java.util.ArrayList;
import java.util.List;
import org.agrona.concurrent.Agent;
import org.agrona.concurrent.AgentTerminationException;
import org.jctools.queues.MpscArrayQueue;

/**
 * The worker of one shard: an Agrona {@link Agent} that drains the shard's queue and drives its
 * engine. p2KVS sections 4.1 and 4.3.
 *
 * <h2>Opportunistic batching (the paper's Algorithm 1)</h2>
 * Take the head request; while the next queued request is of the same kind (write: put, delete,
 * single-shard batch; read: get, multiGet part) and the run stays within {@code maxBatch}
 * operations and {@code maxBatchBytes} payload, take it too. A write run becomes one engine batch
 * (one WAL append, one fsync in SYNC mode); a read run one multiGet. Never waits for more: what is
 * queued now is what is batched, so under light load each request runs alone, and a lone put or
 * get uses the engine's single-operation call. Kinds are never reordered.
 *
 * <h2>Concurrency</h2>
 * Everything here runs on the worker thread (or, in tests, on the thread of an {@code
 * AgentInvoker}). Counters are single-writer volatile longs, written once per run, read by
 * {@link #stats} from any thread.
 *
 * <h2>Write profile</h2>
 * With an adaptive value-separation policy the worker also feeds a {@link WriteProfile} (value
 * sizes, key bytes, distinct keys) with every put and delete it writes: plain field updates, no
 * allocation, no locks; published once per run.
 *
 * <h2>Shutdown and failure</h2>
 * On {@link #requestStop()} the next duty cycle executes everything still queued (or fails it if
 * the store failed), marks the worker terminated and ends the agent. An engine error fails only the
 * requests of that engine call. Any other throwable means the worker is broken: it fails its run
 * and its queue, marks the whole store failed (section 4.6) and ends.
 */
final class ShardWorker implements Agent {
  /** Requests handled per duty cycle before re-checking stop and failure flags. */
  private static final int DUTY_CYCLE_LIMIT = 1024;

  private final int shard;
  private final Shard owner;
  private final MpscArrayQueue<Request> queue;
  private final Engine engine;
  private final StoreState store;
  private final int maxBatch;
  private final long maxBatchBytes;
  private final Request[] run;
  private final Request[] syncRun;
  private final Object[] runResults;
  private int runSize;
  private final ArrayList<byte[]> keys = new ArrayList<>();
  /** Records the latency of the async requests this worker completes; null when off. */
  private final LatencyRecorder latency;
  /** Null unless the value-separation policy is adaptive. */
  private final WriteProfile profile;

  private volatile boolean stopRequested;
  private volatile boolean terminated;

  // Single-writer counters (written by the worker only).
  private volatile long puts;
  private volatile long deletes;
  private volatile long batchRequests;
  private volatile long writeCalls;
  private volatile long writeOps;
  private volatile long userBytes;
  private volatile long maxWriteRun;
  private volatile long readKeys;
  private volatile long readCalls;
  private volatile long maxReadRun;
  private volatile long failedRequests;
  private volatile long crossShardParts;

  private final long yieldWaitNanos;

  ShardWorker(
      Shard owner,
      Engine engine,
      StoreState store,
      int maxBatch,
      long maxBatchBytes,
      long yieldWaitNanos,
      LatencyRecorder latency,
      WriteProfile profile) {
    this.shard = owner.index;
    this.profile = profile;
    this.owner = owner;
    this.queue = owner.queue;
    this.engine = engine;
    this.store = store;
    this.maxBatch = maxBatch;
    this.maxBatchBytes = maxBatchBytes;
    this.run = new Request[maxBatch];
    this.syncRun = new Request[maxBatch];
    this.runResults = new Object[maxBatch];
    this.yieldWaitNanos = yieldWaitNanos;
    this.latency = latency;
  }

  @Override
  public String roleName() {
    return "p2kv-shard-" + shard;
  }

  @Override
  public void onStart() {
    owner.onWorkerStart();
  }

  @Override
  public void onClose() {
    owner.onWorkerClose();
  }

  @Override
  public int doWork() {
    if (stopRequested) {
      drainAndTerminate(null);
    }
    Throwable storeFailure = store.failure();
    if (storeFailure != null) {
      return failQueued(storeFailure);
    }
    int done = 0;
    try {
      Request r;
      while (done < DUTY_CYCLE_LIMIT && (r = queue.relaxedPoll()) != null) {
        done += run(r);
      }
    } catch (Throwable fatal) {
      dieOf(fatal);
    }
    return done;
  }

  private int run(Request r) {
    if (r.isWrite()) {
      return runWrites(r);
    }
    if (r.isRead()) {
      return runReads(r);
    }
    if (r.type == Request.SCAN) {
      return runScan(r);
    }
    return runCrossPart(r);
  }

  /**
   * One shard's part of a cross-shard batch, alone (never merged; p2KVS 4.5): prepare it with its
   * undo record in one atomic engine write, vote, wait for the decision, then drop the undo record
   * (commit) or write the old values back (abort). See {@link CrossShardTxn}.
   */
  private int runCrossPart(Request part) {
    CrossShardTxn txn = (CrossShardTxn) part.sink();
    @SuppressWarnings("unchecked")
    List<Batch.Op> ops = (List<Batch.Op>) part.items;
    run[0] = part;
    runSize = 1;
    byte[] undo;
    try {
      undo = UndoRecord.capture(txn.gsn, ops, engine);
      for (Batch.Op op : ops) {
        if (op.value() == null) {
          engine.batchDelete(op.key());
        } else {
          engine.batchPut(op.key(), op.value());
        }
      }
      engine.batchPutMeta(txn.undoKey(), undo);
      engine.commitBatch();
    } catch (EngineException e) {
      finishRun(1, new ShardFailedException(shard, e.getMessage(), e.getCause()));
      return 1;
    }
    writeCalls++;
    writeOps += ops.size();
    userBytes += part.bytes;
    crossShardParts++;
    if (profile != null) {
      for (Batch.Op op : ops) {
        if (op.value() == null) {
          profile.recordDelete(op.key());
        } else {
          profile.recordPut(op.key(), op.value().length);
        }
      }
      profile.publish();
    }
    run[0] = null;
    runSize = 0;
    part.complete(null); // the vote
    int decision = txn.awaitDecision(part.tag, yieldWaitNanos);
    if (CrossShardTxn.isCommit(decision)) {
      try {
        engine.batchDeleteMeta(txn.undoKey());
        engine.commitBatch();
      } catch (EngineException e) {
        // The batch is committed; recovery drops the undo record later.
      }
      txn.finished();
    } else if (CrossShardTxn.isAbort(decision)) {
      // A failed rollback would leave a torn batch visible: the exception kills the worker (the
      // store fails) and recovery rolls the part back on reopen. The caller hears of it either way.
      try {
        UndoRecord.addRollback(undo, engine);
        engine.batchDeleteMeta(txn.undoKey());
        engine.commitBatch();
      } finally {
        txn.finished();
      }
    }
    // UNKNOWN: the commit record's fate is unknown; the store is failed; recovery decides.
    return 1;
  }

  private int runWrites(Request first) {
    Request[] run = this.run;
    int n = 0;
    run[n++] = first;
    runSize = n;
    int ops = first.opCount;
    long bytes = first.bytes;
    while (n < maxBatch) {
      Request next = queue.relaxedPeek();
      if (next == null
          || !next.isWrite()
          || ops + next.opCount > maxBatch
          || bytes + next.bytes > maxBatchBytes) {
        break;
      }
      queue.relaxedPoll();
      run[n++] = next;
      runSize = n;
      ops += next.opCount;
      bytes += next.bytes;
    }
    ShardFailedException failure = null;
    long putCount = 0;
    long deleteCount = 0;
    long batchCount = 0;
    WriteProfile profile = this.profile;
    try {
      if (n == 1 && first.type == Request.PUT) {
        putCount = 1;
        if (profile != null) {
          profile.recordPut(first.key, first.value.length);
        }
        engine.put(first.key, first.value);
      } else if (n == 1 && first.type == Request.DELETE) {
        deleteCount = 1;
        if (profile != null) {
          profile.recordDelete(first.key);
        }
        engine.delete(first.key);
      } else {
        for (int i = 0; i < n; i++) {
          Request r = run[i];
          switch (r.type) {
            case Request.PUT -> {
              putCount++;
              if (profile != null) {
                profile.recordPut(r.key, r.value.length);
              }
              engine.batchPut(r.key, r.value);
            }
            case Request.DELETE -> {
              deleteCount++;
              if (profile != null) {
                profile.recordDelete(r.key);
              }
              engine.batchDelete(r.key);
            }
            default -> {
              batchCount++;
              @SuppressWarnings("unchecked")
              List<Batch.Op> batchOps = (List<Batch.Op>) r.items;
              for (Batch.Op op : batchOps) {
                if (op.value() == null) {
                  if (profile != null) {
                    profile.recordDelete(op.key());
                  }
                  engine.batchDelete(op.key());
                } else {
                  if (profile != null) {
                    profile.recordPut(op.key(), op.value().length);
                  }
                  engine.batchPut(op.key(), op.value());
                }
              }
            }
          }
        }
        engine.commitBatch();
      }
    } catch (EngineException e) {
      failure = new ShardFailedException(shard, e.getMessage(), e.getCause());
    }
    if (profile != null) {
      profile.publish();
    }
    if (failure == null) {
      userBytes += bytes;
    }
    puts += putCount;
    deletes += deleteCount;
    batchRequests += batchCount;
    writeCalls++;
    writeOps += ops;
    if (ops > maxWriteRun) {
      maxWriteRun = ops;
    }
    finishRun(n, failure);
    return n;
  }

  private int runReads(Request first) {
    Request[] run = this.run;
    int n = 0;
    run[n++] = first;
    runSize = n;
    int count = first.opCount;
    while (n < maxBatch) {
      Request next = queue.relaxedPeek();
      if (next == null || !next.isRead() || count + next.opCount > maxBatch) {
        break;
      }
      queue.relaxedPoll();
      run[n++] = next;
      runSize = n;
      count += next.opCount;
    }
    readCalls++;
    readKeys += count;
    if (count > maxReadRun) {
      maxReadRun = count;
    }
    try {
      if (n == 1 && first.type == Request.GET) {
        byte[] value = engine.get(first.key);
        runSize = 0;
        run[0] = null;
        if (latency != null && first.startNanos != 0) {
          latency.record(OperationType.GET, first.startNanos); // before completing: visible to the caller
        }
        first.complete(value);
        return 1;
      }
      ArrayList<byte[]> keys = this.keys;
      for (int i = 0; i < n; i++) {
        Request r = run[i];
        if (r.type == Request.GET) {
          keys.add(r.key);
        } else {
          @SuppressWarnings("unchecked")
          List<byte[]> partKeys = (List<byte[]>) r.items;
          keys.addAll(partKeys);
        }
      }
      List<byte[]> values = engine.multiGet(keys);
      keys.clear();
      int at = 0;
      Object[] results = runResults;
      for (int i = 0; i < n; i++) {
        Request r = run[i];
        if (r.type == Request.GET) {
          results[i] = values.get(at++);
        } else {
          int size = r.opCount;
          results[i] = n == 1 ? values : values.subList(at, at + size);
          at += size;
        }
      }
      completeRun(n, results, null);
    } catch (EngineException e) {
      keys.clear();
      finishRun(n, new ShardFailedException(shard, e.getMessage(), e.getCause()));
    }
    return n;
  }

  /**
   * One shard's part of an ordered read, alone (scans are never merged): one engine iterator,
   * created, read and closed here, so it sees exactly the writes queued before the request.
   */
  private int runScan(Request r) {
    run[0] = r;
    runSize = 1;
    ShardFailedException failure = null;
    List<KeyValue> pairs = null;
    try {
      pairs = scanPart(r.key, r.value, r.limit);
    } catch (EngineException e) {
      failure = new ShardFailedException(shard, e.getMessage(), e.getCause());
    }
    finishRun(1, failure, pairs);
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

  private void finishRun(int n, Throwable failure, Object result) {
    if (failure != null) {
      failedRequests += n;
    }
    Object[] results = runResults;
    results[0] = result;
    completeRun(n, failure == null ? results : null, failure);
  }

  private void finishRun(int n, Throwable failure) {
    if (failure != null) {
      failedRequests += n;
    }
    completeRun(n, null, failure);
  }

  /**
   * Completes a run: async requests directly; sync requests children-first through the wake-up
   * tree, then one unpark for its root (see {@link Request#linkWakeTree}).
   *
   * @param results per-request results, or null for none
   * @param failure the failure of every request, or null
   */
  private void completeRun(int n, Object[] results, Throwable failure) {
    Request[] run = this.run;
    Request[] sync = this.syncRun;
    boolean record = latency != null && failure == null;
    long now = 0; // read once per run, when the first stamped (async) request needs it
    int m = 0;
    for (int i = 0; i < n; i++) {
      Request r = run[i];
      if (r.isSync()) {
        sync[m++] = r;
      } else {
        if (record && r.startNanos != 0) {
          if (now == 0) {
            now = System.nanoTime();
          }
          // Recorded before completing, so a caller that sees its future done also sees its latency.
          latency.recordAt(operationType(r.type), r.startNanos, now);
        }
        Object value = results == null ? null : results[i];
        r.finish(value, failure);
      }
    }
    if (m > 0) {
      Request.linkWakeTree(sync, m);
      // Results are needed per sync request in tree order: map through the run index.
      int j = m;
      for (int i = n - 1; i >= 0; i--) {
        Request r = run[i];
        if (r.isSync()) {
          r.completeQuietly(results == null ? null : results[i], failure);
          sync[--j] = null;
        }
      }
      // sync[0] was the first sync request of the run, which is the tree's root.
      firstSync(n).wakeWaiter();
    }
    for (int i = 0; i < n; i++) {
      run[i] = null;
      if (results != null) {
        results[i] = null;
      }
    }
    runSize = 0;
  }

  private static OperationType operationType(byte requestType) {
    return switch (requestType) {
      case Request.PUT -> OperationType.PUT;
      case Request.DELETE -> OperationType.DELETE;
      case Request.BATCH -> OperationType.WRITE;
      case Request.GET -> OperationType.GET;
      default -> OperationType.MULTI_GET;
    };
  }

  private Request firstSync(int n) {
    for (int i = 0; i < n; i++) {
      if (run[i].isSync()) {
        return run[i];
      }
    }
    throw new IllegalStateException("no sync request in run");
  }

  private int failQueued(Throwable cause) {
    int n = 0;
    Request r;
    while ((r = queue.poll()) != null) {
      r.fail(cause);
      n++;
    }
    if (n > 0) {
      failedRequests += n;
    }
    return n;
  }

  /** A broken worker: fail what it holds, fail the store, fail the queue, end. */
  private void dieOf(Throwable fatal) {
    Throwable failure = store.fail(shard, fatal);
    for (int i = 0; i < runSize; i++) {
      run[i].fail(failure);
      run[i] = null;
    }
    runSize = 0;
    keys.clear();
    drainAndTerminate(failure);
  }

  /**
   * Executes (or, on a failed store, fails) everything still queued, then ends the agent. Callers
   * that enqueue after this last drain see the store closed or failed and {@link #isTerminated()},
   * and fail their own request (see {@link Shard#submit}).
   */
  private void drainAndTerminate(Throwable failure) {
    try {
      Request r;
      while ((r = queue.poll()) != null) {
        Throwable storeFailure = failure != null ? failure : store.failure();
        if (storeFailure != null) {
          failQueued(storeFailure);
          r.fail(storeFailure);
          continue;
        }
        run(r);
      }
    } catch (Throwable t) {
      Throwable storeFailure = store.fail(shard, t);
      for (int i = 0; i < runSize; i++) {
        run[i].fail(storeFailure);
        run[i] = null;
      }
      failQueued(storeFailure);
    } finally {
      terminated = true;
    }
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

  ShardCounters counters() {
    return new ShardCounters(
        puts,
        deletes,
        batchRequests,
        crossShardParts,
        writeCalls,
        writeOps,
        maxWriteRun,
        readKeys,
        readCalls,
        maxReadRun,
        failedRequests,
        userBytes);
  }

  /**
   * The write profile the worker feeds.
   *
   * @return the profile, or null if the policy is not adaptive
   */
  WriteProfile profile() {
    return profile;
  }

  /** A snapshot of the worker's counters. */
  record ShardCounters(
      long puts,
      long deletes,
      long batchRequests,
      long crossShardParts,
      long writeCalls,
      long writeOps,
      long maxWriteRun,
      long readKeys,
      long readCalls,
      long maxReadRun,
      long failedRequests,
      long userBytes) {}
}
