package io.p2kv.internal;

import io.p2kv.OperationType;
import io.p2kv.P2kvException;
import io.p2kv.internal.metrics.LatencyRecorder;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.IntFunction;

/**
 * Hands requests to shards and, for sync callers, waits for them: the one place that knows how a
 * blocking call waits ({@link Completion#await}), that it is refused on a worker thread, and how
 * latencies are recorded.
 *
 * <h2>Latency</h2>
 * With latency recording on, sync calls record their own latency on the caller's thread when they
 * return; async calls stamp their request with the start time and the worker records it when it
 * completes the request (direct reads, which complete on the caller, record at once). Cross-shard
 * batches and multiGets record when their last part completes.
 */
final class RequestDispatcher {
  private final long yieldWaitNanos;
  /** Null when latency recording is off. */
  private final LatencyRecorder latency;

  RequestDispatcher(long yieldWaitNanos, LatencyRecorder latency) {
    this.yieldWaitNanos = yieldWaitNanos;
    this.latency = latency;
  }

  /**
   * Refuses a blocking call in a shard worker's role (a worker thread, or a caller running a
   * worker's duty cycle: a callback or update function it runs), where it would wait for itself.
   *
   * @throws IllegalStateException in a worker role
   */
  static void checkNotWorkerThread() {
    if (ShardWorker.inWorkerRole()) {
      throw new IllegalStateException(
          "blocking p2kv call on a shard worker thread (from a callback or future stage?) would deadlock;"
              + " use the async methods or a *Async stage with your own executor");
    }
  }

  /** Submits a sync request, waits for it and returns its result or throws its failure. */
  Object call(Shard shard, Request r, OperationType type) {
    checkNotWorkerThread();
    long start = startNanos();
    if (VirtualThreads.isVirtual(Thread.currentThread())) {
      shard.callVirtual(r);
    } else {
      shard.submitSync(r);
      shard.awaitSync(r, yieldWaitNanos); // at once if this thread executed it; wakes its tree children
    }
    Object result = r.resultOrThrow();
    record(type, start);
    return result;
  }

  /** Waits for a request already submitted (a part of a multi-shard sync call). */
  void await(Completion r) {
    r.await(yieldNanos());
  }

  /**
   * Queues the parts of a multi-shard sync call, part i on {@code shardOf.apply(i)}, in order. If
   * one cannot be queued (a full queue in fail-fast mode, a closed or failed store), waits for the
   * parts already queued, then rethrows: a queued sync part can share a run's wake-up tree with
   * other callers' requests, and only its own caller's wait wakes those ({@link Completion}), so
   * a part left unwaited could leave other callers parked for good.
   *
   * @param parts the parts, sync requests (no listener)
   * @param shardOf the shard of part i
   */
  <R extends Request> void submitParts(List<R> parts, IntFunction<Shard> shardOf) {
    for (int i = 0; i < parts.size(); i++) {
      try {
        shardOf.apply(i).submit(parts.get(i));
      } catch (RuntimeException e) {
        for (int j = 0; j < i; j++) {
          await(parts.get(j));
        }
        throw e;
      }
    }
  }

  /**
   * How long the calling thread polls, yielding, before it parks: {@code yieldWaitNanos} for a
   * platform thread, 0 for a virtual thread. A virtual thread's yield only lets the other virtual
   * threads of its carrier run, so hundreds of waiting callers polling in turn keep the carriers
   * busy and take the CPU from the shard worker they wait for; parked, a virtual thread costs
   * nothing, and waking it is a task submitted to its scheduler, not a system call
   * (docs/benchmarks/WRITE-PATH.md measures it).
   */
  private long yieldNanos() {
    return yieldWaitNanos == 0 || VirtualThreads.isVirtual(Thread.currentThread()) ? 0 : yieldWaitNanos;
  }

  /** Submits an async request; a failure to enqueue completes the future. */
  <T> CompletableFuture<T> submitAsync(Shard shard, Request r, FutureListener<T> f) {
    try {
      shard.submit(stamped(r));
    } catch (P2kvException e) {
      f.completeExceptionally(e);
    }
    return f;
  }

  /** Submits a request with a callback; a failure to enqueue is passed to the callback. */
  void submitCallback(Shard shard, Request r, BiConsumer<?, ? super Throwable> callback) {
    try {
      shard.submit(stamped(r));
    } catch (P2kvException e) {
      CallbackListener.call(callback, null, e);
    }
  }

  private Request stamped(Request r) {
    if (latency != null) {
      r.startNanos = System.nanoTime();
    }
    return r;
  }

  /**
   * The start time of an operation whose latency is recorded, or 0 when recording is off.
   *
   * @return {@link System#nanoTime()} or 0
   */
  long startNanos() {
    return latency == null ? 0 : System.nanoTime();
  }

  /** Records an operation started at {@code startNanos} (0: not recorded). */
  void record(OperationType type, long startNanos) {
    if (startNanos != 0) {
      latency.record(type, startNanos);
    }
  }
}
