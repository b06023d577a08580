package io.p2kv.internal;

import io.p2kv.P2kvException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Range deletes ({@code P2kv.deleteRange}): one {@link Request.RangeDeletePart} per shard whose keys
 * may fall in the range (every shard under hash partitioning, the overlapping ones under range
 * partitioning), each executed alone by its worker as one engine range delete, in queue order with
 * the shard's other requests.
 *
 * <p>The parts are enqueued under the cross-shard lock ({@link CrossShardCoordinator#startOrdered}),
 * so on every shard each cross-shard batch and each consistent cut is ahead of all of them or
 * behind all of them: a snapshot, checkpoint or backup holds a range delete on every shard or on
 * none, and a cross-shard batch is either wholly deleted by it or wholly after it. Shards execute
 * their parts independently: a live reader may see the range deleted on one shard and not yet on
 * another, and a part that fails (an engine error) leaves the others applied; the call then throws,
 * and since a range delete is idempotent, repeating it finishes the job.
 */
final class RangeDeletes {
  private final ShardSet shards;
  private final StoreState state;
  private final CrossShardCoordinator coordinator;
  private final RequestDispatcher dispatcher;

  RangeDeletes(ShardSet shards, StoreState state, CrossShardCoordinator coordinator, RequestDispatcher dispatcher) {
    this.shards = shards;
    this.state = state;
    this.coordinator = coordinator;
    this.dispatcher = dispatcher;
  }

  /** Deletes {@code [from, to)} on every shard it may touch and waits for all of them. */
  void deleteRange(byte[] from, byte[] to) {
    RequestDispatcher.checkNotWorkerThread();
    Shard[] targets = shards.forRange(from, to);
    if (targets.length == 0) {
      state.checkOpen();
      return;
    }
    Request.RangeDeletePart[] parts = new Request.RangeDeletePart[targets.length];
    for (int i = 0; i < parts.length; i++) {
      parts[i] = new Request.RangeDeletePart(from, to, null);
    }
    coordinator.startOrdered(targets, parts);
    for (Request.RangeDeletePart part : parts) {
      dispatcher.await(part);
    }
    for (Request.RangeDeletePart part : parts) {
      part.resultOrThrow();
    }
  }

  /** Deletes {@code [from, to)}; the future completes once every part has, with the first failure if any. */
  CompletableFuture<Void> deleteRangeAsync(byte[] from, byte[] to) {
    Shard[] targets = shards.forRange(from, to);
    if (targets.length == 0) {
      return state.completedIfOpen(null);
    }
    CompletableFuture<Void> f = new CompletableFuture<>();
    AllParts all = new AllParts(targets.length, f);
    Request.RangeDeletePart[] parts = new Request.RangeDeletePart[targets.length];
    for (int i = 0; i < parts.length; i++) {
      parts[i] = new Request.RangeDeletePart(from, to, all);
    }
    try {
      coordinator.startOrdered(targets, parts);
    } catch (P2kvException e) {
      f.completeExceptionally(e);
    }
    return f;
  }

  /** Completes a future once every part has completed: normally, or with the first failure. */
  private static final class AllParts implements Request.Listener {
    private final AtomicInteger remaining;
    private final CompletableFuture<Void> future;
    private volatile Throwable firstFailure;

    AllParts(int parts, CompletableFuture<Void> future) {
      this.remaining = new AtomicInteger(parts);
      this.future = future;
    }

    @Override
    public void onComplete(Request request, Object result, Throwable error) {
      if (error != null && firstFailure == null) {
        firstFailure = error; // a race between two failures keeps either: both are real
      }
      // The decrement orders every part's failure before the last part's completion.
      if (remaining.decrementAndGet() == 0) {
        Throwable t = firstFailure;
        if (t == null) {
          future.complete(null);
        } else {
          future.completeExceptionally(t);
        }
      }
    }
  }
}
