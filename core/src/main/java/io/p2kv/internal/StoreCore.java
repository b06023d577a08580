package io.p2kv.internal;

import io.p2kv.Batch;
import io.p2kv.KeyValue;
import io.p2kv.LevelStats;
import io.p2kv.ManifestMismatchException;
import io.p2kv.OperationType;
import io.p2kv.P2kvException;
import io.p2kv.ReadPath;
import io.p2kv.ShardFailedException;
import io.p2kv.ShardStats;
import io.p2kv.StoreCorruptedException;
import io.p2kv.StoreStats;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineException;
import io.p2kv.internal.engine.EngineFactory;
import io.p2kv.internal.engine.EngineProperty;
import io.p2kv.internal.metrics.JmxRegistration;
import io.p2kv.internal.metrics.LatencyRecorder;
import io.p2kv.internal.separation.SeparationTuner;
import io.p2kv.internal.separation.WriteProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open store behind {@code io.p2kv.P2kv}: partitioner, shards, life cycle. p2KVS section 4.
 *
 * <h2>Open</h2>
 * Lock the directory, read or plan the manifest, open every shard's engine (closing the ones
 * already open if shard k fails), write the manifest of a new store last, register the JMX MBeans
 * if asked, then start the workers.
 *
 * <h2>Ordered reads</h2>
 * {@link #range} with a limit and {@link #openIterator} read on the caller's thread through a {@link
 * StoreIterator}: one engine iterator per shard the range overlaps (every shard under hash
 * partitioning), merged with a heap, or read one after the other under range partitioning; every
 * native call runs inside the shard's direct-access guard. {@link #rangeAsync} and {@link #range}
 * without a limit fan one {@link Request#SCAN} per overlapped shard out to the workers, which read
 * in parallel, and merge the sorted parts (p2KVS section 4.4). Measured on a 2-core machine: for
 * scans the caller's thread wins by far (N seeks cannot run in parallel on 2 cores, a hand-off
 * costs more than it saves, and the workers over-read); for whole ranges, where each worker reads
 * exactly its part, the workers' parallelism wins. Every open {@link StoreIterator} is
 * registered in {@link #openIterators} before it creates a native iterator.
 *
 * <h2>Value separation</h2>
 * With an adaptive policy each worker feeds a {@link WriteProfile} and one {@link
 * SeparationTuner} thread retunes the shards' engines from them; started last at open, stopped
 * first at close.
 *
 * <h2>Close</h2>
 * In this order:
 *
 * <ol>
 *   <li>unregister the JMX MBeans;
 *   <li>mark closed: new calls fail fast, and no thread can enter a shard's direct-access guard;
 *   <li>stop the value-separation tuner (it calls engines from its own thread);
 *   <li>wait until no thread is inside a guard (direct reads, iterator calls): after this nothing
 *       on a caller's thread touches an engine;
 *   <li>force-close the iterators the application left open, logging how many: safe because of
 *       step 2 even if a thread is in the middle of {@code next()}, which then fails at its next
 *       guard with {@code StoreClosedException};
 *   <li>stop each worker, which executes what is still queued (a queued scan part opens and closes
 *       its own engine iterator);
 *   <li>close engines (each frees any iterator it still tracks, then its DB);
 *   <li>close the shared engine resources; release the directory lock.
 * </ol>
 *
 * <h2>Latency</h2>
 * With latency recording on, sync calls record their own latency on the caller's thread when they
 * return; async calls stamp their request with the start time and the worker records it when it
 * completes the request (direct reads, which complete on the caller, record at once). Cross-shard
 * batches record their sync latency only.
 */
public final class StoreCore implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(StoreCore.class);

  private final Path dir;
  private final StoreConfig config;
  private final Partitioner partitioner;
  private final Shard[] shards;
  private final EngineFactory engineFactory;
  private final StoreLock lock;
  private final StoreState state;
  private final AtomicBoolean closeStarted = new AtomicBoolean();
  /** Orders cross-shard batches: parts are enqueued under it, in GSN order. */
  private final ReentrantLock crossShardLock = new ReentrantLock();
  private final GsnSequence gsns;
  private final long yieldWaitNanos;
  private final int maxBatch;
  private final boolean directReads;
  private final Set<StoreIterator> openIterators = ConcurrentHashMap.newKeySet();
  private volatile int iteratorsClosedByClose;
  /** Null when latency recording is off. */
  private final LatencyRecorder latency;
  /** Null when JMX is off; set once by {@link #open} before the store is returned. */
  private JmxRegistration jmx;
  private SeparationTuner tuner;

  private StoreCore(
      Path dir,
      StoreConfig config,
      Partitioner partitioner,
      Shard[] shards,
      EngineFactory engineFactory,
      StoreLock lock,
      StoreState state,
      GsnSequence gsns,
      LatencyRecorder latency) {
    this.dir = dir;
    this.gsns = gsns;
    this.config = config;
    this.partitioner = partitioner;
    this.shards = shards;
    this.engineFactory = engineFactory;
    this.lock = lock;
    this.state = state;
    this.yieldWaitNanos = config.yieldWaitNanos();
    this.maxBatch = config.maxBatch();
    this.directReads = config.readPath() == ReadPath.DIRECT;
    this.latency = latency;
  }

  /**
   * Opens or creates a store.
   *
   * @param config resolved options
   * @return the open store
   */
  public static StoreCore open(StoreConfig config) {
    Path dir = config.dir().toAbsolutePath().normalize();
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new P2kvException("cannot create store directory " + dir + ": " + e, e);
    }
    StoreLock lock = StoreLock.acquire(dir);
    EngineFactory factory = null;
    List<Engine> engines = new ArrayList<>();
    JmxRegistration jmx = null;
    try {
      Manifest manifest = Manifest.read(dir);
      boolean create = manifest == null;
      int shardCount;
      if (create) {
        checkEmptyForCreate(dir);
        if (config.splitKeys() != null) {
          manifest = Manifest.createRange(config.splitKeys());
          shardCount = manifest.shards();
        } else {
          shardCount = config.shards() > 0 ? config.shards() : StoreConfig.defaultShards();
          manifest = Manifest.create(shardCount);
        }
      } else {
        checkManifest(dir, manifest, config);
        shardCount = manifest.shards();
      }
      factory = config.engineFactory().apply(shardCount);
      for (int i = 0; i < shardCount; i++) {
        Path shardDir = Manifest.shardDir(dir, i);
        if (!create && !Files.isDirectory(shardDir)) {
          throw new StoreCorruptedException(
              "store " + dir + " has " + shardCount + " shards in its MANIFEST but " + shardDir + " is missing", null);
        }
        try {
          engines.add(factory.open(i, shardDir, create));
        } catch (EngineException e) {
          if (e.kind() == EngineException.Kind.CORRUPTION) {
            throw new StoreCorruptedException(e.getMessage(), e.getCause());
          }
          throw new P2kvException(e.getMessage(), e.getCause());
        }
      }
      if (create) {
        try {
          manifest.write(dir);
        } catch (IOException e) {
          throw new P2kvException("cannot write manifest of " + dir + ": " + e, e);
        }
      }
      long maxGsn;
      try {
        maxGsn = CrossShardRecovery.recover(engines, dir.toString());
      } catch (EngineException e) {
        throw new StoreCorruptedException("cannot recover cross-shard batches of " + dir + ": " + e.getMessage(), e);
      }
      GsnSequence gsns = new GsnSequence(engines.get(0), maxGsn);
      StoreState state = new StoreState(dir.toString());
      CpuPinning pinning =
          new CpuPinning(config.pinning(), shardCount, Runtime.getRuntime().availableProcessors(), dir.toString());
      LatencyRecorder latency = config.recordLatency() ? LatencyRecorder.create() : null;
      boolean adaptive = config.valueSeparation().adaptive();
      Shard[] shards = new Shard[shardCount];
      for (int i = 0; i < shardCount; i++) {
        shards[i] =
            new Shard(
                i,
                Manifest.shardDir(dir, i),
                engines.get(i),
                state,
                config.queueCapacity(),
                config.queueFullPolicy(),
                config.idleMode(),
                pinning,
                config.yieldWaitNanos(),
                config.maxBatch(),
                config.maxBatchBytes(),
                latency,
                adaptive ? new WriteProfile() : null);
      }
      StoreCore store = new StoreCore(dir, config, manifest.newPartitioner(), shards, factory, lock, state, gsns, latency);
      if (config.jmx()) {
        jmx = JmxRegistration.register(dir, shardCount, store::stats, store::shardStats, config.recordLatency());
        store.jmx = jmx;
      }
      for (Shard s : shards) {
        s.start();
      }
      if (adaptive) {
        List<SeparationTuner.TunedShard> tuned = new ArrayList<>();
        for (Shard s : shards) {
          tuned.add(new SeparationTuner.TunedShard(s.index, s.engine, s.worker.profile()));
        }
        store.tuner = new SeparationTuner(dir.toString(), config.valueSeparation(), config.tunerLimits(), tuned);
        if (config.tunerLimits().periodMillis() > 0) {
          store.tuner.start();
        }
      }
      LOG.info(
          "p2kv store {} open: {} {} shards, maxBatch {}, durability {}, read path {}, idle {}, pinning {}, value separation {}",
          dir, shardCount, manifest.partitioner(), config.maxBatch(), config.durability(), config.readPath(), config.idleMode(),
          pinning.enabled() ? "on" : "off", config.valueSeparation());
      return store;
    } catch (RuntimeException | Error e) {
      // Close what was opened, newest first, keeping their errors as suppressed.
      if (jmx != null) {
        jmx.close();
      }
      for (int i = engines.size() - 1; i >= 0; i--) {
        try {
          engines.get(i).close();
        } catch (RuntimeException closeError) {
          e.addSuppressed(closeError);
        }
      }
      if (factory != null) {
        try {
          factory.close();
        } catch (RuntimeException closeError) {
          e.addSuppressed(closeError);
        }
      }
      lock.close();
      throw e;
    }
  }

  private static void checkEmptyForCreate(Path dir) {
    List<String> names;
    try (Stream<Path> list = Files.list(dir)) {
      names = list.map(p -> p.getFileName().toString()).filter(n -> !n.equals(StoreLock.FILE_NAME)).sorted().toList();
    } catch (IOException e) {
      throw new P2kvException("cannot list store directory " + dir + ": " + e, e);
    }
    if (names.isEmpty()) {
      return;
    }
    if (names.stream().anyMatch(n -> n.startsWith("shard-"))) {
      throw new StoreCorruptedException(
          "store " + dir + " has shard directories but no " + Manifest.FILE_NAME
              + " (an interrupted creation, or a damaged store): restore the manifest, or delete the directory to start over",
          null);
    }
    throw new P2kvException(
        "directory " + dir + " is not empty and is not a p2kv store (no " + Manifest.FILE_NAME + "); found " + names);
  }

  private static void checkManifest(Path dir, Manifest m, StoreConfig config) {
    if (config.shards() > 0 && config.shards() != m.shards()) {
      throw new ManifestMismatchException(
          "store " + dir + " has " + m.shards() + " shards (MANIFEST) but was opened with shards=" + config.shards()
              + "; open it with shards=" + m.shards() + " or leave the shard count unset");
    }
    if (Partitioner.RANGE.equals(m.partitioner())) {
      if (config.splitKeys() != null && !sameKeys(config.splitKeys(), m.splits())) {
        throw new ManifestMismatchException(
            "store " + dir + " is range-partitioned with other split keys (" + m.splits().size() + " in its MANIFEST, "
                + config.splitKeys().size() + " given); open it with the same split keys or with no partitioning option");
      }
      return;
    }
    if (!Partitioner.NAME.equals(m.partitioner())) {
      throw new ManifestMismatchException(
          "store " + dir + " uses partitioner '" + m.partitioner() + "' (MANIFEST); this p2kv supports '" + Partitioner.NAME
              + "' and '" + Partitioner.RANGE + "'");
    }
    if (config.splitKeys() != null) {
      throw new ManifestMismatchException(
          "store " + dir + " is hash-partitioned (MANIFEST) but was opened with range partitioning; open it without"
              + " rangePartitioning");
    }
    if (!Partitioner.HASH.equals(m.hash()) || m.seed() != Partitioner.SEED) {
      throw new ManifestMismatchException(
          "store " + dir + " uses hash " + m.hash() + " seed " + m.seed() + " (MANIFEST); this p2kv uses "
              + Partitioner.HASH + " seed " + Partitioner.SEED);
    }
  }

  private static boolean sameKeys(List<byte[]> a, List<byte[]> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!Arrays.equals(a.get(i), b.get(i))) {
        return false;
      }
    }
    return true;
  }

  // ---------------------------------------------------------------- routing

  /**
   * The shard of a key.
   *
   * @param key key
   * @return shard index
   */
  public int shardOf(byte[] key) {
    return partitioner.shardOf(key);
  }

  /**
   * Number of shards.
   *
   * @return shards
   */
  public int shardCount() {
    return shards.length;
  }

  /**
   * The store directory.
   *
   * @return absolute path
   */
  public Path dir() {
    return dir;
  }

  /**
   * The resolved configuration.
   *
   * @return config
   */
  public StoreConfig config() {
    return config;
  }

  // ---------------------------------------------------------------- sync operations

  private static void checkNotWorkerThread() {
    if (Thread.currentThread() instanceof Shard.ShardThread) {
      throw new IllegalStateException(
          "blocking p2kv call on a shard worker thread (from a callback or future stage?) would deadlock;"
              + " use the async methods or a *Async stage with your own executor");
    }
  }

  private Object call(Shard shard, Request r, OperationType type) {
    checkNotWorkerThread();
    long start = latency == null ? 0 : System.nanoTime();
    shard.submit(r);
    r.await(yieldWaitNanos);
    Object result = r.resultOrThrow();
    if (start != 0) {
      latency.record(type, start);
    }
    return result;
  }

  /** Stamps an async request's start time when latencies are recorded. */
  private Request stamped(Request r) {
    if (latency != null) {
      r.startNanos = System.nanoTime();
    }
    return r;
  }

  /**
   * Sync put.
   *
   * @param key key
   * @param value value
   */
  public void put(byte[] key, byte[] value) {
    call(shards[partitioner.shardOf(key)], Request.put(key, value, null), OperationType.PUT);
  }

  /**
   * Sync delete.
   *
   * @param key key
   */
  public void delete(byte[] key) {
    call(shards[partitioner.shardOf(key)], Request.delete(key, null), OperationType.DELETE);
  }

  /**
   * Sync get.
   *
   * @param key key
   * @return value or null
   */
  public byte[] get(byte[] key) {
    Shard shard = shards[partitioner.shardOf(key)];
    if (directReads) {
      return directGet(shard, key);
    }
    return (byte[]) call(shard, Request.get(key, null), OperationType.GET);
  }

  private byte[] directGet(Shard shard, byte[] key) {
    long start = latency == null ? 0 : System.nanoTime();
    shard.enterDirect();
    try {
      shard.countDirectReads(1);
      byte[] value = shard.engine.get(key);
      if (start != 0) {
        latency.record(OperationType.GET, start);
      }
      return value;
    } catch (EngineException e) {
      throw new ShardFailedException(shard.index, e.getMessage(), e.getCause());
    } finally {
      shard.exitDirect();
    }
  }

  /**
   * Sync multiGet.
   *
   * @param keys keys
   * @return values in key order, null where absent
   */
  public List<byte[]> multiGet(List<byte[]> keys) {
    if (keys.isEmpty()) {
      return new ArrayList<>();
    }
    MultiGet mg = new MultiGet(keys, null);
    if (directReads) {
      return mg.runDirect();
    }
    checkNotWorkerThread();
    List<Request> parts = mg.submitParts();
    for (Request part : parts) {
      part.await(yieldWaitNanos);
    }
    for (Request part : parts) {
      mg.place(part, part.resultOrThrow());
    }
    mg.recordLatency();
    return mg.values();
  }

  /**
   * Sync atomic batch, on one shard or across shards.
   *
   * @param batch the batch, already validated
   * @param payloadBytes its payload bytes
   */
  public void write(Batch batch, long payloadBytes) {
    if (batch.isEmpty()) {
      return;
    }
    List<Batch.Op> ops = List.copyOf(batch.ops());
    int[] shardOfOp = shardsOf(ops);
    if (shardOfOp == null) {
      call(shards[partitioner.shardOf(ops.get(0).key())], Request.batch(ops, payloadBytes, null), OperationType.WRITE);
      return;
    }
    checkNotWorkerThread();
    long start = latency == null ? 0 : System.nanoTime();
    Request user = crossShardWrite(ops, shardOfOp, payloadBytes, null);
    user.await(yieldWaitNanos);
    user.resultOrThrow();
    if (start != 0) {
      latency.record(OperationType.WRITE, start);
    }
  }

  /** The shard of each op, or null if they all share one (the common, cheap case). */
  private int[] shardsOf(List<Batch.Op> ops) {
    int first = partitioner.shardOf(ops.get(0).key());
    int[] out = null;
    for (int i = 1; i < ops.size(); i++) {
      int s = partitioner.shardOf(ops.get(i).key());
      if (out == null && s != first) {
        out = new int[ops.size()];
        Arrays.fill(out, 0, i, first);
      }
      if (out != null) {
        out[i] = s;
      }
    }
    return out;
  }

  /**
   * Starts a cross-shard batch (see {@link CrossShardTxn}): splits it per shard in batch order and
   * enqueues the parts under the cross-shard lock, in GSN order. A part that cannot be enqueued
   * fails, which aborts the batch. Returns the caller's request, completed by the coordinator.
   */
  private Request crossShardWrite(List<Batch.Op> ops, int[] shardOfOp, long payloadBytes, Object userSink) {
    List<List<Batch.Op>> perShard = new ArrayList<>(shards.length);
    for (int i = 0; i < shards.length; i++) {
      perShard.add(null);
    }
    for (int i = 0; i < ops.size(); i++) {
      List<Batch.Op> l = perShard.get(shardOfOp[i]);
      if (l == null) {
        l = new ArrayList<>();
        perShard.set(shardOfOp[i], l);
      }
      l.add(ops.get(i));
    }
    int[] touched = new int[shards.length];
    int n = 0;
    for (int s = 0; s < shards.length; s++) {
      if (perShard.get(s) != null) {
        touched[n++] = s;
      }
    }
    Request user = Request.batch(ops, payloadBytes, userSink);
    crossShardLock.lock();
    try {
      state.checkOpen();
      long gsn;
      try {
        gsn = gsns.next();
      } catch (EngineException e) {
        throw new ShardFailedException(0, e.getMessage(), e.getCause());
      }
      CrossShardTxn txn = new CrossShardTxn(gsn, n, shards[0].engine, user, state);
      Request[] parts = new Request[n];
      for (int j = 0; j < n; j++) {
        List<Batch.Op> partOps = perShard.get(touched[j]);
        long bytes = 0;
        for (Batch.Op op : partOps) {
          bytes += op.key().length + (op.value() == null ? 0 : op.value().length);
        }
        parts[j] = Request.crossPart(partOps, bytes, txn, j);
      }
      for (int j = 0; j < n; j++) {
        try {
          shards[touched[j]].submit(parts[j]);
        } catch (RuntimeException e) {
          for (int k = j; k < n; k++) {
            parts[k].fail(e);
          }
          break;
        }
      }
    } finally {
      crossShardLock.unlock();
    }
    return user;
  }

  // ---------------------------------------------------------------- async operations

  private <T> CompletableFuture<T> submitAsync(Shard shard, Request r, CompletableFuture<T> f) {
    try {
      shard.submit(r);
    } catch (P2kvException e) {
      f.completeExceptionally(e);
    }
    return f;
  }

  private void submitCallback(Shard shard, Request r, BiConsumer<?, ? super Throwable> callback) {
    try {
      shard.submit(r);
    } catch (P2kvException e) {
      callback.accept(null, e);
    }
  }

  /**
   * Async put.
   *
   * @param key key
   * @param value value
   * @return completes when the put is applied
   */
  public CompletableFuture<Void> putAsync(byte[] key, byte[] value) {
    CompletableFuture<Void> f = new CompletableFuture<>();
    return submitAsync(shards[partitioner.shardOf(key)], stamped(Request.put(key, value, f)), f);
  }

  /**
   * Put with a callback run on the worker thread.
   *
   * @param key key
   * @param value value
   * @param callback called once with (null, error-or-null)
   */
  public void putAsync(byte[] key, byte[] value, BiConsumer<? super Void, ? super Throwable> callback) {
    submitCallback(shards[partitioner.shardOf(key)], stamped(Request.put(key, value, callback)), callback);
  }

  /**
   * Async delete.
   *
   * @param key key
   * @return completes when the delete is applied
   */
  public CompletableFuture<Void> deleteAsync(byte[] key) {
    CompletableFuture<Void> f = new CompletableFuture<>();
    return submitAsync(shards[partitioner.shardOf(key)], stamped(Request.delete(key, f)), f);
  }

  /**
   * Async get.
   *
   * @param key key
   * @return the value or null
   */
  public CompletableFuture<byte[]> getAsync(byte[] key) {
    Shard shard = shards[partitioner.shardOf(key)];
    if (directReads) {
      try {
        return CompletableFuture.completedFuture(directGet(shard, key));
      } catch (P2kvException e) {
        return CompletableFuture.failedFuture(e);
      }
    }
    CompletableFuture<byte[]> f = new CompletableFuture<>();
    return submitAsync(shard, stamped(Request.get(key, f)), f);
  }

  /**
   * Get with a callback.
   *
   * @param key key
   * @param callback called once with (value-or-null, error-or-null)
   */
  public void getAsync(byte[] key, BiConsumer<? super byte[], ? super Throwable> callback) {
    Shard shard = shards[partitioner.shardOf(key)];
    if (directReads) {
      byte[] value;
      try {
        value = directGet(shard, key);
      } catch (P2kvException e) {
        callback.accept(null, e);
        return;
      }
      callback.accept(value, null);
      return;
    }
    submitCallback(shard, stamped(Request.get(key, callback)), callback);
  }

  /**
   * Async multiGet.
   *
   * @param keys keys
   * @return values in key order
   */
  public CompletableFuture<List<byte[]>> multiGetAsync(List<byte[]> keys) {
    CompletableFuture<List<byte[]>> f = new CompletableFuture<>();
    if (keys.isEmpty()) {
      f.complete(new ArrayList<>());
      return f;
    }
    MultiGet mg = new MultiGet(keys, f);
    if (directReads) {
      try {
        f.complete(mg.runDirect());
      } catch (P2kvException e) {
        f.completeExceptionally(e);
      }
      return f;
    }
    try {
      mg.submitParts();
    } catch (P2kvException e) {
      f.completeExceptionally(e);
    }
    return f;
  }

  /**
   * Async single-shard atomic batch.
   *
   * @param batch the batch
   * @param payloadBytes its payload bytes
   * @return completes when applied
   */
  public CompletableFuture<Void> writeAsync(Batch batch, long payloadBytes) {
    if (batch.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    List<Batch.Op> ops = List.copyOf(batch.ops());
    int[] shardOfOp = shardsOf(ops);
    CompletableFuture<Void> f = new CompletableFuture<>();
    if (shardOfOp == null) {
      return submitAsync(shards[partitioner.shardOf(ops.get(0).key())], stamped(Request.batch(ops, payloadBytes, f)), f);
    }
    try {
      crossShardWrite(ops, shardOfOp, payloadBytes, f);
    } catch (P2kvException e) {
      f.completeExceptionally(e);
    }
    return f;
  }

  /**
   * A multiGet split into per-shard parts of at most maxBatch keys; assembles values in the
   * caller's key order. As a {@link Request.Sink} it completes the async future when the last
   * part completes.
   */
  private final class MultiGet implements Request.Sink {
    private final List<byte[]> keys;
    private final byte[][] values;
    private final CompletableFuture<List<byte[]>> future;
    private final int[][] positions;
    private final AtomicInteger remaining = new AtomicInteger();
    private final List<List<byte[]>> shardKeys = new ArrayList<>();
    private final long startNanos = latency == null ? 0 : System.nanoTime();
    private int[] partShard;
    private int[] partFrom;

    MultiGet(List<byte[]> keys, CompletableFuture<List<byte[]>> future) {
      this.keys = keys;
      this.future = future;
      this.values = new byte[keys.size()][];
      int n = shards.length;
      int[] counts = new int[n];
      int[] shardOf = new int[keys.size()];
      for (int i = 0; i < keys.size(); i++) {
        shardOf[i] = partitioner.shardOf(keys.get(i));
        counts[shardOf[i]]++;
      }
      positions = new int[n][];
      for (int s = 0; s < n; s++) {
        positions[s] = new int[counts[s]];
        shardKeys.add(new ArrayList<>(counts[s]));
      }
      int[] fill = new int[n];
      for (int i = 0; i < keys.size(); i++) {
        int s = shardOf[i];
        positions[s][fill[s]++] = i;
        shardKeys.get(s).add(keys.get(i));
      }
    }

    /** Submits one request per shard and chunk of at most maxBatch keys; tag = part number. */
    List<Request> submitParts() {
      List<Request> parts = new ArrayList<>();
      int partCount = 0;
      for (List<byte[]> ks : shardKeys) {
        partCount += (ks.size() + maxBatch - 1) / maxBatch;
      }
      partShard = new int[partCount];
      partFrom = new int[partCount];
      // Sync callers (no future) collect the parts' results themselves, on their own thread.
      Object sink = future == null ? null : this;
      for (int s = 0; s < shards.length; s++) {
        List<byte[]> ks = shardKeys.get(s);
        for (int from = 0; from < ks.size(); from += maxBatch) {
          int part = parts.size();
          partShard[part] = s;
          partFrom[part] = from;
          parts.add(Request.multiGet(ks.subList(from, Math.min(ks.size(), from + maxBatch)), sink, part));
        }
      }
      remaining.set(parts.size());
      for (Request part : parts) {
        shards[partShard[part.tag]].submit(part);
      }
      return parts;
    }

    List<byte[]> runDirect() {
      for (int s = 0; s < shards.length; s++) {
        List<byte[]> ks = shardKeys.get(s);
        if (ks.isEmpty()) {
          continue;
        }
        Shard shard = shards[s];
        shard.enterDirect();
        try {
          shard.countDirectReads(ks.size());
          place(s, 0, shard.engine.multiGet(ks));
        } catch (EngineException e) {
          throw new ShardFailedException(s, e.getMessage(), e.getCause());
        } finally {
          shard.exitDirect();
        }
      }
      recordLatency();
      return values();
    }

    void recordLatency() {
      if (startNanos != 0) {
        latency.record(OperationType.MULTI_GET, startNanos);
      }
    }

    private void place(int shard, int from, List<byte[]> partValues) {
      int[] pos = positions[shard];
      for (int j = 0; j < partValues.size(); j++) {
        values[pos[from + j]] = partValues.get(j);
      }
    }

    @SuppressWarnings("unchecked")
    void place(Request part, Object result) {
      place(partShard[part.tag], partFrom[part.tag], (List<byte[]>) result);
    }

    @Override
    public void onComplete(Request request, Object result, Throwable error) {
      if (error == null) {
        place(request, result);
      } else {
        future.completeExceptionally(error);
      }
      if (remaining.decrementAndGet() == 0 && !future.isDone()) {
        recordLatency();
        future.complete(values());
      }
    }

    List<byte[]> values() {
      return new ArrayList<>(Arrays.asList(values));
    }
  }

  // ---------------------------------------------------------------- ordered reads

  /** True if no key can lie in {@code [lower, upper)}. */
  private static boolean isEmptyRange(byte[] lower, byte[] upper) {
    return upper != null && (upper.length == 0 || (lower != null && Arrays.compareUnsigned(lower, upper) >= 0));
  }

  /**
   * The shards a range touches, in index order: all of them under hash partitioning, the ones
   * whose key ranges overlap it under range partitioning.
   */
  private Shard[] shardsFor(byte[] lower, byte[] upper) {
    if (isEmptyRange(lower, upper)) {
      return new Shard[0];
    }
    if (!partitioner.isRange()) {
      return shards;
    }
    return Arrays.copyOfRange(shards, partitioner.firstShard(lower), partitioner.lastShard(upper) + 1);
  }

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
    return StoreIterator.open(
        shardsFor(lower, upper), partitioner.isRange() ? partitioner : null, lower, upper, reverse, openIterators, dir.toString());
  }

  /**
   * Sync ordered read of up to {@code limit} pairs of {@code [lower, upper)}. With a limit it
   * reads on the caller's thread, incrementally: only what it returns plus one entry per shard.
   * Without one ({@code Integer.MAX_VALUE}) every pair must be read anyway, so each shard's worker
   * reads its whole part in parallel (p2KVS's sub-RANGE operations), merged on the caller's
   * thread; on a worker thread (a callback) it reads on that thread instead.
   *
   * @param lower inclusive lower bound or null
   * @param upper exclusive upper bound or null
   * @param limit most pairs, at least 0
   * @return a new mutable list in key order
   */
  public List<KeyValue> range(byte[] lower, byte[] upper, int limit) {
    state.checkOpen();
    if (limit == 0 || isEmptyRange(lower, upper)) {
      return new ArrayList<>();
    }
    if (limit == Integer.MAX_VALUE && !(Thread.currentThread() instanceof Shard.ShardThread)) {
      return rangeOnWorkers(lower, upper);
    }
    List<KeyValue> out = new ArrayList<>(Math.min(limit, 1024));
    try (StoreIterator it = openIterator(lower, upper, false)) {
      it.drainTo(out, limit);
    }
    return out;
  }

  private List<KeyValue> rangeOnWorkers(byte[] lower, byte[] upper) {
    Shard[] targets = shardsFor(lower, upper);
    List<Request> parts = new ArrayList<>(targets.length);
    for (int i = 0; i < targets.length; i++) {
      Request part = Request.scan(lower, upper, Integer.MAX_VALUE, null, i);
      targets[i].submit(part);
      parts.add(part);
    }
    List<List<KeyValue>> runs = new ArrayList<>(parts.size());
    for (Request part : parts) {
      part.await(yieldWaitNanos);
    }
    for (Request part : parts) {
      @SuppressWarnings("unchecked")
      List<KeyValue> run = (List<KeyValue>) part.resultOrThrow();
      runs.add(run);
    }
    return KWayMerge.merge(runs, Integer.MAX_VALUE);
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
    CompletableFuture<List<KeyValue>> f = new CompletableFuture<>();
    try {
      state.checkOpen();
    } catch (P2kvException e) {
      f.completeExceptionally(e);
      return f;
    }
    if (limit == 0 || isEmptyRange(lower, upper)) {
      f.complete(new ArrayList<>());
      return f;
    }
    Shard[] targets = shardsFor(lower, upper);
    RangeParts parts = new RangeParts(targets.length, limit, f);
    try {
      for (int i = 0; i < targets.length; i++) {
        targets[i].submit(Request.scan(lower, upper, limit, parts, i));
      }
    } catch (P2kvException e) {
      f.completeExceptionally(e);
    }
    return f;
  }

  /** Collects the sorted per-shard parts of an async ordered read and merges them. */
  private static final class RangeParts implements Request.Sink {
    private final List<List<KeyValue>> runs;
    private final int limit;
    private final CompletableFuture<List<KeyValue>> future;
    private final AtomicInteger remaining;

    RangeParts(int parts, int limit, CompletableFuture<List<KeyValue>> future) {
      this.runs = new ArrayList<>(java.util.Collections.nCopies(parts, List.<KeyValue>of()));
      this.limit = limit;
      this.future = future;
      this.remaining = new AtomicInteger(parts);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void onComplete(Request request, Object result, Throwable error) {
      if (error != null) {
        future.completeExceptionally(error);
      } else {
        runs.set(request.tag, (List<KeyValue>) result);
      }
      // The decrement orders every part's write to runs before the last part's merge.
      if (remaining.decrementAndGet() == 0 && !future.isDone()) {
        future.complete(KWayMerge.merge(runs, limit));
      }
    }
  }

  /**
   * Number of iterators open now (tests and stats).
   *
   * @return open iterators
   */
  public int openIteratorCount() {
    return openIterators.size();
  }

  /**
   * How many iterators the application had left open when {@link #close()} ran (tests).
   *
   * @return iterators force-closed by close
   */
  public int iteratorsClosedByClose() {
    return iteratorsClosedByClose;
  }

  // ---------------------------------------------------------------- stats and tools

  /**
   * A stats snapshot.
   *
   * @return stats
   */
  public StoreStats stats() {
    List<ShardStats> list = new ArrayList<>(shards.length);
    for (Shard s : shards) {
      list.add(shardStats(s));
    }
    return new StoreStats(list, latency == null ? List.of() : latency.snapshot());
  }

  /**
   * A stats snapshot of one shard.
   *
   * @param shard shard index
   * @return its stats
   */
  public ShardStats shardStats(int shard) {
    return shardStats(shards[shard]);
  }

  private static ShardStats shardStats(Shard s) {
    ShardWorker.ShardCounters c = s.worker.counters();
    long[] props = new long[EngineProperty.values().length];
    List<LevelStats> levels;
    s.enterDirect();
    try {
      for (EngineProperty p : EngineProperty.values()) {
        props[p.ordinal()] = s.engine.property(p);
      }
      levels = s.engine.levels();
    } finally {
      s.exitDirect();
    }
    return new ShardStats(
        s.index,
        c.puts(),
        c.deletes(),
        c.batchRequests(),
        c.crossShardParts(),
        c.writeCalls(),
        c.writeOps(),
        c.maxWriteRun(),
        c.readKeys(),
        c.readCalls(),
        c.maxReadRun(),
        s.directReads(),
        c.failedRequests(),
        s.queue.size(),
        s.queue.capacity(),
        s.rejectedOffers.sum(),
        props[EngineProperty.MEMTABLE_BYTES.ordinal()],
        props[EngineProperty.PENDING_COMPACTION_BYTES.ordinal()],
        props[EngineProperty.SST_BYTES.ordinal()],
        props[EngineProperty.BLOB_BYTES.ordinal()],
        props[EngineProperty.ESTIMATED_KEYS.ordinal()],
        levels,
        c.userBytes(),
        props[EngineProperty.FLUSH_WRITE_BYTES.ordinal()],
        props[EngineProperty.COMPACTION_WRITE_BYTES.ordinal()],
        props[EngineProperty.BLOB_WRITE_BYTES.ordinal()],
        props[EngineProperty.LIVE_DATA_BYTES.ordinal()],
        props[EngineProperty.BLOB_GARBAGE_BYTES.ordinal()],
        props[EngineProperty.BACKGROUND_JOBS.ordinal()],
        s.engine.separation());
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
    for (Shard s : shards) {
      s.enterDirect();
      try {
        s.engine.flush();
      } catch (EngineException e) {
        throw new ShardFailedException(s.index, e.getMessage(), e.getCause());
      } finally {
        s.exitDirect();
      }
    }
  }

  /** Flushes, then fully compacts every shard (tools and benchmarks). */
  public void compact() {
    for (Shard s : shards) {
      s.enterDirect();
      try {
        s.engine.flush();
        s.engine.compact();
      } catch (EngineException e) {
        throw new ShardFailedException(s.index, e.getMessage(), e.getCause());
      } finally {
        s.exitDirect();
      }
    }
  }

  /**
   * Whether close has begun.
   *
   * @return true once {@link #close()} was called
   */
  public boolean isClosed() {
    return closeStarted.get();
  }

  @Override
  public void close() {
    if (!closeStarted.compareAndSet(false, true)) {
      return;
    }
    // 0. Monitoring sees the store gone before it starts closing.
    if (jmx != null) {
      jmx.close();
    }
    state.markClosed();
    P2kvException failure = null;
    // 0. The separation tuner: no setOptions may reach an engine being closed.
    if (tuner != null) {
      try {
        tuner.close();
      } catch (RuntimeException e) {
        failure = addFailure(failure, e);
      }
    }
    // 1. No caller inside an engine any more (new ones see the store closed).
    for (Shard s : shards) {
      s.awaitDirectReaders();
    }
    // 2. Iterators the application left open: nobody is inside one, nobody can enter one.
    int leftOpen = 0;
    for (StoreIterator it : openIterators) {
      try {
        if (it.forceClose()) {
          leftOpen++;
        }
      } catch (RuntimeException e) {
        failure = addFailure(failure, e);
      }
    }
    openIterators.clear();
    iteratorsClosedByClose = leftOpen;
    if (leftOpen > 0) {
      LOG.warn("p2kv store {}: closed {} iterator(s) the application left open", dir, leftOpen);
    }
    // 3. Workers execute what is queued, then stop. Ask all first so they drain in parallel.
    for (Shard s : shards) {
      s.worker.requestStop();
      s.signal();
    }
    for (Shard s : shards) {
      s.stopWorker();
    }
    // 4. Engines, then their shared resources, then the directory lock.
    for (int i = shards.length - 1; i >= 0; i--) {
      try {
        shards[i].engine.close();
      } catch (RuntimeException e) {
        failure = addFailure(failure, e);
      }
    }
    try {
      engineFactory.close();
    } catch (RuntimeException e) {
      failure = addFailure(failure, e);
    }
    lock.close();
    LOG.info("p2kv store {} closed", dir);
    if (failure != null) {
      throw failure;
    }
  }

  private P2kvException addFailure(P2kvException failure, RuntimeException e) {
    if (failure == null) {
      return new P2kvException("closing store " + dir + " failed: " + e.getMessage(), e);
    }
    failure.addSuppressed(e);
    return failure;
  }
}
