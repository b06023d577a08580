package io.p2kv.internal;

/**
 * The counters of one shard worker, named as in {@link io.p2kv.ShardStats} (and so in JMX), which
 * documents each. Single writer: only the worker thread (or, in tests, the thread stepping it)
 * writes them, once per run; any thread reads them. Plain volatile fields, no atomics.
 */
final class WorkerCounters {
  volatile long puts;
  volatile long deletes;
  volatile long batches;
  volatile long crossShardParts;
  volatile long writeCalls;
  volatile long writeOps;
  volatile long maxWriteBatch;
  volatile long userBytesWritten;
  volatile long workerReads;
  volatile long readCalls;
  volatile long maxReadBatch;
  volatile long failedRequests;
  volatile long updates;
  volatile long updateNanos;
  volatile long maxUpdateNanos;
  volatile long preReadUpdates;

  /** One engine write call of {@code ops} operations and {@code bytes} payload bytes. */
  void wrote(int ops, long bytes, boolean failed) {
    writeCalls++;
    writeOps += ops;
    if (ops > maxWriteBatch) {
      maxWriteBatch = ops;
    }
    if (!failed) {
      userBytesWritten += bytes;
    }
  }

  /**
   * One ingested table file of a bulk load: a write call of {@code ops} operations, not counted
   * as a write batch (its size says nothing of the worker's batching).
   */
  void loaded(int ops, long bytes, boolean failed) {
    writeCalls++;
    writeOps += ops;
    if (!failed) {
      userBytesWritten += bytes;
    }
  }

  /** One engine read call of {@code keys} keys. */
  void read(int keys) {
    readCalls++;
    workerReads += keys;
    if (keys > maxReadBatch) {
      maxReadBatch = keys;
    }
  }

  /**
   * The update functions of one run: how many ran, their total and their longest time, and how
   * many updates used their caller's read.
   */
  void updated(int count, long nanos, long maxNanos, int preRead) {
    updates += count;
    preReadUpdates += preRead;
    updateNanos += nanos;
    if (maxNanos > maxUpdateNanos) {
      maxUpdateNanos = maxNanos;
    }
  }

  void failed(int requests) {
    if (requests > 0) {
      failedRequests += requests;
    }
  }
}
