package io.p2kv.internal;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;

/**
 * Where point reads run, chosen once when the store opens ({@link io.p2kv.ReadPath}): on the
 * caller's thread ({@link DirectPointReads}) or on the shard workers ({@link WorkerPointReads}).
 * Keys are already validated; the store is checked by the shard.
 */
interface PointReads {
  /** Sync get: the value, or null if absent. */
  byte[] get(byte[] key);

  /** Async get. */
  CompletableFuture<byte[]> getAsync(byte[] key);

  /** Get with a callback, called once with (value-or-null, error-or-null). */
  void getAsync(byte[] key, BiConsumer<? super byte[], ? super Throwable> callback);

  /** Sync multiGet of at least one key: a new mutable list of values in key order, null where absent. */
  List<byte[]> multiGet(List<byte[]> keys);

  /** Async multiGet of at least one key. */
  CompletableFuture<List<byte[]>> multiGetAsync(List<byte[]> keys);
}
