package io.p2kv.internal;

import io.p2kv.P2kvException;
import io.p2kv.internal.engine.Engine;

/**
 * Thread-safe: reads an update's key on the caller's thread before the update is queued, so that
 * the shard worker, which applies every update of its shard, need not read the keys itself (see
 * {@link ShardWorker}, "Updates"). The caller takes the key's stripe version ({@link
 * StripeVersions}) first, then reads the key, through the value cache if the store has one, exactly
 * as a direct get does; the worker uses the value only if the version is still the same and no
 * earlier request of its run wrote the key, and reads the key itself otherwise. A pre-read is an
 * optimisation only: when the stripe is being written, or the read fails, the update goes without
 * one, and the worker reads (and fails the update if the store cannot serve it).
 */
final class UpdatePreReads {
  private final ShardSet shards;
  private final StripeVersions versions;
  /** Null when the store caches no values. */
  private final ValueCache cache;

  UpdatePreReads(ShardSet shards, StripeVersions versions, ValueCache cache) {
    this.shards = shards;
    this.versions = versions;
    this.cache = cache;
  }

  /**
   * Attaches the key's current value and its stamp to {@code u}, or nothing.
   *
   * @return {@code u}
   */
  Request.Update preRead(Request.Update u) {
    int shard = shards.indexOf(u.key);
    ValueCache.Key k = new ValueCache.Key(u.key);
    int stripe = k.stripe();
    long stamp = versions.stamp(shard, stripe);
    if ((stamp & 1) != 0) {
      return u; // a write of the stripe is in progress: the worker reads
    }
    try {
      Object hit = cache == null ? ValueCache.MISS : cache.lookup(k);
      byte[] value;
      if (hit != ValueCache.MISS) {
        value = (byte[]) hit;
      } else {
        value = shards.get(shard).directRead(Engine::get, u.key, 1);
        if (cache != null) {
          cache.fill(shard, k, stamp, value);
        }
      }
      u.preRead(value, stripe, stamp);
    } catch (P2kvException e) {
      // The store is closing or the shard failed: the worker reads, or fails the request.
    }
    return u;
  }
}
