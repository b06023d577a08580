package io.p2kv.internal;

import io.p2kv.P2kvException;
import io.p2kv.ReadPath;
import io.p2kv.StoreCorruptedException;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineException;
import io.p2kv.internal.engine.EngineFactory;
import io.p2kv.internal.engine.rocksdb.RocksDbEngineFactory;
import io.p2kv.internal.metrics.JmxRegistration;
import io.p2kv.internal.metrics.LatencyRecorder;
import io.p2kv.internal.separation.SeparationPolicy;
import io.p2kv.internal.separation.SeparationTuner;
import io.p2kv.internal.separation.WriteProfile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Opens a store, in this order: lock the directory; read the manifest and check it against the
 * options, or plan a new one; open every shard's engine (if shard k fails, close the ones already
 * open, newest first, and attach their errors as suppressed); write the manifest of a new store
 * last, so a store with a manifest is complete; roll back or finish the cross-shard batches a crash
 * left in flight; build the shards; register the JMX MBeans if asked; start the workers; start the
 * value-separation tuner, which restores each shard's saved settings; then let the engines settle
 * what open left behind and start their background compactions (they are held from open until
 * then, so no compaction rewrites a file under settings the tuner is about to replace).
 */
public final class StoreOpener {
  private static final Logger LOG = LoggerFactory.getLogger(StoreOpener.class);

  private StoreOpener() {}

  /**
   * Opens or creates a store.
   *
   * @param config resolved options
   * @return the open store
   */
  public static StoreCore open(StoreConfig config) {
    Path dir = config.dir().toAbsolutePath().normalize();
    if (Files.exists(dir) && !Files.isDirectory(dir)) {
      throw new P2kvException("store path " + dir + " is a file, not a directory: open a directory (empty or absent for a new store)");
    }
    StoreCopy.checkComplete(dir);
    if (Files.isDirectory(dir) && !Files.exists(dir.resolve(Manifest.FILE_NAME)) && !Files.exists(dir.resolve(StoreLock.FILE_NAME))) {
      // Refuse a directory that is not a store before creating anything in it (a LOCK file means
      // p2kv made it, so the checks wait until the lock is held).
      checkEmptyForCreate(dir);
    }
    try {
      Files.createDirectories(dir);
    } catch (IOException e) {
      throw new P2kvException("cannot create store directory " + dir + ": " + e, e);
    }
    StoreLock lock = StoreLock.acquire(dir);
    EngineFactory factory = null;
    List<Engine> engines = new ArrayList<>();
    JmxRegistration jmx = null;
    boolean creating = false; // true from a creation's first shard directory until its manifest is written
    List<Shard> started = new ArrayList<>();
    SeparationTuner tuner = null;
    try {
      Manifest manifest = Manifest.read(dir);
      boolean create = manifest == null;
      if (create) {
        checkEmptyForCreate(dir);
        manifest =
            config.splitKeys() != null
                ? Manifest.createRange(config.splitKeys())
                : Manifest.create(config.shards() > 0 ? config.shards() : StoreConfig.defaultShards());
      } else {
        manifest.checkCompatible(dir, config);
        checkNoStrayShards(dir, manifest.shards());
        // What a killed backup or copy left: under the lock no backup of this store is running.
        StoreCopy.deleteWithLeftovers(dir.resolve(Backups.STAGING));
        // Table files of a bulk load the process did not finish: never ingested, so not data.
        StoreCopy.deleteWithLeftovers(dir.resolve(BulkLoads.STAGING));
        if (dir.getParent() != null) {
          StoreCopy.removeAbandoned(dir.getParent());
        }
      }
      int shardCount = manifest.shards();
      factory = engineFactory(config, manifest, create);
      creating = create;
      for (int i = 0; i < shardCount; i++) {
        engines.add(openEngine(factory, dir, i, shardCount, create));
      }
      if (create) {
        try {
          manifest.write(dir);
        } catch (IOException e) {
          throw new P2kvException("cannot write manifest of " + dir + ": " + e, e);
        }
        creating = false;
      }
      long maxGsn;
      try {
        maxGsn = CrossShardRecovery.recover(engines, dir.toString());
      } catch (EngineException e) {
        throw new StoreCorruptedException("cannot recover cross-shard batches of " + dir + ": " + e.getMessage(), e);
      }
      StoreState state = new StoreState(dir.toString());
      CpuPinning pinning =
          new CpuPinning(config.pinning(), shardCount, Runtime.getRuntime().availableProcessors(), dir.toString());
      LatencyRecorder latency = config.recordLatency() ? LatencyRecorder.create() : null;
      boolean adaptive = config.valueSeparation().adaptive();
      ShardConfig shardConfig = ShardConfig.of(config);
      StripeVersions versions = new StripeVersions(shardCount);
      ValueCache cache = config.cacheBytes() > 0 ? new ValueCache(versions, config.cacheBytes()) : null;
      Shard[] shardArray = new Shard[shardCount];
      for (int i = 0; i < shardCount; i++) {
        shardArray[i] =
            new Shard(i, engines.get(i), state, shardConfig, pinning, latency, adaptive ? new WriteProfile() : null, versions, cache, new WorkerSignal());
      }
      ShardSet shards = new ShardSet(shardArray, manifest.newPartitioner());
      RequestDispatcher dispatcher = new RequestDispatcher(config.yieldWaitNanos(), latency);
      // Direct reads use the value cache on the caller's thread, reads on the workers on the
      // worker (in queue order; ShardWorker).
      boolean direct = config.readPath() == ReadPath.DIRECT;
      PointReads reads =
          direct ? new DirectPointReads(shards, dispatcher, cache, state) : new WorkerPointReads(shards, dispatcher, config.maxBatch());
      // Updates read ahead on the caller's thread where gets do.
      UpdatePreReads preReads = direct ? new UpdatePreReads(shards, versions, cache) : null;
      CrossShardCoordinator crossShard =
          new CrossShardCoordinator(shards, state, new GsnSequence(engines.get(0), maxGsn));
      StoreCore store =
          new StoreCore(dir, shards, state, dispatcher, reads, cache, preReads, crossShard, latency, factory, lock, config.leakDetection());
      if (config.jmx()) {
        jmx = JmxRegistration.register(dir, shardCount, store::stats, store::shardStats, config.recordLatency());
      }
      for (Shard s : shardArray) {
        s.start();
        started.add(s);
      }
      tuner = adaptive ? startTuner(dir, config, shardArray) : null;
      // The tuner restored each shard's settings: flushes and compactions may write files now.
      for (Engine e : engines) {
        e.admin().startCompactions();
      }
      store.attach(jmx, tuner);
      LOG.info(
          "p2kv store {} open: {} {} shards, maxBatch {}, durability {}, read path {}, idle {}, pinning {}, value separation {}, {}",
          dir, shardCount, manifest.partitioner(), config.maxBatch(), config.durability(), config.readPath(), config.idleMode(),
          pinning.enabled() ? "on" : "off", config.valueSeparation(), caches(factory, config.cacheBytes()));
      return store;
    } catch (RuntimeException | Error e) {
      // Close what was opened, newest first, keeping their errors as suppressed: the tuner and the
      // workers before the engines they call.
      if (tuner != null) {
        try {
          tuner.close();
        } catch (RuntimeException closeError) {
          e.addSuppressed(closeError);
        }
      }
      for (Shard s : started) {
        s.requestStop();
      }
      for (Shard s : started) {
        try {
          s.stopWorker();
        } catch (RuntimeException closeError) {
          e.addSuppressed(closeError);
        }
      }
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
      if (creating) {
        // A creation that failed before its manifest: what it made goes, so that the directory
        // opens (creates) again instead of being refused as an interrupted creation.
        deleteCreatedFiles(dir, e);
      }
      lock.close();
      if (e instanceof EngineException engineError) { // internal: the caller gets a public type
        throw new P2kvException("cannot open store " + dir + ": " + engineError.getMessage(), engineError);
      }
      throw e;
    }
  }

  /**
   * The engine factory: RocksDB unless a test injected another. An existing store's blob cache is
   * sized by the share of its data in blob files (RocksDbEngineFactory, "Blob cache").
   */
  private static EngineFactory engineFactory(StoreConfig config, Manifest manifest, boolean create) {
    int shardCount = manifest.shards();
    if (config.engineFactory() != null) {
      return config.engineFactory().apply(shardCount);
    }
    double blobShare = Double.NaN;
    if (!create) {
      List<Path> shardDirs = new ArrayList<>();
      for (int i = 0; i < shardCount; i++) {
        shardDirs.add(Manifest.shardDir(config.dir(), i));
      }
      blobShare = RocksDbEngineFactory.blobShareOf(shardDirs);
    }
    return new RocksDbEngineFactory(
        shardCount,
        config.memoryBudgetBytes() - config.cacheBytes(),
        config.durability(),
        config.configurer(),
        SeparationPolicy.initialSettings(config.valueSeparation()),
        blobShare);
  }

  /** How the budget's caches were split at this open, for the open's log line. */
  private static String caches(EngineFactory factory, long valueCacheBytes) {
    String value = valueCacheBytes > 0 ? ", value cache " + (valueCacheBytes >> 20) + " MiB" : "";
    if (factory instanceof RocksDbEngineFactory r) {
      String pages = r.memtableHugePageBytes() > 0 ? ", memtables on " + (r.memtableHugePageBytes() >> 10) + " KiB huge pages" : "";
      return "block cache " + (r.blockCacheBytes() >> 20) + " MiB, blob cache " + (r.blobCacheCapacity() >> 20) + " MiB" + value + pages;
    }
    return "engine " + factory.getClass().getSimpleName() + value;
  }

  private static Engine openEngine(EngineFactory factory, Path dir, int shard, int shardCount, boolean create) {
    Path shardDir = Manifest.shardDir(dir, shard);
    if (!create && !Files.isDirectory(shardDir)) {
      throw new StoreCorruptedException(
          "store " + dir + " has " + shardCount + " shards in its MANIFEST but " + shardDir + " is missing", null);
    }
    try {
      return factory.open(shard, shardDir, create);
    } catch (EngineException e) {
      throw Errors.openFailed(e);
    }
  }

  private static SeparationTuner startTuner(Path dir, StoreConfig config, Shard[] shards) {
    List<SeparationTuner.TunedShard> tuned = new ArrayList<>();
    for (Shard s : shards) {
      tuned.add(new SeparationTuner.TunedShard(s.index, s.engine.admin(), s.worker.profile()));
    }
    SeparationTuner tuner = new SeparationTuner(dir.toString(), config.valueSeparation(), config.tunerLimits(), tuned);
    if (config.tunerLimits().periodMillis() > 0) {
      tuner.start();
    }
    return tuner;
  }

  /**
   * A shard directory the MANIFEST does not count (an edited MANIFEST, a directory copied in)
   * would be ignored, and the keys it holds silently missing: refuse to open.
   */
  private static void checkNoStrayShards(Path dir, int shards) {
    List<String> stray =
        names(dir).stream().filter(n -> n.matches("shard-\\d{1,9}") && Integer.parseInt(n.substring(6)) >= shards).toList();
    if (!stray.isEmpty()) {
      throw new StoreCorruptedException(
          "store " + dir + " has " + shards + " shards in its MANIFEST but also " + stray
              + " (an edited MANIFEST, or a directory copied in): restore the MANIFEST or move the extra directories away",
          null);
    }
  }

  private static void checkEmptyForCreate(Path dir) {
    List<String> names = names(dir).stream().filter(n -> !n.equals(StoreLock.FILE_NAME)).toList();
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

  /**
   * Deletes what a failed creation wrote in {@code dir} (it was empty but for the lock file, see
   * {@link #checkEmptyForCreate}); failures go to {@code e} as suppressed.
   */
  private static void deleteCreatedFiles(Path dir, Throwable e) {
    try {
      for (String name : names(dir)) {
        if (!name.equals(StoreLock.FILE_NAME)) {
          StoreCopy.deleteWithLeftovers(dir.resolve(name));
        }
      }
    } catch (RuntimeException deleteError) {
      e.addSuppressed(deleteError);
    }
  }

  /** The names in the store directory, sorted. */
  private static List<String> names(Path dir) {
    try (Stream<Path> list = Files.list(dir)) {
      return list.map(p -> p.getFileName().toString()).sorted().toList();
    } catch (IOException e) {
      throw new P2kvException("cannot list store directory " + dir + ": " + e, e);
    }
  }
}
