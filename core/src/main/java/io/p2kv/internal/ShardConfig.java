package io.p2kv.internal;

import io.p2kv.Durability;
import io.p2kv.IdleMode;
import io.p2kv.QueueFullPolicy;

/**
 * The options one shard needs, resolved from the store's {@link StoreConfig}.
 *
 * @param queueCapacity request queue capacity (rounded up to a power of two by the queue)
 * @param queueFullPolicy what callers do on a full queue
 * @param idleMode worker idle strategy
 * @param yieldWaitNanos how long an idle worker polls, yielding, before it parks
 * @param maxBatch max operations per read run (multiGet)
 * @param maxWriteBatch max operations per write run (engine batch): {@code maxBatch}, or with
 *     durability SYNC the store's {@code maxDurableBatch}
 * @param maxWriteBatchBytes max payload bytes per write run: {@code maxBatchBytes}, or with
 *     durability SYNC {@code maxDurableBatchBytes}
 * @param groupCommit whether every engine write is fsynced (durability SYNC), so that a write run
 *     waits a little for the writers of the last runs to come back ({@link GroupCommit})
 */
record ShardConfig(
    int queueCapacity,
    QueueFullPolicy queueFullPolicy,
    IdleMode idleMode,
    long yieldWaitNanos,
    int maxBatch,
    int maxWriteBatch,
    long maxWriteBatchBytes,
    boolean groupCommit) {

  /** Options with the same caps for reads and writes and no group commit (tests). */
  ShardConfig(
      int queueCapacity, QueueFullPolicy queueFullPolicy, IdleMode idleMode, long yieldWaitNanos, int maxBatch,
      long maxBatchBytes) {
    this(queueCapacity, queueFullPolicy, idleMode, yieldWaitNanos, maxBatch, maxBatch, maxBatchBytes, false);
  }

  static ShardConfig of(StoreConfig config) {
    boolean durable = config.durability() == Durability.SYNC;
    return new ShardConfig(
        config.queueCapacity(),
        config.queueFullPolicy(),
        config.idleMode(),
        config.yieldWaitNanos(),
        config.maxBatch(),
        durable ? config.maxDurableBatch() : config.maxBatch(),
        durable ? config.maxDurableBatchBytes() : config.maxBatchBytes(),
        durable);
  }
}
