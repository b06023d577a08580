package io.p2kv.internal;

import io.p2kv.Batch;
import io.p2kv.KeyValue;
import io.p2kv.OperationType;
import io.p2kv.P2kvException;
import io.p2kv.ShardStats;
import io.p2kv.StoreStats;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineAdmin;
import io.p2kv.internal.engine.EngineFactory;
import io.p2kv.internal.metrics.JmxRegistration;
import io.p2kv.internal.metrics.LatencyRecorder;
import io.p2kv.internal.separation.SeparationTuner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open store behind {@code io.p2kv.P2kv}: routes each call to its shards and owns the store's
 * life cycle. p2KVS section 4. Opening is {@link StoreOpener}'s job; the work behind a call is done
 * by {@link PointReads} (gets and multiGets, direct or on the workers), {@link CrossShardCoordinator}
 * (batches over several shards), {@link RangeScatter} (ordered reads on the workers) and {@link
 * StoreIterator} (ordered reads on the caller's thread).
 *
 * <h2>Ordered reads</h2>
 * A read with a limit, and every iterator, runs on the caller's thread: one engine iterator per
 * shard the range overlaps, merged (or, range-partitioned, read one after the other), reading only
 * what it returns plus one entry per shard. A whole range ({@code Integer.MAX_VALUE}) and every
 * async ordered read go to the workers, one part per shard, read in parallel and merged. Which is
 * faster where is measured in docs/benchmarks.
 *
 * <h2>Close</h2>
 * {@link #close()} is the one place that defines the close order; docs/ARCHITECTURE.md points
 * here.
 */
public final class StoreCore implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StoreCore.class);

  private final Path dir;
  /** The directory as a string, for messages. */
  private final String name;
  private final ShardSet shards;
  private final StoreState state;
  private final RequestDispatcher dispatcher;
  private final PointReads reads;
  /** Null when the store caches no values. */
  private final ValueCache cache;
  /** Null when point reads run on the workers ({@code ReadPath.WORKER}): so do updates' reads. */
  private final UpdatePreReads preReads;
  private final RangeScatter ranges;
  private final CrossShardCoordinator crossShard;
  private final RangeDeletes rangeDeletes;
  private final BulkLoads loads;
  private final OpenIterators iterators;
  private final Cuts cuts;
  /** Null when latency recording is off. */
  private final LatencyRecorder latency;
  private final EngineFactory engineFactory;
  private final StoreLock lock;
  /** Null when JMX is off; set by {@link StoreOpener} before the store is returned. */
  private JmxRegistration jmx;
  /** Null unless value separation is adaptive; set by {@link StoreOpener}. */
  private SeparationTuner tuner;
  private final AtomicBoolean closeStarted = new AtomicBoolean();
  /** Opened when the close has finished: the directory is unlocked. */
  private final CountDownLatch closed = new CountDownLatch(1);

  StoreCore(
      Path dir,
      ShardSet shards,
      StoreState state,
      RequestDispatcher dispatcher,
      PointReads reads,
      ValueCache cache,
      UpdatePreReads preReads,
      CrossShardCoordinator crossShard,
      LatencyRecorder latency,
      EngineFactory engineFactory,
      StoreLock lock,
      boolean leakDetection) {
    this.cache = cache;
    this.preReads = preReads;
    this.dir = dir;
    this.name = dir.toString();
    this.shards = shards;
    this.state = state;
    this.dispatcher = dispatcher;
    this.reads = reads;
    this.ranges = new RangeScatter(shards, dispatcher);
    this.crossShard = crossShard;
    this.rangeDeletes = new RangeDeletes(shards, state, crossShard, dispatcher);
    this.loads = new BulkLoads(dir, shards, state, crossShard, dispatcher);
    this.latency = latency;
    this.engineFactory = engineFactory;
    this.lock = lock;
    this.iterators = new OpenIterators(name, leakDetection);
    this.cuts = new Cuts(dir, shards, state, crossShard, iterators, this::flush);
  }

  void attach(JmxRegistration jmx, SeparationTuner tuner) {
    this.jmx = jmx;
    this.tuner = tuner;
  }

  // ---------------------------------------------------------------- routing

  /**
   * The shard of a key.
   *
   * @param key key
   * @return shard index
   */
  public int shardOf(byte[] key) {
    return shards.indexOf(key);
  }

  /**
   * Number of shards.
   *
   * @return shards
   */
  public int shardCount() {
    return shards.count();
  }

  /**
   * The store directory.
   *
   * @return absolute path
   */
  public Path dir() {
    return dir;
  }

  // ---------------------------------------------------------------- writes

  /**
   * Sync put.
   *
   * @param key key
   * @param value value
   */
  public void put(byte[] key, byte[] value) {
    dispatcher.call(shards.of(key), new Request.Put(key, value, null), OperationType.PUT);
  }

  /**
   * Async put.
   *
   * @param key key
   * @param value value
   * @return completes when the put is applied
   */
  public CompletableFuture<Void> putAsync(byte[] key, byte[] value) {
    FutureListener<Void> f = new FutureListener<>();
    return dispatcher.submitAsync(shards.of(key), new Request.Put(key, value, f), f);
  }

  /**
   * Put with a callback run on the worker thread.
   *
   * @param key key
   * @param value value
   * @param callback called once with (null, error-or-null)
   */
  public void putAsync(byte[] key, byte[] value, BiConsumer<? super Void, ? super Throwable> callback) {
    dispatcher.submitCallback(shards.of(key), new Request.Put(key, value, new CallbackListener(callback)), callback);
  }

  /**
   * Sync delete.
   *
   * @param key key
   */
  public void delete(byte[] key) {
    dispatcher.call(shards.of(key), new Request.Delete(key, null), OperationType.DELETE);
  }

  /**
   * Async delete.
   *
   * @param key key
   * @return completes when the delete is applied
   */
  public CompletableFuture<Void> deleteAsync(byte[] key) {
    FutureListener<Void> f = new FutureListener<>();
    return dispatcher.submitAsync(shards.of(key), new Request.Delete(key, f), f);
  }

  /**
   * Sync range delete: every shard the range may touch deletes it (see {@link RangeDeletes}).
   *
   * @param from first key deleted, validated
   * @param to first key after the range, validated: not below {@code from}
   */
  public void deleteRange(byte[] from, byte[] to) {
    rangeDeletes.deleteRange(from, to);
  }

  /**
   * Async range delete.
   *
   * @param from first key deleted, validated
   * @param to first key after the range, validated
   * @return completes when every shard has deleted the range
   */
  public CompletableFuture<Void> deleteRangeAsync(byte[] from, byte[] to) {
    return rangeDeletes.deleteRangeAsync(from, to);
  }

  /**
   * Bulk load: the batch's last write of each key, as one table file per shard ingested by its
   * worker (see {@link BulkLoads}).
   *
   * @param batch the batch, already validated
   */
  public void load(Batch batch) {
    if (batch.isEmpty()) {
      state.checkOpen();
      return;
    }
    loads.load(batch);
  }

  /**
   * Sorted bulk load: {@code ops} in ascending key order, written to one table file per shard as
   * they come, each ingested by its worker (see {@link BulkLoads}).
   *
   * @param ops the operations, each validated as it is yielded
   */
  public void loadSorted(java.util.Iterator<Batch.Op> ops) {
    loads.loadSorted(ops);
  }

  /**
   * Sync atomic batch, on one shard or across shards.
   *
   * @param batch the batch, already validated
   * @param payloadBytes its payload bytes
   * @param durability the batch's durability, or null for the store's
   */
  public void write(Batch batch, long payloadBytes, io.p2kv.Durability durability) {
    if (batch.isEmpty()) {
      state.checkOpen();
      return;
    }
    List<Batch.Op> ops = List.copyOf(batch.ops());
    int[] shardOfOp = crossShard.shardsOf(ops);
    if (shardOfOp == null) {
      dispatcher.call(shards.of(ops.get(0).key()), new Request.BatchWrite(ops, payloadBytes, durability, null), OperationType.WRITE);
      return;
    }
    RequestDispatcher.checkNotWorkerThread();
    long start = dispatcher.startNanos();
    Request user = new Request.BatchWrite(ops, payloadBytes, durability, null);
    crossShard.start(user, ops, shardOfOp, durability);
    dispatcher.await(user);
    user.resultOrThrow();
    dispatcher.record(OperationType.WRITE, start);
  }

  /**
   * Async atomic batch, on one shard or across shards.
   *
   * @param batch the batch
   * @param payloadBytes its payload bytes
   * @param durability the batch's durability, or null for the store's
   * @return completes when applied
   */
  public CompletableFuture<Void> writeAsync(Batch batch, long payloadBytes, io.p2kv.Durability durability) {
    if (batch.isEmpty()) {
      return state.completedIfOpen(null);
    }
    List<Batch.Op> ops = List.copyOf(batch.ops());
    int[] shardOfOp = crossShard.shardsOf(ops);
    FutureListener<Void> f = new FutureListener<>();
    if (shardOfOp == null) {
      return dispatcher.submitAsync(shards.of(ops.get(0).key()), new Request.BatchWrite(ops, payloadBytes, durability, f), f);
    }
    try {
      crossShard.start(new Request.BatchWrite(ops, payloadBytes, durability, f), ops, shardOfOp, durability);
    } catch (P2kvException e) {
      f.completeExceptionally(e);
    }
    return f;
  }

  // ---------------------------------------------------------------- updates

  /** The caller's read ahead of an update's key when reads run on the caller's thread. */
  private Request.Update preRead(Request.Update u) {
    return preReads == null ? u : preReads.preRead(u);
  }

  /**
   * Sync update: the key's worker applies {@code fn} to its current value (see {@link
   * ShardWorker}, "Updates").
   *
   * @param key key
   * @param fn current value (null if absent) to new value (null deletes)
   * @param operandBytes bytes the request carries besides the key (a merge operand), for the run's
   *     byte cap
   * @return the new value
   */
  public byte[] update(byte[] key, UnaryOperator<byte[]> fn, long operandBytes) {
    return (byte[]) dispatcher.call(shards.of(key), preRead(new Request.Update(key, fn, operandBytes, false, null)), OperationType.UPDATE);
  }

  /**
   * Async update.
   *
   * @param key key
   * @param fn the function
   * @param operandBytes as for {@link #update}
   * @return completes on the worker with the new value
   */
  public CompletableFuture<byte[]> updateAsync(byte[] key, UnaryOperator<byte[]> fn, long operandBytes) {
    FutureListener<byte[]> f = new FutureListener<>();
    return dispatcher.submitAsync(shards.of(key), preRead(new Request.Update(key, fn, operandBytes, false, f)), f);
  }

  /**
   * Sync counter increment (8-byte big-endian signed long; absent is 0).
   *
   * @param key key
   * @param delta amount
   * @return the counter's new value
   */
  public long increment(byte[] key, long delta) {
    return (Long) dispatcher.call(
        shards.of(key), preRead(new Request.Update(key, Counter.add(delta), Counter.BYTES, true, null)), OperationType.UPDATE);
  }

  /**
   * Async counter increment.
   *
   * @param key key
   * @param delta amount
   * @return completes on the worker with the counter's new value
   */
  public CompletableFuture<Long> incrementAsync(byte[] key, long delta) {
    FutureListener<Long> f = new FutureListener<>();
    return dispatcher.submitAsync(shards.of(key), preRead(new Request.Update(key, Counter.add(delta), Counter.BYTES, true, f)), f);
  }

  // ---------------------------------------------------------------- point reads

  /**
   * Sync get.
   *
   * @param key key
   * @return value or null
   */
  public byte[] get(byte[] key) {
    return reads.get(key);
  }

  /**
   * Async get.
   *
   * @param key key
   * @return the value or null
   */
  public CompletableFuture<byte[]> getAsync(byte[] key) {
    return reads.getAsync(key);
  }

  /**
   * Get with a callback.
   *
   * @param key key
   * @param callback called once with (value-or-null, error-or-null)
   */
  public void getAsync(byte[] key, BiConsumer<? super byte[], ? super Throwable> callback) {
    reads.getAsync(key, callback);
  }

  /**
   * Sync multiGet.
   *
   * @param keys keys
   * @return values in key order, null where absent
   */
  public List<byte[]> multiGet(List<byte[]> keys) {
    if (keys.isEmpty()) {
      state.checkOpen();
      return new ArrayList<>();
    }
    return reads.multiGet(keys);
  }

  /**
   * Async multiGet.
   *
   * @param keys keys
   * @return values in key order
   */
  public CompletableFuture<List<byte[]>> multiGetAsync(List<byte[]> keys) {
    if (keys.isEmpty()) {
      return state.completedIfOpen(new ArrayList<>());
    }
    return reads.multiGetAsync(keys);
  }

  // ---------------------------------------------------------------- ordered reads

  /**
   * Opens a merged iterator on the caller's thread.
   *
   * @param lower inclusive lower bound or null
   * @param upper exclusive upper bound or null
   * @param reverse true for descending order
   * @return the iterator, registered until closed
   */
  public StoreIterator openIterator(byte[] lower, byte[] upper, boolean reverse) {
    state.checkOpen();
    return iterators.open(shards, lower, upper, reverse);
  }

  /**
   * Sync ordered read of up to {@code limit} pairs of {@code [lower, upper)}. With a limit it
   * reads on the caller's thread, incrementally. Without one ({@code Integer.MAX_VALUE}) each
   * shard's worker reads its whole part in parallel, merged on the caller's thread; on a worker
   * thread (a callback) it reads on that thread instead.
   *
   * @param lower inclusive lower bound or null
   * @param upper exclusive upper bound or null
   * @param limit most pairs, at least 0
   * @return a new mutable list in key order
   */
  public List<KeyValue> range(byte[] lower, byte[] upper, int limit) {
    state.checkOpen();
    if (limit == 0 || ShardSet.isEmptyRange(lower, upper)) {
      return new ArrayList<>();
    }
    if (limit == Integer.MAX_VALUE && !(ShardWorker.inWorkerRole())) {
      return ranges.readAll(lower, upper);
    }
    if (limit <= StoreIterator.SESSION_PAIRS) {
      // The common short read: no registration, one guard session (StoreIterator.readOnce).
      List<KeyValue> out = new ArrayList<>(limit);
      StoreIterator.readOnce(shards.forRange(lower, upper), shards.sequential(), lower, upper, out, limit, null, name);
      return out;
    }
    List<KeyValue> out = new ArrayList<>(Math.min(limit, 1024));
    try (StoreIterator it = openIterator(lower, upper, false)) {
      it.drainTo(out, limit);
    }
    return out;
  }

  /**
   * Async ordered read: one part per shard to the workers, read in parallel, merged on the worker
   * that completes last.
   *
   * @param lower inclusive lower bound or null
   * @param upper exclusive upper bound or null
   * @param limit most pairs, at least 0
   * @return completes with a new mutable list in key order
   */
  public CompletableFuture<List<KeyValue>> rangeAsync(byte[] lower, byte[] upper, int limit) {
    try {
      state.checkOpen();
    } catch (P2kvException e) {
      return CompletableFuture.failedFuture(e);
    }
    if (limit == 0 || ShardSet.isEmptyRange(lower, upper)) {
      return CompletableFuture.completedFuture(new ArrayList<>());
    }
    return ranges.readAsync(lower, upper, limit);
  }

  /**
   * Number of iterators open now (tests and stats).
   *
   * @return open iterators
   */
  public int openIteratorCount() {
    return iterators.count();
  }

  /**
   * Sets who sees every iterator the cleaner reclaimed, after it is counted and logged (tests).
   *
   * @param listener gets what was logged about the leak (null if it was only counted) and where
   *     the iterator was created (null without leak detection)
   */
  public void onIteratorLeak(BiConsumer<String, Throwable> listener) {
    iterators.onLeak(listener);
  }

  /**
   * How many snapshots the cleaner closed because the application dropped them open (tests).
   *
   * @return leaked snapshots
   */
  public long leakedSnapshots() {
    return iterators.leakedSnapshots();
  }

  /**
   * How many iterators the application had left open when {@link #close()} ran (tests).
   *
   * @return iterators force-closed by close
   */
  public int iteratorsClosedByClose() {
    return iterators.closedByStore();
  }

  // ---------------------------------------------------------------- consistent cuts

  /**
   * A consistent snapshot of every shard (see {@link Cuts}).
   *
   * @return the snapshot, registered until closed
   */
  public StoreSnapshot snapshot() {
    return cuts.snapshot();
  }

  /**
   * Writes a consistent, openable copy of the store (see {@link Cuts}).
   *
   * @param target absent or an empty directory, outside the store
   */
  public void checkpoint(Path target) {
    cuts.checkpoint(target);
  }

  /**
   * Adds a consistent backup of the store to a backup directory (see {@link Cuts}).
   *
   * @param backupDir the backup directory, created if absent
   * @return the new backup
   */
  public io.p2kv.BackupInfo backup(Path backupDir) {
    return cuts.backup(backupDir);
  }

  // ---------------------------------------------------------------- stats and tools

  /**
   * A stats snapshot.
   *
   * @return stats
   */
  public StoreStats stats() {
    List<ShardStats> list = new ArrayList<>(shards.count());
    for (Shard s : shards.all()) {
      list.add(s.snapshot());
    }
    return new StoreStats(list, latency == null ? List.of() : latency.snapshot(), iterators.leaked(), cacheStats(), iterators.leakedSnapshots(), cuts.stats());
  }

  private io.p2kv.CacheStats cacheStats() {
    return cache == null ? io.p2kv.CacheStats.NONE : cache.stats();
  }

  /**
   * A stats snapshot of one shard.
   *
   * @param shard shard index
   * @return its stats
   */
  public ShardStats shardStats(int shard) {
    return shards.get(shard).snapshot();
  }

  /**
   * Runs one step of the adaptive value-separation tuner on the calling thread (tests; tools).
   *
   * @return the changes applied; empty if the policy is not adaptive
   */
  public List<SeparationTuner.Change> retuneSeparationNow() {
    state.checkOpen();
    return tuner == null ? List.of() : tuner.retuneNow();
  }

  /** Flushes every shard's memtables (tools and tests). */
  public void flush() {
    RequestDispatcher.checkNotWorkerThread(); // it waits for every shard's flush
    for (Shard s : shards.all()) {
      s.direct(StoreCore::flush, (Void) null);
    }
  }

  /** Flushes, then fully compacts every shard (tools and benchmarks). */
  public void compact() {
    RequestDispatcher.checkNotWorkerThread(); // it waits for every shard's compaction
    for (Shard s : shards.all()) {
      s.direct(StoreCore::flushAndCompact, (Void) null);
    }
  }

  private static Void flush(Engine engine, Void unused) {
    engine.admin().flush();
    return null;
  }

  private static Void flushAndCompact(Engine engine, Void unused) {
    EngineAdmin admin = engine.admin();
    admin.flush();
    admin.compact();
    return null;
  }

  /**
   * The store's state.
   *
   * @return open, failed or closed
   */
  public io.p2kv.P2kv.Health health() {
    return state.health();
  }

  // ---------------------------------------------------------------- close

  /**
   * Whether close has begun.
   *
   * @return true once {@link #close()} was called
   */
  public boolean isClosed() {
    return closeStarted.get();
  }

  /**
   * Closes the store. Every call returns only once the store is closed and its directory
   * unlocked: a second, concurrent call waits for the first. The exceptions are calls on a
   * worker thread (a callback or a future's stage), which cannot wait for their own worker to
   * stop: the first such call marks the store closed (steps 1 and 2), hands the rest to a new
   * thread and returns; a later one returns at once.
   *
   * <p>The close order, the one definition of it:
   *
   * <ol>
   *   <li>Unregister the JMX MBeans: monitoring sees the store gone before it starts closing.
   *   <li>Mark the store closed: new calls fail fast, and no thread can enter a shard's reader
   *       guard any more.
   *   <li>Stop the value-separation tuner: no {@code setOptions} may reach an engine being closed.
   *   <li>Wait until no caller is inside a reader guard (direct reads, iterator steps, stats):
   *       after this nothing on a caller's thread touches an engine.
   *   <li>Free the iterators and snapshots the application left open, logging how many: safe
   *       because of step 2, even if a thread is in the middle of {@code next()} or a snapshot
   *       read, which then fails at its next guard.
   *   <li>Stop the workers: each executes what is still queued, then ends (all are asked first, so
   *       they drain in parallel); then free each worker's engine batch.
   *   <li>Close the engines, newest first (each frees any iterator it still tracks, then its DB).
   *   <li>Close the resources the engines share, then release the directory lock.
   * </ol>
   *
   * A failure in one step is kept and the later steps still run; the first failure is thrown at
   * the end with the others suppressed, to the call that closed the store (logged instead when
   * that was a worker thread's call).
   */
  @Override
  public void close() {
    if (!closeStarted.compareAndSet(false, true)) {
      awaitClosed();
      return;
    }
    if (jmx != null) {
      jmx.close(); // 1
    }
    state.markClosed(); // 2
    if (ShardWorker.inWorkerRole()) {
      Thread closer = new Thread(this::closeFromAnotherThread, "p2kv-close " + name);
      closer.start();
      return;
    }
    finishClose();
  }

  private void closeFromAnotherThread() {
    try {
      finishClose();
    } catch (RuntimeException e) {
      LOG.error("p2kv store {}: close started by a callback failed", dir, e);
    }
  }

  /** Waits for the close another thread runs; a worker thread cannot, and returns. */
  private void awaitClosed() {
    if (ShardWorker.inWorkerRole()) {
      return;
    }
    boolean interrupted = false;
    while (true) {
      try {
        closed.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  /** Steps 3 to 8 of {@link #close()}. */
  private void finishClose() {
    List<RuntimeException> failures = new ArrayList<>();
    try {
      if (tuner != null) {
        run(tuner::close, failures); // 3
      }
      for (Shard s : shards.all()) {
        s.awaitDirectReaders(); // 4
      }
      int leftOpen = iterators.forceCloseAll(failures::add); // 5
      if (leftOpen > 0) {
        LOG.warn("p2kv store {}: closed {} iterator(s) and snapshot(s) the application left open", dir, leftOpen);
      }
      for (Shard s : shards.all()) {
        s.requestStop(); // 6
      }
      for (Shard s : shards.all()) {
        s.stopWorker();
      }
      Shard[] all = shards.all();
      for (int i = all.length - 1; i >= 0; i--) {
        run(all[i].engine::close, failures); // 7
      }
      run(engineFactory::close, failures); // 8
      lock.close();
    } finally {
      closed.countDown();
    }
    LOG.info("p2kv store {} closed", dir);
    if (!failures.isEmpty()) {
      P2kvException failure =
          new P2kvException("closing store " + dir + " failed: " + failures.get(0).getMessage(), failures.get(0));
      for (int i = 1; i < failures.size(); i++) {
        failure.addSuppressed(failures.get(i));
      }
      throw failure;
    }
  }

  private static void run(Runnable step, List<RuntimeException> failures) {
    try {
      step.run();
    } catch (RuntimeException e) {
      failures.add(e);
    }
  }
}
