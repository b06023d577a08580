package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Updates and increments keep the value cache exactly coherent, on both read paths: 6 writer
 * threads (update, updateAsync, increment, incrementAsync, some puts and deletes) and 6 reader
 * threads (get, multiGet) over 24 hot record keys and 24 hot counters, against a model.
 *
 * <p>Each key has one writer, which takes it through versions 1, 2, 3, ... (every fifth version of
 * a record is a delete), recording a version as started before the call and as acknowledged once
 * it returned. A reader must see, for a read that began after version {@code a} was acknowledged,
 * a version in {@code a..started} (absent only if one of them is a delete). An update's function
 * must be given exactly the previous version: the worker's read, which may come from the cache, is
 * never stale. The writer then scribbles over the array the function was given and the array the
 * update returned: a cache that kept either (instead of its own copy) would hand readers garbage.
 */
class UpdateCacheCoherenceTest {
  private static final int WRITERS = 6;
  private static final int READERS = 6;
  private static final int KEYS_PER_WRITER = 4;
  private static final int KEYS = WRITERS * KEYS_PER_WRITER;
  private static final int WRITES_PER_WRITER = 8_000;
  private static final int READS_PER_READER = 40_000;

  @TempDir Path tmp;

  /** Records 0..KEYS-1 (versioned values); counters KEYS..2*KEYS-1 (the version is the count). */
  private final VersionedKeys model = new VersionedKeys("key-", 2 * KEYS);
  private final AtomicLongArray started = model.started;
  private final AtomicLongArray acked = model.acked;

  @ParameterizedTest
  @EnumSource(ReadPath.class)
  void shouldKeepTheCacheCoherentUnderUpdatesAndIncrements(ReadPath readPath) throws Exception {
    TestSeeds.run(UpdateCacheCoherenceTest.class, readPath.name(), seed -> run(readPath, seed));
  }

  private void run(ReadPath readPath, long seed) throws Exception {
    try (P2kv store = P2kv.builder().shards(3).readPath(readPath).cacheBytes(1 << 20).open(tmp)) {
      VersionedKeys.runConcurrently(
          seed, WRITERS, (w, random) -> write(store, w, random), READERS, (r, random) -> read(store, random));
      CacheStats cache = store.stats().cache();
      assertTrue(cache.hits() > 0 && cache.misses() > 0, "the cache was used: " + cache);
      assertTrue(store.stats().updates() >= (long) WRITERS * WRITES_PER_WRITER * 7 / 10, "updates ran");
      for (int k = 0; k < 2 * KEYS; k++) {
        check(k, acked.get(k), store.get(model.key(k))); // quiescent: exactly the last version
        assertEquals(started.get(k), acked.get(k));
      }
    }
  }

  private void write(P2kv store, int writer, Random random) {
    for (int i = 0; i < WRITES_PER_WRITER; i++) {
      int op = random.nextInt(10);
      if (op < 4) {
        int c = KEYS + writer * KEYS_PER_WRITER + random.nextInt(KEYS_PER_WRITER);
        long v = started.incrementAndGet(c);
        long sum = op < 2 ? store.increment(model.key(c), 1) : store.incrementAsync(model.key(c), 1).join();
        assertEquals(v, sum, "counter " + c);
        acked.set(c, v);
        continue;
      }
      int k = writer * KEYS_PER_WRITER + random.nextInt(KEYS_PER_WRITER);
      long v = started.incrementAndGet(k);
      byte[] next = VersionedKeys.isDelete(v) ? null : VersionedKeys.value(k, v);
      if (op < 5) {
        if (next == null) {
          store.delete(model.key(k));
        } else {
          store.put(model.key(k), next);
        }
      } else {
        byte[][] given = new byte[1][];
        java.util.function.UnaryOperator<byte[]> fn = old -> {
          given[0] = old;
          return next == null ? null : next.clone();
        };
        byte[] result = op < 8 ? store.update(model.key(k), fn) : store.updateAsync(model.key(k), fn).join();
        long previous = v - 1;
        if (previous == 0 || VersionedKeys.isDelete(previous)) {
          assertNull(given[0], "update of key " + k + " at version " + v + " was given a value for an absent key");
        } else {
          assertTrue(Arrays.equals(VersionedKeys.value(k, previous), given[0]), "update of key " + k + " at version " + v + " was given a stale value");
        }
        assertTrue(Arrays.equals(next, result), "update's result");
        scribble(given[0]);
        scribble(result);
      }
      acked.set(k, v);
    }
  }

  private static void scribble(byte[] b) {
    if (b != null) {
      Arrays.fill(b, (byte) 0x5A);
    }
  }

  private void read(P2kv store, Random random) {
    for (int i = 0; i < READS_PER_READER; ) {
      if (random.nextInt(5) == 0) {
        int n = 1 + random.nextInt(4);
        int[] ks = new int[n];
        long[] before = new long[n];
        List<byte[]> keys = new ArrayList<>();
        for (int j = 0; j < n; j++) {
          ks[j] = random.nextInt(2 * KEYS);
          before[j] = acked.get(ks[j]);
          keys.add(model.key(ks[j]));
        }
        List<byte[]> values = store.multiGet(keys);
        for (int j = 0; j < n; j++) {
          check(ks[j], before[j], values.get(j));
        }
        i += n;
      } else {
        int k = random.nextInt(2 * KEYS);
        long before = acked.get(k);
        check(k, before, store.get(model.key(k)));
        i++;
      }
    }
  }

  private void check(int k, long ackedBefore, byte[] value) {
    long startedAfter = started.get(k);
    if (k >= KEYS) {
      long sum = value == null ? 0 : ByteBuffer.wrap(value).getLong();
      assertEquals(value == null ? 0 : 8, value == null ? 0 : value.length, "counter " + k);
      assertTrue(sum >= ackedBefore && sum <= startedAfter,
          "counter " + k + " read " + sum + ", expected " + ackedBefore + ".." + startedAfter);
      return;
    }
    model.check(k, ackedBefore, value);
  }
}
