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
 * With a {@link ValueCache}, a hit is answered from it, and a miss takes the key's stamp before it
 * reads the engine and fills the cache after. Async variants complete before they return.
 */
final class DirectPointReads implements PointReads {
  private final ShardSet shards;
  private final RequestDispatcher dispatcher;
  /** Null when the store caches no values. */
  private final ValueCache cache;
  private final StoreState state;

  DirectPointReads(ShardSet shards, RequestDispatcher dispatcher, ValueCache cache, StoreState state) {
    this.shards = shards;
    this.dispatcher = dispatcher;
    this.cache = cache;
    this.state = state;
  }

  @Override
  public byte[] get(byte[] key) {
    long start = dispatcher.startNanos();
    byte[] value = cache == null || !cache.consult() ? read(key) : readThroughCache(key);
    dispatcher.record(OperationType.GET, start);
    return value;
  }

  private byte[] read(byte[] key) {
    return shards.of(key).directRead(Engine::get, key, 1);
  }

  private byte[] readThroughCache(byte[] key) {
    state.checkOpen(); // a hit enters no shard, so it checks the store itself
    ValueCache.Key k = new ValueCache.Key(key);
    Object hit = cache.lookup(k);
    if (hit != ValueCache.MISS) {
      return (byte[]) hit;
    }
    int shard = shards.indexOf(key);
    long stamp = cache.stamp(shard, k);
    byte[] value = read(key);
    cache.fill(shard, k, stamp, value);
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
      CallbackListener.call(callback, null, e);
      return;
    }
    CallbackListener.call(callback, value, null);
  }

  @Override
  public List<byte[]> multiGet(List<byte[]> keys) {
    long start = dispatcher.startNanos();
    List<byte[]> values;
    if (cache == null || !cache.consult()) {
      values = readAll(keys);
    } else {
      state.checkOpen();
      ValueCache.Lookup lookup = cache.new Lookup(keys, shards::indexOf);
      values = lookup.missing.isEmpty() ? lookup.values : lookup.complete(readAll(lookup.missing));
    }
    dispatcher.record(OperationType.MULTI_GET, start);
    return values;
  }

  private List<byte[]> readAll(List<byte[]> keys) {
    MultiGetScatter scatter = new MultiGetScatter(shards, keys);
    for (int s = 0; s < shards.count(); s++) {
      List<byte[]> ks = scatter.keysOf(s);
      if (!ks.isEmpty()) {
        scatter.place(s, 0, shards.get(s).directRead(Engine::multiGet, ks, ks.size()));
      }
    }
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
