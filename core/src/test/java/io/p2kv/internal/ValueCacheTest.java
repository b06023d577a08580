package io.p2kv.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The cache's coherence protocol, step by step: each test plays one interleaving of a reader's
 * miss (stamp, engine read, fill) and the worker's write (begin, engine write, end) by calling the
 * steps in that order.
 */
class ValueCacheTest {
  private final ValueCache cache = new ValueCache(new StripeVersions(2), 1 << 20);
  private final byte[] key = {1, 2, 3};
  private final ValueCache.Key k = new ValueCache.Key(key);

  private void write(byte[] value) {
    List<Object> values = new ArrayList<>();
    values.add(value);
    cache.beginWrite(0, List.of(k));
    cache.endWrite(0, List.of(k), values, true);
  }

  @Test
  void shouldRefuseAFillOfAValueReadBeforeAWriteThatEndedSinceTheStamp() {
    long stamp = cache.stamp(0, k); // reader: stamp, then reads "old" from the engine
    write(new byte[] {2}); // worker: the whole write, the key not cached yet
    cache.fillNow(0, k, stamp, new byte[] {1}); // reader: fills what it read before the write
    assertSame(ValueCache.MISS, cache.lookup(k), "the stale fill was refused");
  }

  @Test
  void shouldRefuseAFillWhileAWriteIsInProgress() {
    cache.beginWrite(0, List.of(k)); // worker: step 1
    long stamp = cache.stamp(0, k); // reader: stamp (odd)
    cache.fillNow(0, k, stamp, new byte[] {1}); // reader: engine read, fill
    assertSame(ValueCache.MISS, cache.lookup(k));
    List<Object> values = new ArrayList<>();
    values.add(new byte[] {2});
    cache.endWrite(0, List.of(k), values, true);
    assertSame(ValueCache.MISS, cache.lookup(k));
  }

  @Test
  void shouldReplaceAFillThatWonItsCheckBeforeTheWriteBegan() {
    long stamp = cache.stamp(0, k);
    cache.fillNow(0, k, stamp, new byte[] {1}); // filled before the write began: current then
    assertArrayEquals(new byte[] {1}, (byte[]) cache.lookup(k));
    write(new byte[] {2}); // the write's step 3 replaces it before the write completes
    assertArrayEquals(new byte[] {2}, (byte[]) cache.lookup(k));
  }

  /**
   * The fill passed its check before the write began and is still inside its {@code compute} (its
   * entry not yet published) when the write's step 3 runs. Step 3 must wait for it and replace the
   * entry: a step 3 that looks without the key's lock (Caffeine's {@code computeIfPresent}) finds
   * nothing, ends, and the fill then publishes the value from before the write.
   */
  @Test
  void shouldReplaceAFillStillInsideItsComputeWhenTheWriteEnds() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch resume = new CountDownLatch(1);
    ValueCache cache = new ValueCache(new StripeVersions(1), 1 << 20, () -> {
      inside.countDown();
      await(resume);
    });
    long stamp = cache.stamp(0, k); // reader: stamp, engine read of {1}
    Thread reader = new Thread(() -> cache.fillNow(0, k, stamp, new byte[] {1}));
    reader.start();
    await(inside); // the fill's check passed; it holds the key's lock, its entry unpublished
    cache.beginWrite(0, List.of(k)); // worker: step 1 and the engine write of {2}
    List<Object> values = new ArrayList<>();
    values.add(new byte[] {2});
    Thread worker = new Thread(() -> cache.endWrite(0, List.of(k), values, true));
    worker.start();
    // Step 3 either waits on the fill's lock (BLOCKED) or, looking without the lock, has ended.
    while (worker.isAlive() && worker.getState() != Thread.State.BLOCKED) {
      Thread.onSpinWait();
    }
    resume.countDown();
    reader.join();
    worker.join();
    assertArrayEquals(new byte[] {2}, (byte[]) cache.lookup(k), "the write's value, not the fill's older one");
  }

  @Test
  void shouldDropAFillStillInsideItsComputeWhenARangeDeleteEnds() throws Exception {
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch resume = new CountDownLatch(1);
    StripeVersions versions = new StripeVersions(1);
    ValueCache cache = new ValueCache(versions, 1 << 20, () -> {
      inside.countDown();
      await(resume);
    });
    long stamp = cache.stamp(0, k); // reader: stamp, engine read of {1}
    Thread reader = new Thread(() -> cache.fillNow(0, k, stamp, new byte[] {1}));
    reader.start();
    await(inside); // the fill's check passed; its entry is not published yet
    versions.beginAll(0); // worker: step 1 and the engine's range delete of [{1}, {2})
    Thread worker = new Thread(() -> cache.endRangeDelete(0, new byte[] {1}, new byte[] {2}));
    worker.start();
    // Step 3 must wait for the fill: a correct worker never ends before the fill is resumed, so
    // this join only gives a broken one (no wait) the time to drop nothing and end first.
    worker.join(50);
    boolean endedBeforeTheFill = !worker.isAlive();
    resume.countDown();
    reader.join();
    worker.join();
    assertSame(ValueCache.MISS, cache.lookup(k), "the fill's value from before the range delete is dropped");
    assertFalse(endedBeforeTheFill, "the range delete waited for the fill in flight");
    cache.fillNow(0, k, cache.stamp(0, k), new byte[] {4});
    assertArrayEquals(new byte[] {4}, (byte[]) cache.lookup(k), "the stripes are even again: fills work");
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(1, TimeUnit.MINUTES)) {
        throw new AssertionError("timed out");
      }
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void shouldCacheADeleteAsAbsentAndAFailedWriteAsNothing() {
    cache.fillNow(0, k, cache.stamp(0, k), new byte[] {1});
    write(null);
    assertNull(cache.lookup(k), "a cached absent key");
    cache.fillNow(0, new ValueCache.Key(new byte[] {9}), cache.stamp(0, new ValueCache.Key(new byte[] {9})), null);
    assertNull(cache.lookup(new ValueCache.Key(new byte[] {9})));
    cache.beginWrite(0, List.of(k));
    List<Object> values = new ArrayList<>();
    values.add(new byte[] {3});
    cache.endWrite(0, List.of(k), values, false);
    assertSame(ValueCache.MISS, cache.lookup(k), "a write that may not have applied drops the key");
    cache.fillNow(0, k, cache.stamp(0, k), new byte[] {4});
    assertArrayEquals(new byte[] {4}, (byte[]) cache.lookup(k), "the stripe is even again: fills work");
  }

  @Test
  void shouldDropAnInvalidatedKey() {
    cache.fillNow(0, k, cache.stamp(0, k), new byte[] {1});
    cache.beginWrite(0, List.of(k));
    List<Object> values = new ArrayList<>();
    values.add(ShardWriter.INVALIDATE);
    cache.endWrite(0, List.of(k), values, true);
    assertSame(ValueCache.MISS, cache.lookup(k));
  }

  @Test
  void shouldNotLetCallersChangeACachedValue() {
    byte[] read = {1};
    cache.fillNow(0, k, cache.stamp(0, k), read);
    read[0] = 7; // the reader's own array, returned to its caller
    byte[] hit = (byte[]) cache.lookup(k);
    assertArrayEquals(new byte[] {1}, hit);
    hit[0] = 8;
    assertArrayEquals(new byte[] {1}, (byte[]) cache.lookup(k));
    byte[] written = {2};
    List<Object> values = new ArrayList<>();
    values.add(written);
    cache.beginWrite(0, List.of(k));
    cache.endWrite(0, List.of(k), values, true);
    written[0] = 9; // the writer's array, which the application may reuse
    assertArrayEquals(new byte[] {2}, (byte[]) cache.lookup(k));
  }

  @Test
  void shouldKeepShardsStripesApart() {
    long stamp = cache.stamp(1, k); // the same key bytes on another shard's stripes
    write(new byte[] {2}); // shard 0 writes
    cache.fillNow(1, k, stamp, new byte[] {1});
    assertArrayEquals(new byte[] {1}, (byte[]) cache.lookup(k), "shard 1's stripe did not move");
  }

  @Test
  void shouldReplaceAValueOfAnotherLengthAndWeighIt() {
    cache.fillNow(0, k, cache.stamp(0, k), new byte[] {1});
    long before = cache.stats().bytes();
    write(new byte[] {2, 2, 2, 2, 2}); // another length: a new entry, weighed again
    assertArrayEquals(new byte[] {2, 2, 2, 2, 2}, (byte[]) cache.lookup(k));
    assertEquals(before + 4, cache.stats().bytes(), "the entry's weight follows its value");
    write(null);
    assertNull(cache.lookup(k), "a delete of a cached value leaves the key cached absent");
    write(new byte[] {6});
    assertArrayEquals(new byte[] {6}, (byte[]) cache.lookup(k), "a put of a cached absent key");
    assertEquals(before, cache.stats().bytes());
  }

  /**
   * The worker overwrites a cached value in place (same length) while a reader looks it up without
   * pause: every value the reader gets is one that was written, whole (all its bytes from one
   * write), and never older than one it got before. Fails if the reader does not check the entry's
   * sequence number (torn copies).
   */
  @Test
  void shouldNeverReturnAMixOfTwoOverwritesInPlace() throws Exception {
    int writes = 20_000;
    cache.fillNow(0, k, cache.stamp(0, k), filled(0));
    AtomicReference<String> problem = new AtomicReference<>();
    CountDownLatch started = new CountDownLatch(1);
    Thread reader = new Thread(() -> {
      int last = 0;
      started.countDown();
      while (last < writes - 1 && problem.get() == null) {
        Object hit = cache.lookup(k);
        if (hit == ValueCache.MISS) {
          continue; // the worker was in the middle of a copy: a real reader reads the engine
        }
        byte[] v = (byte[]) hit;
        int n = value(v);
        for (int b = 4; b < v.length; b++) {
          if (v[b] != (byte) n) {
            problem.set("a read mixes write " + n + " with another (byte " + b + " is " + v[b] + ")");
            return;
          }
        }
        if (n < last) {
          problem.set("went back from write " + last + " to " + n);
          return;
        }
        last = n;
      }
    });
    reader.start();
    await(started);
    for (int i = 1; i < writes; i++) {
      write(filled(i));
    }
    reader.join(TimeUnit.MINUTES.toMillis(1));
    assertFalse(reader.isAlive(), "the reader saw the last write");
    assertNull(problem.get());
  }

  @Test
  void shouldFillEveryMissUntilAnEighthIsUsedThenOnlySome() {
    ValueCache warming = new ValueCache(new StripeVersions(1), 800 * 1024); // about 8,270 entries of 99 bytes
    for (int i = 0; i < 8_000; i++) {
      ValueCache.Key ki = new ValueCache.Key(new byte[] {(byte) (i >>> 8), (byte) i});
      warming.fill(0, ki, warming.stamp(0, ki), new byte[] {1});
      if (i < 1_000) {
        assertEquals(i + 1, warming.stats().entries(), "under an eighth of the capacity every miss fills");
      }
    }
    long entries = warming.stats().entries();
    assertTrue(entries > 1_200 && entries < 3_500, "then about one miss in " + ValueCache.FILL_ONE_IN_WARMING + ": " + entries);
  }

  /**
   * A full cache that misses (keys spread over far more data than it holds) is bypassed: most
   * reads skip it, probes keep measuring it, and once the probes hit it is consulted again.
   */
  @Test
  void shouldBypassAFullCacheThatMissesAndConsultItAgainOnceItHits() {
    ValueCache small = new ValueCache(new StripeVersions(1), 64 * 1024);
    for (int i = 0; i < 4_000; i++) { // more than it holds: it evicts, so it is full
      ValueCache.Key ki = new ValueCache.Key(new byte[] {(byte) (i >>> 8), (byte) i});
      small.fillNow(0, ki, small.stamp(0, ki), new byte[32]);
    }
    assertEquals(4_000, consulted(small, 4_000), "reads consult a cache whose hit ratio is unknown");
    for (int i = 0; i < 2_000; i++) {
      assertSame(ValueCache.MISS, small.lookup(new ValueCache.Key(new byte[] {9, 9, (byte) i})));
    }
    small.assess(1_000);
    assertTrue(small.bypassing(), "2,000 misses in a row");
    int probes = consulted(small, 16_000);
    assertTrue(probes > 0 && probes < 2_000, "about one read in " + ValueCache.PROBE_ONE_IN + " probes: " + probes);
    ValueCache.Key hot = null;
    for (int i = 3_999; hot == null; i--) { // the last fills are the likeliest to be cached
      ValueCache.Key ki = new ValueCache.Key(new byte[] {(byte) (i >>> 8), (byte) i});
      hot = small.lookup(ki) == ValueCache.MISS ? null : ki;
    }
    for (int i = 0; i < 2_000; i++) {
      assertArrayEquals(new byte[32], (byte[]) small.lookup(hot));
    }
    small.assess(1_000);
    assertFalse(small.bypassing(), "the probes hit again");
    assertEquals(4_000, consulted(small, 4_000));
  }

  /**
   * A cache still warming is judged too, once an eighth of it is used: reads that keep missing
   * bypass it before it is full, and the probes bring them back when it hits. Under an eighth it is
   * always consulted, whatever it misses, so a skewed workload's hot keys get in first.
   */
  @Test
  void shouldBypassAWarmingCacheThatMissesOnceAnEighthIsUsed() {
    ValueCache warming = new ValueCache(new StripeVersions(1), 800 * 1024); // about 8,270 entries of 99 bytes
    ValueCache.Key first = new ValueCache.Key(new byte[] {0, 0});
    warming.fill(0, first, warming.stamp(0, first), new byte[] {1});
    for (int i = 0; i < 2_000; i++) {
      assertSame(ValueCache.MISS, warming.lookup(new ValueCache.Key(new byte[] {9, 9, (byte) (i >>> 8), (byte) i})));
    }
    warming.assess(1_000);
    assertEquals(4_000, consulted(warming, 4_000), "under an eighth of the capacity every read consults it");
    for (int i = 1; i < 1_200; i++) { // every miss fills until an eighth (about 1,034 entries) is used
      ValueCache.Key ki = new ValueCache.Key(new byte[] {(byte) (i >>> 8), (byte) i});
      warming.fill(0, ki, warming.stamp(0, ki), new byte[] {1});
    }
    for (int i = 0; i < 2_000; i++) {
      assertSame(ValueCache.MISS, warming.lookup(new ValueCache.Key(new byte[] {8, 8, (byte) (i >>> 8), (byte) i})));
    }
    warming.assess(1_000);
    assertTrue(warming.bypassing(), "2,000 misses in a row past an eighth");
    assertEquals(0, warming.stats().evictions(), "not full");
    int probes = consulted(warming, 16_000);
    assertTrue(probes > 0 && probes < 2_000, "about one read in " + ValueCache.PROBE_ONE_IN + " probes: " + probes);
    for (int i = 0; i < 4_000; i++) {
      assertArrayEquals(new byte[] {1}, (byte[]) warming.lookup(first));
    }
    warming.assess(1_000);
    assertFalse(warming.bypassing(), "the probes hit again");
  }

  /**
   * Caffeine is told of one lookup in {@link ValueCache#RECORD_ONE_IN}, but the counters count
   * every lookup, and keys read often stay cached while keys read once stream past: with no access
   * recorded for the hot keys they would be evicted like the rest (Caffeine admits a newcomer over a
   * victim it has seen no more often).
   */
  @Test
  void shouldCountEveryLookupAndKeepTheKeysReadOftenWhileFewAccessesAreRecorded() {
    ValueCache small = new ValueCache(new StripeVersions(1), 64 * 1024); // about 560 entries of 115 bytes
    List<ValueCache.Key> hot = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      ValueCache.Key ki = new ValueCache.Key(new byte[] {1, (byte) (i >>> 8), (byte) i});
      small.fillNow(0, ki, small.stamp(0, ki), new byte[16]);
      hot.add(ki);
    }
    long hits = 0;
    long misses = 0;
    int cold = 0;
    for (int round = 0; round < 40; round++) {
      for (int read = 0; read < 16; read++) {
        for (ValueCache.Key ki : hot) {
          if (small.lookup(ki) == ValueCache.MISS) {
            misses++;
            small.fillNow(0, ki, small.stamp(0, ki), new byte[16]);
          } else {
            hits++;
          }
        }
      }
      for (int i = 0; i < 500; i++, cold++) { // keys read once: more than the cache holds, each round
        ValueCache.Key kc = new ValueCache.Key(new byte[] {2, (byte) (cold >>> 16), (byte) (cold >>> 8), (byte) cold});
        assertSame(ValueCache.MISS, small.lookup(kc));
        misses++;
        small.fillNow(0, kc, small.stamp(0, kc), new byte[16]);
      }
    }
    io.p2kv.CacheStats stats = small.stats();
    assertEquals(hits, stats.hits(), "every hit counted");
    assertEquals(misses, stats.misses(), "every miss counted");
    assertTrue(stats.evictions() >= 20_000 - 560, "the cold keys went through: " + stats);
    int cached = 0;
    for (ValueCache.Key ki : hot) {
      cached += small.lookup(ki) == ValueCache.MISS ? 0 : 1;
    }
    assertTrue(cached >= 190, "the keys read 16 times a round stayed cached: " + cached + " of 200");
    assertTrue(hits > 0.95 * 40 * 16 * 200, "and were hits: " + hits);
  }

  private static int consulted(ValueCache c, int reads) {
    int n = 0;
    for (int i = 0; i < reads; i++) {
      n += c.consult() ? 1 : 0;
    }
    return n;
  }

  /** 4 KiB for write {@code i}: {@code i} in the first four bytes, then {@code (byte) i} in every byte. */
  private static byte[] filled(int i) {
    byte[] v = new byte[4096];
    Arrays.fill(v, (byte) i);
    v[0] = (byte) (i >>> 24);
    v[1] = (byte) (i >>> 16);
    v[2] = (byte) (i >>> 8);
    v[3] = (byte) i;
    return v;
  }

  private static int value(byte[] v) {
    return (v[0] & 0xff) << 24 | (v[1] & 0xff) << 16 | (v[2] & 0xff) << 8 | (v[3] & 0xff);
  }
}
