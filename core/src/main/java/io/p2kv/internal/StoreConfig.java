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
   * The shard count of a new store when none is given: one worker per two cores, at least 1 and at
   * most 8 (the paper's default on its 44-core machine). p2KVS gives each worker a core of its own
   * and leaves the others to callers and RocksDB's background threads; on the 2-core reference
   * machine 1 shard measured faster than 2 for sync and async puts with 16 callers (see
   * docs/benchmarks/RESULTS.md).
   *
   * @return shards
   */
  public static int defaultShards() {
    return Math.max(1, Math.min(8, Runtime.getRuntime().availableProcessors() / 2));
  }
}
