package io.p2kv.internal;

import io.p2kv.Batch;
import io.p2kv.ManifestMismatchException;
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
import io.p2kv.internal.separation.SeparationTuner;
import io.p2kv.internal.separation.WriteProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The open store behind {@code io.p2kv.P2kv}: partitioner, shards, life cycle. p2KVS section 4.
 *
 * <h2>Open</h2>
 * Lock the directory, read or plan the manifest, open every shard's engine (closing the ones
 * already open if shard k fails), write the manifest of a new store last, then start the workers.
 *
 * <h2>Value separation</h2>
 * With an adaptive policy each worker feeds a {@link WriteProfile} and one {@link
 * SeparationTuner} thread retunes the shards' engines from them; started last at open, stopped
 * first at close.
 *
 * <h2>Close</h2>
 * In this order: mark closed (new calls fail fast); stop the separation tuner; wait for direct
 * readers to leave the engines; stop each worker, which executes what is still queued; close
 * engines; close the shared engine resources; release the directory lock.
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
  private final long yieldWaitNanos;
  private final int maxBatch;
  private final boolean directReads;
  private SeparationTuner tuner;

  private StoreCore(
      Path dir,
      StoreConfig config,
      Partitioner partitioner,
      Shard[] shards,
      EngineFactory engineFactory,
      StoreLock lock,
      StoreState state) {
    this.dir = dir;
    this.config = config;
    this.partitioner = partitioner;
    this.shards = shards;
    this.engineFactory = engineFactory;
    this.lock = lock;
    this.state = state;
    this.yieldWaitNanos = config.yieldWaitNanos();
    this.maxBatch = config.maxBatch();
    this.directReads = config.readPath() == ReadPath.DIRECT;
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
    try {
      Manifest manifest = Manifest.read(dir);
      boolean create = manifest == null;
      int shardCount;
      if (create) {
        checkEmptyForCreate(dir);
        shardCount = config.shards() > 0 ? config.shards() : StoreConfig.defaultShards();
        manifest = Manifest.create(shardCount);
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
          if (create) {
            throw new P2kvException(e.getMessage(), e.getCause());
          }
          throw new StoreCorruptedException(e.getMessage(), e.getCause());
        }
      }
      if (create) {
        try {
          manifest.write(dir);
        } catch (IOException e) {
          throw new P2kvException("cannot write manifest of " + dir + ": " + e, e);
        }
      }
      StoreState state = new StoreState(dir.toString());
      CpuPinning pinning =
          new CpuPinning(config.pinning(), shardCount, Runtime.getRuntime().availableProcessors(), dir.toString());
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
                adaptive ? new WriteProfile() : null);
      }
      StoreCore store = new StoreCore(dir, config, new Partitioner(shardCount), shards, factory, lock, state);
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
          "p2kv store {} open: {} shards, maxBatch {}, durability {}, read path {}, idle {}, pinning {}, value separation {}",
          dir, shardCount, config.maxBatch(), config.durability(), config.readPath(), config.idleMode(),
          pinning.enabled() ? "on" : "off", config.valueSeparation());
      return store;
    } catch (RuntimeException | Error e) {
      // Close what was opened, newest first, keeping their errors as suppressed.
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
    if (!Partitioner.NAME.equals(m.partitioner())) {
      throw new ManifestMismatchException(
          "store " + dir + " uses partitioner '" + m.partitioner() + "' (MANIFEST); this p2kv supports '" + Partitioner.NAME + "'");
    }
    if (!Partitioner.HASH.equals(m.hash()) || m.seed() != Partitioner.SEED) {
      throw new ManifestMismatchException(
          "store " + dir + " uses hash " + m.hash() + " seed " + m.seed() + " (MANIFEST); this p2kv uses "
              + Partitioner.HASH + " seed " + Partitioner.SEED);
    }
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

  private Object call(Shard shard, Request r) {
    checkNotWorkerThread();
    shard.submit(r);
    r.await(yieldWaitNanos);
    return r.resultOrThrow();
  }

  /**
   * Sync put.
   *
   * @param key key
   * @param value value
   */
  public void put(byte[] key, byte[] value) {
    call(shards[partitioner.shardOf(key)], Request.put(key, value, null));
  }

  /**
   * Sync delete.
   *
   * @param key key
   */
  public void delete(byte[] key) {
    call(shards[partitioner.shardOf(key)], Request.delete(key, null));
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
    return (byte[]) call(shard, Request.get(key, null));
  }

  private byte[] directGet(Shard shard, byte[] key) {
    shard.enterDirect();
    try {
      shard.directReads.increment();
      return shard.engine.get(key);
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
    return mg.values();
  }

  /**
   * Sync single-shard atomic batch.
   *
   * @param batch the batch, already validated
   * @param payloadBytes its payload bytes
   */
  public void write(Batch batch, long payloadBytes) {
    if (batch.isEmpty()) {
      return;
    }
    Shard shard = batchShard(batch);
    call(shard, Request.batch(List.copyOf(batch.ops()), payloadBytes, null));
  }

  private Shard batchShard(Batch batch) {
    List<Batch.Op> ops = batch.ops();
    int first = partitioner.shardOf(ops.get(0).key());
    for (int i = 1; i < ops.size(); i++) {
      int s = partitioner.shardOf(ops.get(i).key());
      if (s != first) {
        int[] touched = ops.stream().mapToInt(op -> partitioner.shardOf(op.key())).distinct().sorted().toArray();
        throw new IllegalArgumentException(
            "batch spans shards " + Arrays.toString(touched)
                + "; cross-shard atomic batches are not supported yet: group operations by P2kv.shardOf(key)");
      }
    }
    return shards[first];
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
    return submitAsync(shards[partitioner.shardOf(key)], Request.put(key, value, f), f);
  }

  /**
   * Put with a callback run on the worker thread.
   *
   * @param key key
   * @param value value
   * @param callback called once with (null, error-or-null)
   */
  public void putAsync(byte[] key, byte[] value, BiConsumer<? super Void, ? super Throwable> callback) {
    submitCallback(shards[partitioner.shardOf(key)], Request.put(key, value, callback), callback);
  }

  /**
   * Async delete.
   *
   * @param key key
   * @return completes when the delete is applied
   */
  public CompletableFuture<Void> deleteAsync(byte[] key) {
    CompletableFuture<Void> f = new CompletableFuture<>();
    return submitAsync(shards[partitioner.shardOf(key)], Request.delete(key, f), f);
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
    return submitAsync(shard, Request.get(key, f), f);
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
    submitCallback(shard, Request.get(key, callback), callback);
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
    Shard shard = batchShard(batch);
    CompletableFuture<Void> f = new CompletableFuture<>();
    return submitAsync(shard, Request.batch(List.copyOf(batch.ops()), payloadBytes, f), f);
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
          shard.directReads.add(ks.size());
          place(s, 0, shard.engine.multiGet(ks));
        } catch (EngineException e) {
          throw new ShardFailedException(s, e.getMessage(), e.getCause());
        } finally {
          shard.exitDirect();
        }
      }
      return values();
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
        future.complete(values());
      }
    }

    List<byte[]> values() {
      return new ArrayList<>(Arrays.asList(values));
    }
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
      ShardWorker.ShardCounters c = s.worker.counters();
      long[] props = new long[EngineProperty.values().length];
      s.enterDirect();
      try {
        for (EngineProperty p : EngineProperty.values()) {
          props[p.ordinal()] = s.engine.property(p);
        }
      } finally {
        s.exitDirect();
      }
      list.add(
          new ShardStats(
              s.index,
              c.puts(),
              c.deletes(),
              c.batchRequests(),
              c.writeCalls(),
              c.writeOps(),
              c.maxWriteRun(),
              c.readKeys(),
              c.readCalls(),
              c.maxReadRun(),
              s.directReads.sum(),
              c.failedRequests(),
              s.queue.size(),
              s.queue.capacity(),
              s.rejectedOffers.sum(),
              props[EngineProperty.MEMTABLE_BYTES.ordinal()],
              props[EngineProperty.PENDING_COMPACTION_BYTES.ordinal()],
              props[EngineProperty.SST_BYTES.ordinal()],
              props[EngineProperty.BLOB_BYTES.ordinal()],
              props[EngineProperty.ESTIMATED_KEYS.ordinal()],
              c.userBytes(),
              props[EngineProperty.FLUSH_WRITE_BYTES.ordinal()],
              props[EngineProperty.COMPACTION_WRITE_BYTES.ordinal()],
              props[EngineProperty.BLOB_WRITE_BYTES.ordinal()],
              props[EngineProperty.LIVE_DATA_BYTES.ordinal()],
              props[EngineProperty.BLOB_GARBAGE_BYTES.ordinal()],
              props[EngineProperty.BACKGROUND_JOBS.ordinal()],
              s.engine.separation()));
    }
    return new StoreStats(list);
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
    // 2. Workers execute what is queued, then stop. Ask all first so they drain in parallel.
    for (Shard s : shards) {
      s.worker.requestStop();
      s.signal();
    }
    for (Shard s : shards) {
      s.stopWorker();
    }
    // 3. Engines, then their shared resources, then the directory lock.
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
