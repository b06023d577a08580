package io.p2kv.bench;

import io.p2kv.CacheStats;
import io.p2kv.Durability;
import io.p2kv.P2kv;
import io.p2kv.ReadPath;
import io.p2kv.ValueSeparation;
import java.nio.file.Path;
import java.util.function.Consumer;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/** Opening and loading p2kv stores for benchmarks. */
public final class Stores {
  private Stores() {}

  /** The memory budget every benchmark gives p2kv and the baselines alike (p2kv's default). */
  public static final long MEMORY_BUDGET_BYTES = 512L << 20;

  /** p2kv's default {@code maxBatch}, for benchmarks that do not vary it. */
  public static final int MAX_BATCH = P2kv.Builder.DEFAULT_MAX_BATCH;

  /**
   * A p2kv store in a fresh temporary directory, every value inline: the same placement as the
   * plain-RocksDB baselines, so that the suite measures the p2KVS framework and nothing else
   * (ValueSeparationBenchmark measures the placement policies). {@code
   * -Dp2kv.bench.recordLatency=true} (a JMH {@code -jvmArgsAppend}) turns latency recording on, to
   * measure what it costs.
   */
  public static P2kv open(int shards, int maxBatch, Durability durability, ReadPath readPath) {
    return open(shards, maxBatch, durability, readPath, 50_000, ValueSeparation.none());
  }

  /** A p2kv store in a fresh temporary directory with the given value-separation policy. */
  public static P2kv open(int shards, int maxBatch, Durability durability, ReadPath readPath, ValueSeparation separation) {
    return open(shards, maxBatch, durability, readPath, 50_000, separation);
  }

  /** A p2kv store in a fresh temporary directory, with a given caller/worker yield window. */
  public static P2kv open(int shards, int maxBatch, Durability durability, ReadPath readPath, long yieldWaitNanos) {
    return open(shards, maxBatch, durability, readPath, yieldWaitNanos, ValueSeparation.none());
  }

  /** A p2kv store in a fresh temporary directory, with p2kv's default value cache. */
  public static P2kv open(
      int shards, int maxBatch, Durability durability, ReadPath readPath, long yieldWaitNanos, ValueSeparation separation) {
    return open(shards, maxBatch, durability, readPath, yieldWaitNanos, separation, "default");
  }

  /**
   * A p2kv store in a fresh temporary directory: every option the benchmarks vary.
   *
   * @param cache the value cache: "default" (what a store gets without choosing), "off", or a size
   *     in MiB
   */
  public static P2kv open(
      int shards,
      int maxBatch,
      Durability durability,
      ReadPath readPath,
      long yieldWaitNanos,
      ValueSeparation separation,
      String cache) {
    return open(shards, maxBatch, durability, readPath, yieldWaitNanos, separation, cache, builder -> {});
  }

  /**
   * {@link #open(int, int, Durability, ReadPath, long, ValueSeparation, String)} with more
   * options set by {@code more} before the store opens.
   */
  public static P2kv open(
      int shards,
      int maxBatch,
      Durability durability,
      ReadPath readPath,
      long yieldWaitNanos,
      ValueSeparation separation,
      String cache,
      Consumer<P2kv.Builder> more) {
    Path dir = BenchData.tempDir("p2kv-bench");
    P2kv.Builder builder = P2kv.builder();
    switch (cache) {
      case "default" -> {}
      case "off" -> builder.cacheBytes(0);
      default -> builder.cacheBytes(Long.parseLong(cache) << 20);
    }
    more.accept(builder);
    return builder
        .shards(shards)
        .maxBatch(maxBatch)
        .durability(durability)
        .readPath(readPath)
        .yieldWaitNanos(yieldWaitNanos)
        .memoryBudgetBytes(MEMORY_BUDGET_BYTES)
        .recordLatency(Boolean.getBoolean("p2kv.bench.recordLatency"))
        .valueSeparation(separation)
        .open(dir);
  }

  /**
   * A value-separation policy by name: none, all, fixed (sizeAware().fixed()), sizeAware, default
   * (what a store gets without choosing: the adaptive sizeAware()).
   *
   * @param name the name
   * @return the policy
   */
  public static ValueSeparation separation(String name) {
    return switch (name) {
      case "none" -> ValueSeparation.none();
      case "all" -> ValueSeparation.all();
      case "fixed" -> ValueSeparation.sizeAware().fixed();
      case "sizeAware", "default" -> ValueSeparation.sizeAware();
      default -> throw new IllegalArgumentException("unknown separation " + name);
    };
  }

  /** Closes a store and deletes its directory; first prints its value cache's counters, if on. */
  public static void closeAndDelete(P2kv store) {
    if (store != null) {
      CacheStats c = store.stats().cache();
      if (c.capacityBytes() > 0) {
        System.out.printf(Locale.ROOT, "# p2kv value cache: %d MiB, hit ratio %.3f (%d hits, %d misses), %d entries, %d evictions%n",
            c.capacityBytes() >> 20, c.hitRatio(), c.hits(), c.misses(), c.entries(), c.evictions());
      }
      Path dir = store.dir();
      store.close();
      BenchData.deleteTree(dir);
    }
  }

  /** Loads keys {@code 0..n-1} with async puts (1024 in flight), then flushes and compacts. */
  public static void preload(P2kv store, long n, int valueBytes) {
    byte[] value = BenchData.value(valueBytes, new SplittableRandom(42));
    Semaphore window = new Semaphore(1024);
    AtomicReference<Throwable> error = new AtomicReference<>();
    for (long i = 0; i < n; i++) {
      window.acquireUninterruptibly();
      store.putAsync(BenchData.key(i), value, (v, e) -> {
        if (e != null) {
          error.set(e);
        }
        window.release();
      });
    }
    window.acquireUninterruptibly(1024);
    if (error.get() != null) {
      throw new IllegalStateException("preload failed", error.get());
    }
    store.compact();
    printPlacement(store);
  }

  /** Prints where the store keeps its values (blob and SST bytes, files per level) into the log. */
  public static void printPlacement(P2kv store) {
    long blob = 0;
    long sst = 0;
    StringBuilder levels = new StringBuilder();
    for (var shard : store.stats().shards()) {
      blob += Math.max(0, shard.blobBytes());
      sst += Math.max(0, shard.sstBytes());
      levels.append(' ').append(shard.levels().stream().map(l -> String.valueOf(l.files())).toList());
    }
    System.out.printf("%n# p2kv values: %d MiB in blob files, %d MiB in SST files; files per level, per shard:%s%n",
        blob >> 20, sst >> 20, levels);
  }

  /** Prints the store's batching statistics into the benchmark log. */
  public static void printStats(String label, P2kv store) {
    var stats = store.stats();
    System.out.printf(
        "%n# %s: mean write batch %.2f over %d engine writes, rejected offers %d%n",
        label, stats.meanWriteBatch(), stats.writeCalls(), stats.rejectedOffers());
    for (var l : stats.latencies()) {
      if (l.count() > 0) {
        System.out.printf(
            "# %s %s latency: %d ops, p50 %.1f us, p99 %.1f us, p99.9 %.1f us, max %.1f us%n",
            label, l.operation(), l.count(), l.p50Nanos() / 1e3, l.p99Nanos() / 1e3, l.p999Nanos() / 1e3,
            l.maxNanos() / 1e3);
      }
    }
  }
}
