package io.p2kv.internal;

import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Thread-safe: per shard, {@value #STRIPES} version counters ("stripes"; a key's stripe is a
 * function of its hash, {@link ValueCache.Key#stripe}) that tell a reader on another thread whether
 * the shard wrote a key since the reader looked. Only the shard's worker writes them, through its
 * {@link ShardWriter}, around every engine write of user keys:
 *
 * <ol>
 *   <li>{@link #begin}: the stripe of every key the write changes becomes odd (a volatile write
 *       each, then a full fence), before the engine write;
 *   <li>the engine write;
 *   <li>{@link #end}: the stripes become even again, 2 higher, before the write's requests
 *       complete.
 * </ol>
 *
 * A reader takes a key's version ({@link #stamp}) before it reads the key from the engine. If the
 * version was even and is still the same later, no write of the key began in between, and none was
 * in progress when the reader read, so the value it read is the key's committed value at that
 * later point. The value cache fills on this check ({@link ValueCache#fill}); an update uses a value
 * its caller read ahead when the worker finds the check holds ({@link ShardWorker}, "Updates").
 * Versions only grow, so an equal version is never a different write.
 *
 * <p>A range delete does not know its keys: it brackets its engine write with {@link #beginAll} and
 * {@link #endAll}, which do the same to every stripe of the shard.
 */
final class StripeVersions {
  /** Stripe versions per shard: a power of two. */
  static final int STRIPES = 1024;

  private final AtomicLongArray[] versions;

  StripeVersions(int shards) {
    versions = new AtomicLongArray[shards];
    for (int i = 0; i < shards; i++) {
      versions[i] = new AtomicLongArray(STRIPES);
    }
  }

  /**
   * A stripe's version now; odd while a write of the stripe is in progress.
   *
   * @param shard the key's shard
   * @param stripe the key's stripe
   */
  long stamp(int shard, int stripe) {
    return versions[shard].get(stripe);
  }

  /** Step 1: the stripes of {@code keys} become odd. Only the shard's worker calls this. */
  void begin(int shard, List<ValueCache.Key> keys) {
    AtomicLongArray v = versions[shard];
    for (int i = 0; i < keys.size(); i++) {
      int stripe = keys.get(i).stripe();
      makeOdd(v, stripe);
    }
    VarHandle.fullFence();
  }

  /** Step 1 for a write of unknown keys (a range delete): every stripe of the shard becomes odd. */
  void beginAll(int shard) {
    AtomicLongArray v = versions[shard];
    for (int stripe = 0; stripe < STRIPES; stripe++) {
      makeOdd(v, stripe);
    }
    VarHandle.fullFence();
  }

  /** Step 3 after {@link #beginAll}: every stripe of the shard becomes even again. */
  void endAll(int shard) {
    AtomicLongArray v = versions[shard];
    for (int stripe = 0; stripe < STRIPES; stripe++) {
      makeEven(v, stripe);
    }
  }

  /** Step 3: the stripes of {@code keys} become even again. Only the shard's worker calls this. */
  void end(int shard, List<ValueCache.Key> keys) {
    AtomicLongArray v = versions[shard];
    for (int i = 0; i < keys.size(); i++) {
      int stripe = keys.get(i).stripe();
      makeEven(v, stripe);
    }
  }

  private static void makeOdd(AtomicLongArray v, int stripe) {
    long s = v.get(stripe);
    if ((s & 1) == 0) {
      v.set(stripe, s + 1);
    }
  }

  private static void makeEven(AtomicLongArray v, int stripe) {
    long s = v.get(stripe);
    if ((s & 1) != 0) {
      v.set(stripe, s + 1);
    }
  }
}
