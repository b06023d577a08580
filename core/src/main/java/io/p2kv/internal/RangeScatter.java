package io.p2kv.internal;

import io.p2kv.KeyValue;
import io.p2kv.P2kvException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Ordered reads on the shard workers (p2KVS section 4.4, sub-RANGE operations): one {@link
 * Request.ScanPart} per shard the range touches, read by the workers in parallel, each from its
 * own engine iterator, and merged in key order by {@link KWayMerge}. Used for whole ranges, where
 * each worker reads exactly its part, and for every async ordered read.
 */
final class RangeScatter {
  private final ShardSet shards;
  private final RequestDispatcher dispatcher;

  RangeScatter(ShardSet shards, RequestDispatcher dispatcher) {
    this.shards = shards;
    this.dispatcher = dispatcher;
  }

  /** Every pair of {@code [lower, upper)}, read by the workers, merged on the caller's thread. */
  List<KeyValue> readAll(byte[] lower, byte[] upper) {
    Shard[] targets = shards.forRange(lower, upper);
    List<Request.ScanPart> parts = new ArrayList<>(targets.length);
    for (int i = 0; i < targets.length; i++) {
      parts.add(new Request.ScanPart(lower, upper, Integer.MAX_VALUE, i, null));
    }
    dispatcher.submitParts(parts, i -> targets[i]);
    for (Request.ScanPart part : parts) {
      dispatcher.await(part);
    }
    List<List<KeyValue>> runs = new ArrayList<>(parts.size());
    for (Request.ScanPart part : parts) {
      runs.add(part.pairs());
    }
    return KWayMerge.merge(runs, Integer.MAX_VALUE);
  }

  /**
   * Up to {@code limit} pairs of {@code [lower, upper)}, read by the workers; merged on the worker
   * that completes last.
   */
  CompletableFuture<List<KeyValue>> readAsync(byte[] lower, byte[] upper, int limit) {
    CompletableFuture<List<KeyValue>> f = new CompletableFuture<>();
    Shard[] targets = shards.forRange(lower, upper);
    Parts parts = new Parts(targets.length, limit, f);
    try {
      for (int i = 0; i < targets.length; i++) {
        targets[i].submit(new Request.ScanPart(lower, upper, limit, i, parts));
      }
    } catch (P2kvException e) {
      f.completeExceptionally(e);
    }
    return f;
  }

  /** Collects the sorted per-shard parts of an async ordered read and merges them. */
  private static final class Parts implements Request.Listener {
    private final List<List<KeyValue>> runs;
    private final int limit;
    private final CompletableFuture<List<KeyValue>> future;
    private final AtomicInteger remaining;

    Parts(int parts, int limit, CompletableFuture<List<KeyValue>> future) {
      this.runs = new ArrayList<>(Collections.nCopies(parts, List.<KeyValue>of()));
      this.limit = limit;
      this.future = future;
      this.remaining = new AtomicInteger(parts);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void onComplete(Request request, Object result, Throwable error) {
      if (error != null) {
        future.completeExceptionally(error);
      } else {
        runs.set(((Request.ScanPart) request).part, (List<KeyValue>) result);
      }
      // The decrement orders every part's write to runs before the last part's merge.
      if (remaining.decrementAndGet() == 0 && !future.isDone()) {
        future.complete(KWayMerge.merge(runs, limit));
      }
    }
  }
}
