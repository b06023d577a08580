package io.p2kv.internal;

import io.p2kv.OperationType;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * Point reads on the shard workers: each get is queued, and a worker merges consecutive reads into
 * one engine multiGet (p2KVS's read batching), at the price of a hand-off per read.
 */
final class WorkerPointReads implements PointReads {
  private final ShardSet shards;
  private final RequestDispatcher dispatcher;
  private final int maxBatch;

  WorkerPointReads(ShardSet shards, RequestDispatcher dispatcher, int maxBatch) {
    this.shards = shards;
    this.dispatcher = dispatcher;
    this.maxBatch = maxBatch;
  }

  @Override
  public byte[] get(byte[] key) {
    return (byte[]) dispatcher.call(shards.of(key), new Request.Get(key, null), OperationType.GET);
  }

  @Override
  public CompletableFuture<byte[]> getAsync(byte[] key) {
    FutureListener<byte[]> f = new FutureListener<>();
    return dispatcher.submitAsync(shards.of(key), new Request.Get(key, f), f);
  }

  @Override
  public void getAsync(byte[] key, BiConsumer<? super byte[], ? super Throwable> callback) {
    dispatcher.submitCallback(shards.of(key), new Request.Get(key, new CallbackListener(callback)), callback);
  }

  @Override
  public List<byte[]> multiGet(List<byte[]> keys) {
    return new MultiGetScatter(shards, keys).readOnWorkers(maxBatch, dispatcher);
  }

  @Override
  public CompletableFuture<List<byte[]>> multiGetAsync(List<byte[]> keys) {
    return new MultiGetScatter(shards, keys).readOnWorkersAsync(maxBatch, dispatcher);
  }
}
