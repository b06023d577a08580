package io.p2kv.internal;

import io.p2kv.OperationType;
import io.p2kv.P2kvException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One multiGet split by shard, and its values gathered back in the caller's key order. On the
 * worker path each shard's keys are sent as parts of at most {@code maxBatch} keys, which the
 * workers merge into their read runs; as the parts' {@link Request.Listener} an async multiGet
 * completes its future when the last part completes.
 */
final class MultiGetScatter implements Request.Listener {
  private final ShardSet shards;
  private final byte[][] values;
  /** For each shard, the positions of its keys in the caller's list. */
  private final int[][] positions;
  private final List<List<byte[]>> shardKeys;
  /** Worker path: the shard and first key index of each part. */
  private int[] shardOfPart;
  private int[] fromOfPart;
  // Async only.
  private FutureListener<List<byte[]>> future;
  private RequestDispatcher dispatcher;
  private long startNanos;
  private final AtomicInteger remaining = new AtomicInteger();

  MultiGetScatter(ShardSet shards, List<byte[]> keys) {
    this.shards = shards;
    this.values = new byte[keys.size()][];
    int n = shards.count();
    int[] counts = new int[n];
    int[] shardOf = new int[keys.size()];
    for (int i = 0; i < keys.size(); i++) {
      shardOf[i] = shards.indexOf(keys.get(i));
      counts[shardOf[i]]++;
    }
    positions = new int[n][];
    shardKeys = new ArrayList<>(n);
    for (int s = 0; s < n; s++) {
      positions[s] = new int[counts[s]];
      shardKeys.add(new ArrayList<>(counts[s]));
    }
    int[] fill = new int[n];
    for (int i = 0; i < keys.size(); i++) {
      int s = shardOf[i];
      positions[s][fill[s]++] = i;
      shardKeys.get(s).add(keys.get(i));
    }
  }

  /** The keys of one shard, in the caller's order. */
  List<byte[]> keysOf(int shard) {
    return shardKeys.get(shard);
  }

  /** Places the values read for keys {@code from...} of one shard. */
  void place(int shard, int from, List<byte[]> partValues) {
    int[] pos = positions[shard];
    for (int j = 0; j < partValues.size(); j++) {
      values[pos[from + j]] = partValues.get(j);
    }
  }

  /** The values gathered, as a new mutable list in the caller's key order. */
  List<byte[]> values() {
    return new ArrayList<>(Arrays.asList(values));
  }

  /** Sync multiGet on the workers: submits every part, waits for all, gathers. */
  List<byte[]> readOnWorkers(int maxBatch, RequestDispatcher dispatcher) {
    RequestDispatcher.checkNotWorkerThread();
    long start = dispatcher.startNanos();
    List<Request.MultiGetPart> parts = parts(maxBatch, null);
    dispatcher.submitParts(parts, i -> shards.get(shardOfPart[i]));
    for (Request.MultiGetPart part : parts) {
      dispatcher.await(part);
    }
    for (Request.MultiGetPart part : parts) {
      place(shardOfPart[part.part], fromOfPart[part.part], part.values());
    }
    dispatcher.record(OperationType.MULTI_GET, start);
    return values();
  }

  /** Async multiGet on the workers: the future completes when the last part does. */
  FutureListener<List<byte[]>> readOnWorkersAsync(int maxBatch, RequestDispatcher dispatcher) {
    this.future = new FutureListener<>();
    this.dispatcher = dispatcher;
    this.startNanos = dispatcher.startNanos();
    List<Request.MultiGetPart> parts = parts(maxBatch, this);
    remaining.set(parts.size());
    try {
      for (Request.MultiGetPart part : parts) {
        shards.get(shardOfPart[part.part]).submit(part);
      }
    } catch (P2kvException e) {
      future.completeExceptionally(e);
    }
    return future;
  }

  /** One part per shard and chunk of at most maxBatch keys, numbered in order. */
  private List<Request.MultiGetPart> parts(int maxBatch, Request.Listener listener) {
    int count = 0;
    for (List<byte[]> ks : shardKeys) {
      count += (ks.size() + maxBatch - 1) / maxBatch;
    }
    shardOfPart = new int[count];
    fromOfPart = new int[count];
    List<Request.MultiGetPart> parts = new ArrayList<>(count);
    for (int s = 0; s < shardKeys.size(); s++) {
      List<byte[]> ks = shardKeys.get(s);
      for (int from = 0; from < ks.size(); from += maxBatch) {
        int part = parts.size();
        shardOfPart[part] = s;
        fromOfPart[part] = from;
        parts.add(new Request.MultiGetPart(ks.subList(from, Math.min(ks.size(), from + maxBatch)), part, listener));
      }
    }
    return parts;
  }

  @Override
  @SuppressWarnings("unchecked")
  public void onComplete(Request request, Object result, Throwable error) {
    int part = ((Request.MultiGetPart) request).part;
    if (error == null) {
      place(shardOfPart[part], fromOfPart[part], (List<byte[]>) result);
    } else {
      future.completeExceptionally(error);
    }
    // The decrement orders every part's placement before the last part's completion.
    if (remaining.decrementAndGet() == 0 && !future.isDone()) {
      dispatcher.record(OperationType.MULTI_GET, startNanos);
      future.complete(values());
    }
  }
}
