package io.p2kv.internal;

import io.p2kv.OperationType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * Point reads through the store's {@link ValueCache}: a hit is answered on the caller's thread;
 * a miss takes the key's stripe version, reads through the store's read path (direct or on the
 * workers), and fills the cache with what it read unless a write to the stripe began meanwhile.
 */
final class CachedPointReads implements PointReads {
  private final PointReads reads;
  private final ValueCache cache;
  private final ShardSet shards;
  private final StoreState state;
  private final RequestDispatcher dispatcher;

  CachedPointReads(PointReads reads, ValueCache cache, ShardSet shards, StoreState state, RequestDispatcher dispatcher) {
    this.reads = reads;
    this.cache = cache;
    this.shards = shards;
    this.state = state;
    this.dispatcher = dispatcher;
  }

  @Override
  public byte[] get(byte[] key) {
    long start = dispatcher.startNanos();
    state.checkOpen();
    ValueCache.Key k = new ValueCache.Key(key);
    Object hit = cache.lookup(k);
    if (hit != ValueCache.MISS) {
      dispatcher.record(OperationType.GET, start);
      return (byte[]) hit;
    }
    int shard = shards.indexOf(key);
    long stamp = cache.stamp(shard, k);
    byte[] value = reads.get(key);
    cache.fill(shard, k, stamp, value);
    return value;
  }

  @Override
  public CompletableFuture<byte[]> getAsync(byte[] key) {
    long start = dispatcher.startNanos();
    if (!state.isOpen()) {
      return CompletableFuture.failedFuture(state.notOpen());
    }
    ValueCache.Key k = new ValueCache.Key(key);
    Object hit = cache.lookup(k);
    if (hit != ValueCache.MISS) {
      dispatcher.record(OperationType.GET, start);
      return CompletableFuture.completedFuture((byte[]) hit);
    }
    int shard = shards.indexOf(key);
    long stamp = cache.stamp(shard, k);
    return reads.getAsync(key).thenApply(value -> {
      cache.fill(shard, k, stamp, value);
      return value;
    });
  }

  @Override
  public void getAsync(byte[] key, BiConsumer<? super byte[], ? super Throwable> callback) {
    long start = dispatcher.startNanos();
    if (!state.isOpen()) {
      callback.accept(null, state.notOpen());
      return;
    }
    ValueCache.Key k = new ValueCache.Key(key);
    Object hit = cache.lookup(k);
    if (hit != ValueCache.MISS) {
      dispatcher.record(OperationType.GET, start);
      callback.accept((byte[]) hit, null);
      return;
    }
    int shard = shards.indexOf(key);
    long stamp = cache.stamp(shard, k);
    reads.getAsync(key, (value, error) -> {
      if (error == null) {
        cache.fill(shard, k, stamp, value);
      }
      callback.accept(value, error);
    });
  }

  @Override
  public List<byte[]> multiGet(List<byte[]> keys) {
    long start = dispatcher.startNanos();
    state.checkOpen();
    Lookup lookup = new Lookup(keys);
    if (lookup.missing.isEmpty()) {
      dispatcher.record(OperationType.MULTI_GET, start);
      return lookup.values;
    }
    return lookup.complete(reads.multiGet(lookup.missing));
  }

  @Override
  public CompletableFuture<List<byte[]>> multiGetAsync(List<byte[]> keys) {
    if (!state.isOpen()) {
      return CompletableFuture.failedFuture(state.notOpen());
    }
    long start = dispatcher.startNanos();
    Lookup lookup = new Lookup(keys);
    if (lookup.missing.isEmpty()) {
      dispatcher.record(OperationType.MULTI_GET, start);
      return CompletableFuture.completedFuture(lookup.values);
    }
    return reads.multiGetAsync(lookup.missing).thenApply(lookup::complete);
  }

  /** One multiGet's hits, and the stamps of its misses, taken before the misses are read. */
  private final class Lookup {
    final List<byte[]> values;
    final List<byte[]> missing = new ArrayList<>();
    private int[] at;
    private ValueCache.Key[] missingKeys;
    private long[] stamps;
    private int[] shardOf;

    Lookup(List<byte[]> keys) {
      values = new ArrayList<>(Arrays.asList(new byte[keys.size()][]));
      for (int i = 0; i < keys.size(); i++) {
        ValueCache.Key k = new ValueCache.Key(keys.get(i));
        Object hit = cache.lookup(k);
        if (hit != ValueCache.MISS) {
          values.set(i, (byte[]) hit);
          continue;
        }
        if (at == null) {
          int n = keys.size();
          at = new int[n];
          missingKeys = new ValueCache.Key[n];
          stamps = new long[n];
          shardOf = new int[n];
        }
        int m = missing.size();
        at[m] = i;
        missingKeys[m] = k;
        shardOf[m] = shards.indexOf(k.bytes);
        stamps[m] = cache.stamp(shardOf[m], k);
        missing.add(k.bytes);
      }
    }

    /** Places and caches what the misses read. */
    List<byte[]> complete(List<byte[]> read) {
      for (int m = 0; m < read.size(); m++) {
        byte[] value = read.get(m);
        cache.fill(shardOf[m], missingKeys[m], stamps[m], value);
        values.set(at[m], value);
      }
      return values;
    }
  }
}
