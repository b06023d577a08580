package io.p2kv.internal;

import io.p2kv.IdleMode;
import io.p2kv.QueueFullPolicy;

/**
 * The options one shard needs, resolved from the store's {@link StoreConfig}.
 *
 * @param queueCapacity request queue capacity (rounded up to a power of two by the queue)
 * @param queueFullPolicy what callers do on a full queue
 * @param idleMode worker idle strategy
 * @param yieldWaitNanos how long an idle worker polls, yielding, before it parks
 * @param maxBatch max operations per engine call
 * @param maxBatchBytes max payload bytes per write batch
 */
record ShardConfig(
    int queueCapacity,
    QueueFullPolicy queueFullPolicy,
    IdleMode idleMode,
    long yieldWaitNanos,
    int maxBatch,
    long maxBatchBytes) {

  static ShardConfig of(StoreConfig config) {
    return new ShardConfig(
        config.queueCapacity(),
        config.queueFullPolicy(),
        config.idleMode(),
        config.yieldWaitNanos(),
        config.maxBatch(),
        config.maxBatchBytes());
  }
}
