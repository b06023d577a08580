package io.p2kv.internal;

import io.p2kv.OperationType;
import io.p2kv.P2kvException;
import io.p2kv.internal.engine.Engine;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * Point reads on the caller's thread, straight from the shard's engine inside its reader guard
 * ({@link Shard#direct}): no hand-off, so a get costs what the engine's get costs plus routing.
 * Async variants complete before they return.
 */
final class DirectPointReads implements PointReads {
  private final ShardSet shards;
  private final RequestDispatcher dispatcher;

  DirectPointReads(ShardSet shards, RequestDispatcher dispatcher) {
    this.shards = shards;
    this.dispatcher = dispatcher;
  }

  @Override
  public byte[] get(byte[] key) {
    long start = dispatcher.startNanos();
    byte[] value = shards.of(key).directRead(Engine::get, key, 1);
    dispatcher.record(OperationType.GET, start);
    return value;
  }

  @Override
  public CompletableFuture<byte[]> getAsync(byte[] key) {
    try {
      return CompletableFuture.completedFuture(get(key));
    } catch (P2kvException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @Override
  public void getAsync(byte[] key, BiConsumer<? super byte[], ? super Throwable> callback) {
    byte[] value;
    try {
      value = get(key);
    } catch (P2kvException e) {
      callback.accept(null, e);
      return;
    }
    callback.accept(value, null);
  }

  @Override
  public List<byte[]> multiGet(List<byte[]> keys) {
    long start = dispatcher.startNanos();
    MultiGetScatter scatter = new MultiGetScatter(shards, keys);
    for (int s = 0; s < shards.count(); s++) {
      List<byte[]> ks = scatter.keysOf(s);
      if (!ks.isEmpty()) {
        scatter.place(s, 0, shards.get(s).directRead(Engine::multiGet, ks, ks.size()));
      }
    }
    dispatcher.record(OperationType.MULTI_GET, start);
    return scatter.values();
  }

  @Override
  public CompletableFuture<List<byte[]>> multiGetAsync(List<byte[]> keys) {
    try {
      return CompletableFuture.completedFuture(multiGet(keys));
    } catch (P2kvException e) {
      return CompletableFuture.failedFuture(e);
    }
  }
}
