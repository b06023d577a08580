package io.p2kv.internal;

import io.p2kv.Durability;
import io.p2kv.IdleMode;
import io.p2kv.Pinning;
import io.p2kv.QueueFullPolicy;
import io.p2kv.ReadPath;
import io.p2kv.ValueSeparation;
import io.p2kv.rocksdb.RocksDbConfigurer;
import io.p2kv.internal.engine.EngineFactory;
import io.p2kv.internal.separation.SeparationTuner;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;

/**
 * Every option of a store, validated and with defaults resolved, in one place (the builder never
 * changes after {@code open}). {@code shards} is 0 when the caller did not choose: an existing
 * store then keeps its own, a new one gets {@link #defaultShards()}.
 *
 * @param dir store directory
 * @param shards requested shard count, or 0 for "the store's own or the default"
 * @param maxBatch max operations per engine call
 * @param maxBatchBytes max payload bytes per write batch
 * @param maxDurableBatch max operations per write batch with durability SYNC
 * @param maxDurableBatchBytes max payload bytes per write batch with durability SYNC
 * @param queueCapacity per-shard queue capacity (a power of two)
 * @param queueFullPolicy what callers do on a full queue
 * @param idleMode worker idle strategy
 * @param pinning worker pinning
 * @param durability WAL and fsync mode
 * @param readPath where point reads run
 * @param memoryBudgetBytes total block cache + memtable budget
 * @param yieldWaitNanos how long sync callers and idle workers poll (yielding) before parking
 * @param recordLatency whether operation latencies are recorded
 * @param jmx whether the stats are exported as JMX MBeans
 * @param configurer RocksDB tuning hook, or null
 * @param valueSeparation the value-separation policy
 * @param tunerLimits window limits of the adaptive separation tuner (a period of 0: no timer,
 *     tests step it)
 * @param engineFactory opens engines given the resolved shard count, or null for RocksDB (tests
 *     inject faults here)
 * @param splitKeys split keys of a range-partitioned store (already validated), or null for hash
 *     partitioning (or "whatever the existing store uses")
 * @param leakDetection whether iterators record where they were created, to log it when one leaks
 */
public record StoreConfig(
    Path dir,
    int shards,
    int maxBatch,
    long maxBatchBytes,
    int maxDurableBatch,
    long maxDurableBatchBytes,
    int queueCapacity,
    QueueFullPolicy queueFullPolicy,
    IdleMode idleMode,
    Pinning pinning,
    Durability durability,
    ReadPath readPath,
    long memoryBudgetBytes,
    long yieldWaitNanos,
    boolean recordLatency,
    boolean jmx,
    RocksDbConfigurer configurer,
    ValueSeparation valueSeparation,
    SeparationTuner.Limits tunerLimits,
    Function<Integer, EngineFactory> engineFactory,
    List<byte[]> splitKeys,
    boolean leakDetection,
    long cacheBytes) {

  /**
   * The shard count of a new store when none is given: {@link #defaultShards(int)} of the cores
   * this JVM may use.
   *
   * @return shards
   */
  public static int defaultShards() {
    return defaultShards(Runtime.getRuntime().availableProcessors());
  }

  /**
   * Serial CPU of an async put in a shard's worker role, in nanoseconds: RocksDB's cost per key
   * (1,165 ns) plus its cost per engine write (2,262 ns) shared by a full batch of 32; the first
   * calibration on 2 cores (docs/benchmarks/SCALING.md, "The default shard count", which says why
   * the second did not replace it).
   */
  static final double SERIAL_NANOS_PER_PUT = 1165 + 2262 / 32.0;

  /**
   * All CPU of the same async put, in nanoseconds: the caller's enqueue and completion (1,146 ns),
   * the serial part above, RocksDB's flush and compaction (1,060 ns) and the JVM's GC and JIT (484
   * ns); same source.
   */
  static final double TOTAL_NANOS_PER_PUT = 1146 + SERIAL_NANOS_PER_PUT + 1060 + 484;

  /** Share of the cores the measured runs kept busy (threads that park and wake leave some idle). */
  static final double USABLE_CORES = 0.87;

  /** A shard count is enough when its projected throughput is within this of the best. */
  static final double NEAR_BEST = 0.05;

  /** Most shards the default gives: the model's projections go up to 16 shards and no further. */
  static final int MAX_DEFAULT_SHARDS = 16;

  /**
   * The shard count the scaling model (docs/benchmarks/SCALING.md) gives for {@code cores} cores:
   * the fewest shards whose async-put throughput is within 5 % of the best, i.e. enough shards that
   * their serial worker roles ({@code shards / SERIAL_NANOS_PER_PUT}) keep up with what the cores
   * can feed them ({@code USABLE_CORES x cores / TOTAL_NANOS_PER_PUT}): 1 shard up to 3 cores, 2 at
   * 4, 3 at 8, 5 at 16, 9 at 32, at most 16. No more than that: gets run on the callers' threads
   * whatever the count, a scan over hash partitions seeks every shard, and sync puts, whose small
   * batches leave more cores to the callers, need no more shards than async ones up to 4 cores (the
   * model gives them 1, 1, 1, 3, 6, 11 shards for 1, 2, 4, 8, 16, 32 cores). Only the 1- and 2-core
   * points are measured; the rest is the model's projection.
   *
   * @param cores available cores, at least 1
   * @return shards, 1 to {@link #MAX_DEFAULT_SHARDS}
   */
  public static int defaultShards(int cores) {
    if (cores < 1) {
      throw new IllegalArgumentException("cores must be >= 1: " + cores);
    }
    double needed = (1 - NEAR_BEST) * USABLE_CORES * cores * SERIAL_NANOS_PER_PUT / TOTAL_NANOS_PER_PUT;
    return (int) Math.max(1, Math.min(MAX_DEFAULT_SHARDS, Math.ceil(needed - 1e-9)));
  }
}
