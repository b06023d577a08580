package io.p2kv;

import io.p2kv.internal.StoreConfig;
import io.p2kv.internal.StoreCore;
import io.p2kv.internal.engine.EngineFactory;
import io.p2kv.internal.engine.rocksdb.RocksDbEngineFactory;
import io.p2kv.internal.separation.SeparationPolicy;
import io.p2kv.internal.separation.SeparationTuner;
import io.p2kv.rocksdb.RocksDbConfigurer;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * Thread-safe: an open p2kv store, an embedded key-value store that hash-partitions keys over N
 * RocksDB instances, each driven by one worker thread that merges queued requests into batches
 * (the p2KVS design, EuroSys '22).
 *
 * <pre>{@code
 * try (P2kv store = P2kv.builder().shards(4).open(Path.of("/var/lib/app/kv"))) {
 *   store.put(key, value);
 *   byte[] v = store.get(key);
 *   store.putAsync(key, value).thenRun(() -> ...);
 * }
 * }</pre>
 *
 * <h2>Keys and values</h2>
 * Keys and values are byte arrays. Keys order as unsigned bytes. The empty key and the empty value
 * are valid. Keys are at most {@link #MAX_KEY_BYTES} bytes, values at most {@link
 * #MAX_VALUE_BYTES}. The store keeps references to the arrays it is given until the operation
 * completes: do not modify them before that. Arrays returned by reads belong to the caller.
 *
 * <h2>Ordering and consistency</h2>
 * Each key lives on exactly one shard, and each shard applies its requests in queue order, so the
 * operations one thread issues on one key apply in the order issued, and a thread always reads its
 * own completed writes. {@link #write(Batch)} is atomic; in this version a batch must stay within
 * one shard (see {@link #shardOf(byte[])}). There is no ordering between different keys issued
 * concurrently by different threads.
 *
 * <h2>Sync, async, callbacks</h2>
 * Sync methods block the calling thread (platform or virtual) until the operation is applied.
 * {@code *Async} methods return at once; their futures and callbacks complete on the shard's
 * worker thread, so dependent stages and callbacks must be short and must never call a blocking
 * method of this store (doing so throws {@link IllegalStateException}); use {@code
 * thenApplyAsync(fn, executor)} for heavy work. Argument errors (null, oversized) throw at once
 * from every method; store errors (closed, failed, queue full, engine errors) are thrown by sync
 * methods and delivered through the future or callback by async ones.
 *
 * <h2>Errors</h2>
 * All store errors extend {@link P2kvException}: {@link StoreClosedException}, {@link
 * StoreFailedException}, {@link ShardFailedException}, {@link QueueFullException}, {@link
 * StoreLockedException}, {@link ManifestMismatchException}, {@link StoreCorruptedException}.
 */
public final class P2kv implements AutoCloseable {
  /** The longest key, in bytes. */
  public static final int MAX_KEY_BYTES = 65_535;

  /** The longest value, in bytes (64 MiB). */
  public static final int MAX_VALUE_BYTES = 64 << 20;

  private final StoreCore core;

  private P2kv(StoreCore core) {
    this.core = core;
  }

  /**
   * A builder with the defaults.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  // ------------------------------------------------------------------------ sync

  /**
   * Stores a value, replacing any previous one.
   *
   * @param key the key
   * @param value the value
   * @throws NullPointerException if key or value is null
   * @throws IllegalArgumentException if key or value is too long
   * @throws P2kvException if the store is closed or failed, the queue is full (fail-fast mode) or
   *     the shard's engine failed the write
   */
  public void put(byte[] key, byte[] value) {
    Limits.checkKey(key);
    Limits.checkValue(value);
    core.put(key, value);
  }

  /**
   * Reads a value.
   *
   * @param key the key
   * @return the value, or null if the key is absent
   * @throws NullPointerException if key is null
   * @throws IllegalArgumentException if key is too long
   * @throws P2kvException as for {@link #put}
   */
  public byte[] get(byte[] key) {
    Limits.checkKey(key);
    return core.get(key);
  }

  /**
   * Removes a key; removing an absent key is not an error.
   *
   * @param key the key
   * @throws NullPointerException if key is null
   * @throws IllegalArgumentException if key is too long
   * @throws P2kvException as for {@link #put}
   */
  public void delete(byte[] key) {
    Limits.checkKey(key);
    core.delete(key);
  }

  /**
   * Reads many keys. Keys are split by shard and read with one engine multiGet per shard and run
   * of at most {@code maxBatch} keys. Each shard's part is consistent in itself; parts on
   * different shards are read independently.
   *
   * @param keys the keys (duplicates allowed)
   * @return a new mutable list of values in the order of {@code keys}, null where absent
   * @throws NullPointerException if the list or a key is null
   * @throws IllegalArgumentException if a key is too long
   * @throws P2kvException as for {@link #put}
   */
  public List<byte[]> multiGet(List<byte[]> keys) {
    checkKeys(keys);
    return core.multiGet(keys);
  }

  /**
   * Applies a batch atomically: all of its operations or none, in order.
   *
   * @param batch the batch; its keys must all belong to one shard in this version
   * @throws NullPointerException if batch is null
   * @throws IllegalArgumentException if the batch spans shards
   * @throws P2kvException as for {@link #put}
   */
  public void write(Batch batch) {
    Objects.requireNonNull(batch, "batch is null");
    core.write(batch, batch.payloadBytes());
  }

  // ------------------------------------------------------------------------ async

  /**
   * Async {@link #put}.
   *
   * @param key the key
   * @param value the value
   * @return completes on the worker thread once the put is applied
   */
  public CompletableFuture<Void> putAsync(byte[] key, byte[] value) {
    Limits.checkKey(key);
    Limits.checkValue(value);
    return core.putAsync(key, value);
  }

  /**
   * Async {@link #put} with a callback instead of a future: no future is allocated and completed,
   * the cheapest way to keep many writes in flight.
   *
   * @param key the key
   * @param value the value
   * @param callback called exactly once, on the worker thread (or on the caller's thread if the
   *     request could not be enqueued), with {@code (null, null)} on success or {@code (null,
   *     error)}; exceptions it throws are logged and ignored
   */
  public void putAsync(byte[] key, byte[] value, BiConsumer<? super Void, ? super Throwable> callback) {
    Limits.checkKey(key);
    Limits.checkValue(value);
    Objects.requireNonNull(callback, "callback is null");
    core.putAsync(key, value, callback);
  }

  /**
   * Async {@link #get}.
   *
   * @param key the key
   * @return the value or null
   */
  public CompletableFuture<byte[]> getAsync(byte[] key) {
    Limits.checkKey(key);
    return core.getAsync(key);
  }

  /**
   * Async {@link #get} with a callback.
   *
   * @param key the key
   * @param callback called exactly once with {@code (value-or-null, null)} or {@code (null,
   *     error)}, on the worker thread, or on the caller's thread for the direct read path
   */
  public void getAsync(byte[] key, BiConsumer<? super byte[], ? super Throwable> callback) {
    Limits.checkKey(key);
    Objects.requireNonNull(callback, "callback is null");
    core.getAsync(key, callback);
  }

  /**
   * Async {@link #delete}.
   *
   * @param key the key
   * @return completes once the delete is applied
   */
  public CompletableFuture<Void> deleteAsync(byte[] key) {
    Limits.checkKey(key);
    return core.deleteAsync(key);
  }

  /**
   * Async {@link #multiGet}.
   *
   * @param keys the keys
   * @return the values in the order of {@code keys}
   */
  public CompletableFuture<List<byte[]>> multiGetAsync(List<byte[]> keys) {
    checkKeys(keys);
    return core.multiGetAsync(keys);
  }

  /**
   * Async {@link #write(Batch)}. The batch's operations are copied, so the batch may be reused
   * once this returns (the key and value arrays must still not be modified until completion).
   *
   * @param batch the batch
   * @return completes once the batch is applied
   * @throws IllegalArgumentException if the batch spans shards
   */
  public CompletableFuture<Void> writeAsync(Batch batch) {
    Objects.requireNonNull(batch, "batch is null");
    return core.writeAsync(batch, batch.payloadBytes());
  }

  private static void checkKeys(List<byte[]> keys) {
    Objects.requireNonNull(keys, "keys is null");
    for (byte[] key : keys) {
      Limits.checkKey(key);
    }
  }

  // ------------------------------------------------------------------------ information

  /**
   * The shard a key belongs to; keys of one {@link Batch} must share it.
   *
   * @param key the key
   * @return shard index, from 0 to {@link #shardCount()} - 1
   */
  public int shardOf(byte[] key) {
    Limits.checkKey(key);
    return core.shardOf(key);
  }

  /**
   * Number of shards, fixed when the store was created.
   *
   * @return shard count
   */
  public int shardCount() {
    return core.shardCount();
  }

  /**
   * The store directory.
   *
   * @return its absolute path
   */
  public Path dir() {
    return core.dir();
  }

  /**
   * A snapshot of per-shard counters and engine properties.
   *
   * @return the stats
   * @throws StoreClosedException if the store is closed
   */
  public StoreStats stats() {
    return core.stats();
  }

  /**
   * Flushes every shard's memtables to disk and waits. Not needed for durability (the WAL provides
   * it); useful before measuring on-disk sizes or copying a closed store.
   */
  public void flush() {
    core.flush();
  }

  /**
   * Flushes and fully compacts every shard, and waits. An administrative operation (before a
   * read benchmark, after a bulk load); concurrent reads and writes keep working meanwhile.
   */
  public void compact() {
    core.compact();
  }

  StoreCore core() {
    return core;
  }

  /**
   * Closes the store: new calls fail with {@link StoreClosedException}, requests already queued
   * are executed, workers stop, shards close, the directory is unlocked. Idempotent.
   *
   * @throws P2kvException if an engine failed to close cleanly (the store is closed anyway)
   */
  @Override
  public void close() {
    core.close();
  }

  /**
   * Not thread-safe: collects options for {@link #open(Path)}. Every option has a default chosen
   * by measurement (see {@code docs/benchmarks/}); setters validate at once. {@code open} never
   * changes the builder, so one builder can open several stores.
   */
  public static final class Builder {
    private int shards;
    private int maxBatch = 32;
    private long maxBatchBytes = 64 * 1024;
    private int queueCapacity = 4096;
    private QueueFullPolicy queueFullPolicy = QueueFullPolicy.WAIT;
    private IdleMode idleMode = IdleMode.PARK;
    private Pinning pinning = Pinning.AUTO;
    private Durability durability = Durability.WAL;
    private ReadPath readPath = ReadPath.DIRECT;
    private long memoryBudgetBytes = 512L << 20;
    private long yieldWaitNanos = 50_000;
    private RocksDbConfigurer configurer;
    private ValueSeparation valueSeparation = ValueSeparation.sizeAware();
    private SeparationTuner.Limits tunerLimits = SeparationTuner.Limits.DEFAULT;
    private Function<Integer, EngineFactory> engineFactory;

    private Builder() {}

    /**
     * Number of shards (RocksDB instances and worker threads) of a new store. An existing store
     * keeps the count in its manifest; giving another count fails with {@link
     * ManifestMismatchException}. Default: one per two available cores, at least 1, at most 8
     * (each worker wants a core of its own; callers and compaction need the rest).
     *
     * @param shards 1 to 1024
     * @return this builder
     */
    public Builder shards(int shards) {
      if (shards < 1 || shards > 1024) {
        throw new IllegalArgumentException("shards must be between 1 and 1024: " + shards);
      }
      this.shards = shards;
      return this;
    }

    /**
     * Most operations a worker merges into one engine call (write batch or multiGet). 1 turns
     * batching off. Default 32, the p2KVS default.
     *
     * @param maxBatch 1 to 4096
     * @return this builder
     */
    public Builder maxBatch(int maxBatch) {
      if (maxBatch < 1 || maxBatch > 4096) {
        throw new IllegalArgumentException("maxBatch must be between 1 and 4096: " + maxBatch);
      }
      this.maxBatch = maxBatch;
      return this;
    }

    /**
     * Most key + value bytes a worker merges into one write batch; bounds latency with large
     * values. A single request larger than this still runs, alone. Default 64 KiB.
     *
     * @param maxBatchBytes at least 1
     * @return this builder
     */
    public Builder maxBatchBytes(long maxBatchBytes) {
      if (maxBatchBytes < 1) {
        throw new IllegalArgumentException("maxBatchBytes must be positive: " + maxBatchBytes);
      }
      this.maxBatchBytes = maxBatchBytes;
      return this;
    }

    /**
     * Capacity of each shard's request queue, rounded up to a power of two. Default 4096.
     *
     * @param queueCapacity 2 to 2^24
     * @return this builder
     */
    public Builder queueCapacity(int queueCapacity) {
      if (queueCapacity < 2 || queueCapacity > (1 << 24)) {
        throw new IllegalArgumentException("queueCapacity must be between 2 and 16777216: " + queueCapacity);
      }
      this.queueCapacity = queueCapacity;
      return this;
    }

    /**
     * What callers do when a queue is full. Default {@link QueueFullPolicy#WAIT}.
     *
     * @param policy the policy
     * @return this builder
     */
    public Builder queueFullPolicy(QueueFullPolicy policy) {
      this.queueFullPolicy = Objects.requireNonNull(policy, "queueFullPolicy is null");
      return this;
    }

    /**
     * What an idle worker does. Default {@link IdleMode#PARK}.
     *
     * @param idleMode the mode
     * @return this builder
     */
    public Builder idleMode(IdleMode idleMode) {
      this.idleMode = Objects.requireNonNull(idleMode, "idleMode is null");
      return this;
    }

    /**
     * Whether workers are pinned to cores. Default {@link Pinning#AUTO}.
     *
     * @param pinning the mode
     * @return this builder
     */
    public Builder pinning(Pinning pinning) {
      this.pinning = Objects.requireNonNull(pinning, "pinning is null");
      return this;
    }

    /**
     * Durability of acknowledged writes. Default {@link Durability#WAL}.
     *
     * @param durability the mode
     * @return this builder
     */
    public Builder durability(Durability durability) {
      this.durability = Objects.requireNonNull(durability, "durability is null");
      return this;
    }

    /**
     * Where point reads run. Default {@link ReadPath#DIRECT}.
     *
     * @param readPath the path
     * @return this builder
     */
    public Builder readPath(ReadPath readPath) {
      this.readPath = Objects.requireNonNull(readPath, "readPath is null");
      return this;
    }

    /**
     * The store's whole memory budget for RocksDB: one block cache of this size shared by all
     * shards, with memtables (capped at half of it) charged to the same cache. Default 512 MiB.
     *
     * @param bytes at least 16 MiB
     * @return this builder
     */
    public Builder memoryBudgetBytes(long bytes) {
      if (bytes < (16L << 20)) {
        throw new IllegalArgumentException("memoryBudgetBytes must be at least 16 MiB: " + bytes);
      }
      this.memoryBudgetBytes = bytes;
      return this;
    }

    /**
     * Advanced: how long a blocked sync caller, and an idle worker in {@link IdleMode#PARK}, keep
     * polling, yielding the CPU between polls, before they park. Within this window a completion
     * or a new request costs no park/unpark pair; yielding rather than spinning leaves the core to
     * any other runnable thread. 0 parks at once. Default 50 microseconds.
     *
     * @param nanos 0 to 10 ms
     * @return this builder
     */
    public Builder yieldWaitNanos(long nanos) {
      if (nanos < 0 || nanos > 10_000_000L) {
        throw new IllegalArgumentException("yieldWaitNanos must be between 0 and 10000000: " + nanos);
      }
      this.yieldWaitNanos = nanos;
      return this;
    }

    /**
     * Which values are kept inline in the LSM-trees and which go to blob files (key-value
     * separation), per shard. Default {@link ValueSeparation#sizeAware()}: small values inline,
     * large ones in blob files, medium ones where they cost least, retuned while the store runs.
     * Can change between opens of a store.
     *
     * @param policy the policy
     * @return this builder
     */
    public Builder valueSeparation(ValueSeparation policy) {
      this.valueSeparation = Objects.requireNonNull(policy, "valueSeparation is null");
      return this;
    }

    /**
     * The RocksDB tuning hook, called for each shard after p2kv's defaults.
     *
     * @param configurer the hook, or null for none
     * @return this builder
     */
    public Builder rocksDbConfigurer(RocksDbConfigurer configurer) {
      this.configurer = configurer;
      return this;
    }

    /** Test hook: the adaptive tuner's window limits (a period of 0 starts no timer). */
    Builder separationTunerLimits(SeparationTuner.Limits limits) {
      this.tunerLimits = limits;
      return this;
    }

    /** Test hook: replaces the engine factory (fault injection). */
    Builder engineFactory(Function<Integer, EngineFactory> factory) {
      this.engineFactory = factory;
      return this;
    }

    /**
     * Opens the store at {@code dir}, creating it (and the directory) if it does not exist.
     *
     * @param dir the store directory: empty or absent for a new store
     * @return the open store
     * @throws StoreLockedException if the store is already open
     * @throws ManifestMismatchException if the options contradict the existing store
     * @throws StoreCorruptedException if the store's metadata or a shard is damaged
     * @throws P2kvException if the directory is not a store, or an engine fails to open
     */
    public P2kv open(Path dir) {
      Objects.requireNonNull(dir, "dir is null");
      RocksDbConfigurer hook = configurer;
      Durability d = durability;
      long budget = memoryBudgetBytes;
      ValueSeparation separation = valueSeparation;
      Function<Integer, EngineFactory> factory =
          engineFactory != null
              ? engineFactory
              : shardCount ->
                  new RocksDbEngineFactory(shardCount, budget, d, hook, SeparationPolicy.initialSettings(separation));
      StoreConfig config =
          new StoreConfig(
              dir,
              shards,
              maxBatch,
              maxBatchBytes,
              queueCapacity,
              queueFullPolicy,
              idleMode,
              pinning,
              durability,
              readPath,
              memoryBudgetBytes,
              yieldWaitNanos,
              configurer,
              valueSeparation,
              tunerLimits,
              factory);
      return new P2kv(StoreCore.open(config));
    }
  }
}
