package io.p2kv.internal;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Policy;
import com.github.benmanes.caffeine.cache.RemovalCause;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.ToIntFunction;

/**
 * The store's on-heap cache of point-read results (values, and absent keys), kept exactly coherent
 * with the shards: a get that starts after a write completed never sees an older value, and a value
 * that was never written is never returned. A Caffeine cache (W-TinyLFU admission, weighed in
 * bytes); the coherence protocol is p2kv's.
 *
 * <h2>Coherence</h2>
 * Only a shard's worker writes the shard, through its {@link ShardWriter}, so the worker is the one
 * writer of every cached key. It brackets each engine write with the shard's {@link
 * StripeVersions}, and the cache adds one step between the engine write and the end:
 *
 * <ol>
 *   <li>Before an engine write, the worker makes the version of every stripe it writes odd
 *       ({@link #beginWrite}, a volatile write and a full fence).
 *   <li>It writes the engine.
 *   <li>It updates each key it wrote that is cached (new value, or absent for a delete), or
 *       removes it ({@link #endWrite}); each under the key's map lock if a fill may be in
 *       progress (see below).
 *   <li>It makes the versions even again, now 2 higher, and only then completes the requests.
 * </ol>
 *
 * A reader that misses takes the key's stripe version ({@link #stamp}) before it reads the engine,
 * and fills the cache only inside {@code compute} on the key, and only if the version is still the
 * one it took and was even ({@link #fill}). If the value it read is older than a write, that write
 * began (step 1) after the stamp; then either the fill's check comes after step 1 and fails, or it
 * comes before, so the fill holds the key's lock before step 3 does, and step 3, which runs before
 * the write completes, replaces the filled entry. Eviction only removes entries, so it cannot make
 * one stale.
 *
 * <p>Step 3 must not miss a fill whose {@code compute} is still running: its check passed before
 * step 1, and its entry is published only when its {@code compute} returns. A look without the
 * key's lock (Caffeine's {@code getIfPresentQuietly}, or the first step of its {@code
 * computeIfPresent}: a {@code ConcurrentHashMap.get}) does not see such an entry, so on its own
 * step 3 would end and let the fill leave the value from before the write once the write had
 * completed. So each fill counts itself in its stripe's slot of {@code filling} before its {@code
 * compute}, and step 3 takes the key's lock ({@code compute}, which waits for the fill) whenever
 * that count is not zero; with no fill in flight, the lock-free look is exact. Why the count cannot be missed: a fill whose check
 * passes counted itself before that check, and the check came before step 1's fence, which comes
 * before step 3 reads the count (all volatile); a fill that has already uncounted itself has
 * published its entry. {@code ValueCacheTest.shouldReplaceAFillStillInsideItsComputeWhenTheWriteEnds}
 * plays this interleaving.
 *
 * <h2>Range deletes</h2>
 * A range delete ({@link ShardWriter#deleteRange}) does not know which keys it deletes, so it runs
 * the same steps over every stripe of its shard and over the cache's whole key set:
 *
 * <ol>
 *   <li>every stripe of the shard becomes odd ({@link StripeVersions#beginAll}, then the fence);
 *   <li>the engine deletes the range;
 *   <li>{@link #endRangeDelete}: for each stripe, wait until its {@code filling} count has been
 *       seen at zero once, then remove every cached key in the range;
 *   <li>every stripe becomes even again, and only then does the request complete.
 * </ol>
 *
 * A fill that could leave a value from before the delete passed its check before step 1 (after it,
 * every stripe of the shard has moved), so it counted itself before that check, before step 1's
 * fence, and step 3 reads its count. A count seen at zero means every fill counted before that read
 * has uncounted itself, so has published its entry, and the removal, which starts after, sees that
 * entry and removes it. A fill checked after step 1 is refused until step 4, and a reader that
 * stamps after step 4 reads the engine after the delete. Fills whose checks pass are short (a
 * {@code compute} on one key), so the wait is as short as step 3's wait for a fill on a single key;
 * the removal costs one pass over the cache per shard the range delete touches.
 *
 * <h2>Overwriting in place</h2>
 * A write of a cached key whose new value has the cached value's length copies the new bytes into
 * the cached array instead of replacing the entry (step 3, with no fill in progress). Replacing it
 * would allocate a new array that the cache's long-lived (old-generation) entry points to: every
 * such array survives the young collections, is promoted, and becomes old-generation garbage at the
 * next write of the key, and the collector's concurrent cycles that follow cost write-heavy mixes on
 * hot keys more than the cache saves (docs/benchmarks/CACHE.md, stop 28). The copy is guarded by
 * the entry's sequence number, a seqlock with one writer (only the key's shard worker writes its
 * entry): the worker makes it odd, copies, makes it even again, all before step 4; a reader copies
 * the array between two reads of the number and keeps the copy only if both are the same even
 * number; otherwise it treats the lookup as a miss and reads the engine (it overlaps the write, so
 * either value is right, and the fill that follows is refused by the odd stripe or finds the entry
 * present). So a reader sees the value from before the write or the one after, never a mix, and
 * one that starts after the write completed sees the new one.
 *
 * <p>Keys and values are copies: a caller can neither change a cached entry nor see one change.
 *
 * <p>Stores that only the worker reads are (cross-shard rollbacks, recovery at open) follow the
 * same steps: a rollback invalidates the part's keys ({@link ShardWriter#invalidate}); recovery runs
 * before the cache exists.
 */
final class ValueCache {
  /** What {@link #lookup} returns on a miss (null is a cached absent key). */
  static final Object MISS = new Object();

  /** A cached value: the bytes and the sequence number that guards overwrites in place. */
  static final class Entry {
    private static final VarHandle SEQ;

    static {
      try {
        SEQ = MethodHandles.lookup().findVarHandle(Entry.class, "seq", int.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    /** Null for an absent key. */
    final byte[] value;
    /** Odd while the shard's worker overwrites {@link #value}; only that worker writes it. */
    private volatile int seq;

    Entry(byte[] value) {
      this.value = value;
    }

    /**
     * A copy of the value, or null if the shard's worker is overwriting it right now (the caller
     * then reads the engine, as on a miss: the read overlaps the write, so either value is right).
     * Never a mix of two writes' bytes. Not for an absent key's entry.
     */
    byte[] copyOrNull() {
      int before = seq;
      if ((before & 1) != 0) {
        return null; // do not spin: the worker may have lost its CPU in the middle of the copy
      }
      byte[] copy = value.clone();
      VarHandle.loadLoadFence(); // the copy's reads come before the second read of seq
      return (int) SEQ.getOpaque(this) == before ? copy : null;
    }

    /** Copies {@code v} (as long as {@link #value}) over the value. The shard's worker only. */
    void overwrite(byte[] v) {
      int s = seq;
      SEQ.setOpaque(this, s + 1);
      VarHandle.storeStoreFence(); // the odd number is visible before any byte changes
      System.arraycopy(v, 0, value, 0, v.length);
      seq = s + 2; // a volatile write: the bytes are visible before the even number
    }
  }

  /** The cached marker of an absent key. */
  private static final Entry ABSENT = new Entry(null);

  /** Bytes an entry costs beyond its key and value: the key wrapper, node and array headers. */
  static final int ENTRY_OVERHEAD = 96;

  /**
   * Once the cache is full, a miss fills it one time in this many (chosen at random). An entry
   * costs more to add than to look up (a copy of the key and value, a map node, and usually an
   * eviction), and a key read once is rarely worth it: a hot key is filled within a few misses,
   * while a uniform read pays the fill only on one miss in 64.
   */
  static final int FILL_ONE_IN = 64;

  /**
   * Once the entries weigh an eighth of the capacity and until the cache is full, a miss fills it
   * one time in this many (below that, every miss fills it). Filling on every miss cost
   * more than the cache saved while it warmed: with skewed keys over far more keys than it holds, a
   * large cache stays "not full" for millions of reads, and each entry added is copied through the
   * young generation and promoted (GC took 430 ns per operation of a 95/5 mix, against 35 ns with
   * one fill in 8; docs/benchmarks/CACHE.md). A hot key is still filled within a few misses.
   */
  static final int FILL_ONE_IN_WARMING = 8;

  /**
   * Hit ratio under which a full cache costs reads more than it saves them, so reads stop
   * consulting it ({@link #consult}): a hit (about ten dependent memory misses in a large cache,
   * and the recency and frequency upkeep) saves one engine read, a miss adds a lookup, and the
   * sampled fills add a copy and an eviction. Measured with 16 callers on uniform keys, where the
   * hit ratio is the share of keys the cache holds: at 0.29 the cache cost gets 15 %, at 0.58 it
   * gave 35 % (docs/benchmarks/CACHE.md, stop 28); the break-even lies between.
   */
  static final double BYPASS_BELOW = 0.35;

  /**
   * One lookup in this many tells Caffeine of its access (its recency and frequency, which decide
   * what to evict and what to admit); the others look quietly ({@code getIfPresentQuietly}, a
   * plain map read). Caffeine records an access by writing the entry's node into a read buffer and
   * later moving the node in its recency lists: reference writes into long-lived objects, which G1,
   * the JVM's default collector, tracks card by card. With every lookup recorded, G1's threads
   * spent 0.7-0.95 us per read of 16 callers on Zipfian keys, more than the rest of a hit; with one
   * in 16, 0.07-0.13 us, and Zipfian gets ran 1.3-2.3x faster at the same hit ratio (0.85-0.89;
   * docs/benchmarks/CACHE.md, stop 42). A key hot enough to be worth caching is still recorded
   * often, so what Caffeine keeps does not change; its counts are a sample.
   */
  static final int RECORD_ONE_IN = 16;

  /** Hit ratio from which reads consult the cache again (above {@link #BYPASS_BELOW}: no flapping). */
  static final double CONSULT_FROM = 0.45;

  /** While bypassing, one read in this many still consults the cache, so its hit ratio is known. */
  static final int PROBE_ONE_IN = 16;

  /** Lookups between two assessments of the hit ratio. */
  static final long ASSESS_EVERY = 20_000;

  /** About one read in this many checks whether an assessment is due (reads the counters). */
  private static final int CHECK_ONE_IN = 1024;

  private final Cache<Key, Entry> cache;
  /** The cache's policy (quiet lookups) and size bound (its weight), fetched once. */
  private final Policy<Key, Entry> policy;
  private final Policy.Eviction<Key, Entry> eviction;
  private final StripeVersions versions;
  /** Ints between two stripes' {@link #filling} slots: one cache line, so fills do not share one. */
  private static final int SLOT_SPACING = 16;
  /** Fills in progress, per stripe (all shards' stripes of one index share a slot). */
  private final AtomicIntegerArray filling = new AtomicIntegerArray(StripeVersions.STRIPES * SLOT_SPACING);
  /** Tests only: runs inside a fill's {@code compute} once its check passed; null otherwise. */
  private final Runnable insideFill;
  private final long capacityBytes;
  /** Whether the cache has evicted for size: from then on, fills are sampled. */
  private volatile boolean full;
  /** Whether reads skip the cache but for probes ({@link #consult}). */
  private volatile boolean bypassing;
  /** Whether the entries have weighed an eighth of the capacity: from then on, the hit ratio is judged. */
  private volatile boolean pastAnEighth;
  /** Hits and misses at the last assessment; guarded by {@link #assessing}. */
  private long assessedHits;
  private long assessedMisses;
  private final AtomicBoolean assessing = new AtomicBoolean();
  /** Every lookup that found an entry, and every one that did not (Caffeine sees a sample). */
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  /** Entries evicted (for size: the cache neither expires entries nor holds them weakly). */
  private final LongAdder evictions = new LongAdder();

  /**
   * @param versions the store's stripe versions, which its shard writers keep
   * @param capacityBytes the most the entries may weigh
   */
  ValueCache(StripeVersions versions, long capacityBytes) {
    this(versions, capacityBytes, null);
  }

  /**
   * For interleaving tests: {@code insideFill} runs inside a fill's {@code compute}, holding the
   * key's lock, after the fill's check passed and before its entry is published.
   */
  ValueCache(StripeVersions versions, long capacityBytes, Runnable insideFill) {
    this.capacityBytes = capacityBytes;
    this.insideFill = insideFill;
    this.cache =
        Caffeine.newBuilder()
            .maximumWeight(capacityBytes)
            .weigher((Key k, Entry v) -> ENTRY_OVERHEAD + k.bytes.length + (v.value == null ? 0 : v.value.length))
            .executor(Runnable::run)
            .evictionListener((Key k, Entry v, RemovalCause cause) -> {
              if (cause.wasEvicted()) {
                evictions.increment();
              }
              if (cause == RemovalCause.SIZE && !full) {
                full = true;
              }
            })
            .build();
    this.policy = cache.policy();
    this.eviction = policy.eviction().orElseThrow();
    this.versions = versions;
  }

  /** A key in the cache: the bytes and their hash. */
  static final class Key {
    final byte[] bytes;
    private final int hash;

    Key(byte[] bytes) {
      this.bytes = bytes;
      int h = Arrays.hashCode(bytes);
      this.hash = h ^ (h >>> 16);
    }

    private Key(byte[] bytes, int hash) {
      this.bytes = bytes;
      this.hash = hash;
    }

    /** The key to store in the cache: its own copy of the bytes, which callers may reuse. */
    Key copy() {
      return new Key(bytes.clone(), hash);
    }

    int stripe() {
      return hash & (StripeVersions.STRIPES - 1);
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.hash == hash && Arrays.equals(k.bytes, bytes);
    }
  }

  // ---------------------------------------------------------------- reads

  /**
   * Whether this read should consult the cache. A cache whose hit ratio has fallen under {@link
   * #BYPASS_BELOW} costs reads more than it saves (uniform keys over far more data than it holds),
   * so then only one read in {@link #PROBE_ONE_IN} consults it, to keep its hit ratio known, until
   * the ratio is back at {@link #CONSULT_FROM}. The ratio is judged once the entries have weighed
   * an eighth of the capacity (until then every miss filled it, so a skewed workload's hot keys are
   * in and hitting) or the cache is full. A cache still warming is bypassed too: filling it to the
   * full with keys read once cost uniform reads 23-39 % (docs/benchmarks/CACHE.md, stop 42), and the
   * probes go on filling it, so a hit ratio that grows as it warms brings reads back. A read that
   * does not consult it reads the engine and does not fill it: always exact, since writes keep
   * every cached entry current whether reads consult the cache or not.
   */
  boolean consult() {
    if (!full && !pastAnEighth) {
      return true;
    }
    ThreadLocalRandom rnd = ThreadLocalRandom.current();
    if (rnd.nextInt(CHECK_ONE_IN) == 0) {
      assess(ASSESS_EVERY);
    }
    return !bypassing || rnd.nextInt(PROBE_ONE_IN) == 0;
  }

  /**
   * Decides whether reads bypass the cache, from the hit ratio of the lookups since the last
   * decision, once there were at least {@code window} of them. One thread at a time; the others
   * skip it.
   */
  void assess(long window) {
    if (!assessing.compareAndSet(false, true)) {
      return;
    }
    try {
      long allHits = this.hits.sum();
      long allMisses = this.misses.sum();
      long hits = allHits - assessedHits;
      long misses = allMisses - assessedMisses;
      if (hits + misses < window) {
        return;
      }
      double ratio = (double) hits / (hits + misses);
      if (ratio < BYPASS_BELOW) {
        bypassing = true;
      } else if (ratio >= CONSULT_FROM) {
        bypassing = false;
      }
      assessedHits = allHits;
      assessedMisses = allMisses;
    } finally {
      assessing.set(false);
    }
  }

  /** Whether reads bypass the cache now (see {@link #consult}). */
  boolean bypassing() {
    return bypassing;
  }

  /**
   * The cached result for a key; one lookup in {@link #RECORD_ONE_IN} is recorded as an access.
   *
   * @return a copy of the cached value, null for a cached absent key, or {@link #MISS}
   */
  Object lookup(Key key) {
    Entry e = ThreadLocalRandom.current().nextInt(RECORD_ONE_IN) == 0 ? cache.getIfPresent(key) : policy.getIfPresentQuietly(key);
    if (e == null) {
      misses.increment();
      return MISS;
    }
    hits.increment();
    if (e.value == null) {
      return null;
    }
    byte[] copy = e.copyOrNull();
    return copy == null ? MISS : copy;
  }

  /**
   * The key's stripe version before a miss reads the engine; odd while a write is in progress.
   *
   * @param shard the key's shard
   */
  long stamp(int shard, Key key) {
    return versions.stamp(shard, key.stripe());
  }

  /**
   * Caches what a miss read, unless a write to the key's stripe began since {@code stamp}; once the
   * entries weigh an eighth of the capacity, only one miss in {@link #FILL_ONE_IN_WARMING} fills it,
   * and once the cache is full one in {@link #FILL_ONE_IN}.
   *
   * @param value what the engine returned (null: absent); copied
   */
  void fill(int shard, Key key, long stamp, byte[] value) {
    int oneIn = full ? FILL_ONE_IN : weighed() >= capacityBytes / FILL_ONE_IN_WARMING ? FILL_ONE_IN_WARMING : 1;
    if (oneIn == FILL_ONE_IN_WARMING && !pastAnEighth) {
      pastAnEighth = true;
    }
    if (oneIn == 1 || ThreadLocalRandom.current().nextInt(oneIn) == 0) {
      fillNow(shard, key, stamp, value);
    }
  }

  /** What the entries weigh now. */
  private long weighed() {
    return eviction.weightedSize().orElse(0L);
  }

  /**
   * {@link #fill} without its sampling: caches what a miss read unless a write to the key's stripe
   * began since {@code stamp} (the coherence protocol's fill; tests call it to play interleavings).
   */
  void fillNow(int shard, Key key, long stamp, byte[] value) {
    int stripe = key.stripe();
    if ((stamp & 1) != 0 || versions.stamp(shard, stripe) != stamp) {
      return; // refused already: copy nothing (the check inside compute is the one that counts)
    }
    Entry entry = value == null ? ABSENT : new Entry(value.clone());
    int slot = stripe * SLOT_SPACING;
    filling.getAndIncrement(slot); // before the check: step 3 must see it (see "Coherence")
    try {
      cache.asMap().compute(key.copy(), (k, old) -> {
        if (old != null || versions.stamp(shard, stripe) != stamp) {
          return old;
        }
        if (insideFill != null) {
          insideFill.run();
        }
        return entry;
      });
    } finally {
      filling.getAndDecrement(slot);
    }
  }

  /**
   * One read of several keys through the cache: the hits, and the stamps of the misses taken now,
   * before the caller reads the misses; {@link #complete} places and caches what they read.
   */
  final class Lookup {
    /** The values in key order: hits now, misses after {@link #complete}. */
    final List<byte[]> values;
    /** The keys to read, in the order {@link #complete} expects their values. */
    final List<byte[]> missing = new ArrayList<>();
    private final int[] at;
    private final Key[] missingKeys;
    private final long[] stamps;
    private final int[] shardOf;

    Lookup(List<byte[]> keys, ToIntFunction<byte[]> shardOfKey) {
      int n = keys.size();
      values = new ArrayList<>(Arrays.asList(new byte[n][]));
      at = new int[n];
      missingKeys = new Key[n];
      stamps = new long[n];
      shardOf = new int[n];
      for (int i = 0; i < n; i++) {
        Key k = new Key(keys.get(i));
        Object hit = lookup(k);
        if (hit != MISS) {
          values.set(i, (byte[]) hit);
          continue;
        }
        int m = missing.size();
        at[m] = i;
        missingKeys[m] = k;
        shardOf[m] = shardOfKey.applyAsInt(k.bytes);
        stamps[m] = stamp(shardOf[m], k);
        missing.add(k.bytes);
      }
    }

    /**
     * Places and caches what the misses read.
     *
     * @param read the values of {@link #missing}, in its order
     * @return {@link #values}, complete
     */
    List<byte[]> complete(List<byte[]> read) {
      for (int m = 0; m < read.size(); m++) {
        byte[] value = read.get(m);
        fill(shardOf[m], missingKeys[m], stamps[m], value);
        values.set(at[m], value);
      }
      return values;
    }
  }

  // ---------------------------------------------------------------- writes (the shard's worker)

  /** Step 1: the stripes of {@code keys} become odd. Only the shard's worker calls this. */
  void beginWrite(int shard, List<Key> keys) {
    versions.begin(shard, keys);
  }

  /**
   * Step 3 and 4: update or drop the cached keys that were written, then make the stripes even.
   *
   * @param values the value each key now has (null: deleted); {@code applied} false drops them all
   *     (a failed write, or an invalidation)
   */
  void endWrite(int shard, List<Key> keys, List<Object> values, boolean applied) {
    for (int i = 0; i < keys.size(); i++) {
      Key key = keys.get(i);
      Object value = values.get(i);
      if (!applied || value == ShardWriter.INVALIDATE) {
        cache.invalidate(key);
      } else if (filling.get(key.stripe() * SLOT_SPACING) != 0) {
        cache.asMap().compute(key, (k, old) -> replaced(old, (byte[]) value)); // waits for the fill (see "Coherence")
      } else {
        Entry old = policy.getIfPresentQuietly(key); // exact with no fill in flight
        if (old != null && old.value != null && value != null && ((byte[]) value).length == old.value.length) {
          old.overwrite((byte[]) value); // see "Overwriting in place"
        } else if (old != null) {
          cache.asMap().computeIfPresent(key, (k, o) -> replaced(o, (byte[]) value));
        }
      }
    }
    versions.end(shard, keys);
  }

  /** The entry a write leaves for a cached key: none if the key is not cached. */
  private static Entry replaced(Entry old, byte[] value) {
    return old == null ? null : value == null ? ABSENT : new Entry(value.clone());
  }

  /**
   * Steps 3 and 4 of a range delete (see "Range deletes"; step 1 was {@link
   * StripeVersions#beginAll}): waits out the fills in flight, drops every cached key in {@code
   * [from, to)} (of any shard: dropping is always safe), then makes the shard's stripes even. Called
   * whether or not the engine write succeeded. Only the shard's worker calls this.
   */
  void endRangeDelete(int shard, byte[] from, byte[] to) {
    for (int stripe = 0; stripe < StripeVersions.STRIPES; stripe++) {
      int slot = stripe * SLOT_SPACING;
      while (filling.get(slot) != 0) {
        Thread.yield(); // a fill inside its compute: it publishes, then uncounts itself
      }
    }
    cache.asMap().keySet().removeIf(k -> Arrays.compareUnsigned(k.bytes, from) >= 0 && Arrays.compareUnsigned(k.bytes, to) < 0);
    versions.endAll(shard);
  }

  // ---------------------------------------------------------------- stats

  /** The cache's counters for {@code StoreStats}. */
  io.p2kv.CacheStats stats() {
    return new io.p2kv.CacheStats(capacityBytes, hits.sum(), misses.sum(), evictions.sum(), cache.estimatedSize(), weighed());
  }
}
