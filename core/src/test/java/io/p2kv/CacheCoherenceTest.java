package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The value cache under concurrency, against a model: 8 writer threads (puts, deletes, single-
 * and cross-shard batches) and 8 reader threads (get, getAsync, multiGet) over 32 hot keys, at
 * least 1 M operations, no stale read and no value that was never written.
 *
 * <p>Each key has one writer thread, which writes it versions 1, 2, 3, ... in order (every fifth
 * version a delete), records a version as started before it issues the write and as acknowledged
 * once the write returned. A read that began after version {@code a} was acknowledged must return
 * a version at least {@code a} and no later than the last started when the read returned; it may
 * return "absent" only if one of those versions is a delete.
 */
class CacheCoherenceTest {
  private static final int WRITERS = 8;
  private static final int READERS = 8;
  private static final int KEYS_PER_WRITER = 4;
  private static final int KEYS = WRITERS * KEYS_PER_WRITER;
  private static final int WRITES_PER_WRITER = 15_000;
  private static final int READS_PER_READER = 110_000;

  @TempDir Path tmp;

  private final VersionedKeys model = new VersionedKeys("hot-", KEYS);
  private final AtomicLongArray started = model.started;
  private final AtomicLongArray acked = model.acked;
  private final AtomicLong reads = new AtomicLong();

  @ParameterizedTest
  @EnumSource(ReadPath.class)
  void shouldNeverReturnAStaleOrUnwrittenValue(ReadPath readPath) throws Exception {
    TestSeeds.run(CacheCoherenceTest.class, readPath.name(), seed -> run(readPath, seed));
  }

  private void run(ReadPath readPath, long seed) throws Exception {
    try (P2kv store = P2kv.builder().shards(3).readPath(readPath).cacheBytes(1 << 20).open(tmp)) {
      VersionedKeys.runConcurrently(
          seed, WRITERS, (w, random) -> write(store, w, random), READERS, (r, random) -> read(store, random));
      CacheStats cache = store.stats().cache();
      assertTrue(cache.hits() > 0 && cache.misses() > 0, "the cache was used: " + cache);
      assertTrue(reads.get() + (long) WRITERS * WRITES_PER_WRITER >= 1_000_000, "operations: " + reads.get());
    }
  }

  private void write(P2kv store, int writer, Random random) {
    int first = writer * KEYS_PER_WRITER;
    for (int i = 0; i < WRITES_PER_WRITER; i++) {
      int op = random.nextInt(10);
      if (op < 2) {
        // An atomic batch over two or more of this writer's keys (across shards, mostly).
        Batch batch = new Batch();
        List<Integer> keys = new ArrayList<>();
        for (int k = first; k < first + KEYS_PER_WRITER; k++) {
          if (keys.isEmpty() || random.nextBoolean()) {
            keys.add(k);
          }
        }
        if (keys.size() == 1) {
          keys.add(keys.get(0) == first ? first + 1 : first);
        }
        long[] versions = new long[keys.size()];
        for (int j = 0; j < keys.size(); j++) {
          int k = keys.get(j);
          versions[j] = started.incrementAndGet(k);
          if (VersionedKeys.isDelete(versions[j])) {
            batch.delete(model.key(k));
          } else {
            batch.put(model.key(k), VersionedKeys.value(k, versions[j]));
          }
        }
        store.write(batch);
        for (int j = 0; j < keys.size(); j++) {
          acked.set(keys.get(j), versions[j]);
        }
      } else {
        int k = first + random.nextInt(KEYS_PER_WRITER);
        long v = started.incrementAndGet(k);
        if (VersionedKeys.isDelete(v)) {
          store.delete(model.key(k));
        } else if (op < 5) {
          store.putAsync(model.key(k), VersionedKeys.value(k, v)).join();
        } else {
          store.put(model.key(k), VersionedKeys.value(k, v));
        }
        acked.set(k, v);
      }
    }
  }

  private void read(P2kv store, Random random) {
    for (int i = 0; i < READS_PER_READER; ) {
      int how = random.nextInt(10);
      if (how < 2) {
        int n = 1 + random.nextInt(4);
        int[] ks = new int[n];
        long[] before = new long[n];
        List<byte[]> keys = new ArrayList<>();
        for (int j = 0; j < n; j++) {
          ks[j] = random.nextInt(KEYS);
          before[j] = acked.get(ks[j]);
          keys.add(model.key(ks[j]));
        }
        List<byte[]> values = store.multiGet(keys);
        for (int j = 0; j < n; j++) {
          model.check(ks[j], before[j], values.get(j));
        }
        i += n;
      } else {
        int k = random.nextInt(KEYS);
        long before = acked.get(k);
        byte[] value;
        if (how < 4) {
          CompletableFuture<byte[]> f = store.getAsync(model.key(k));
          value = f.join();
        } else {
          value = store.get(model.key(k));
        }
        model.check(k, before, value);
        i++;
      }
    }
    reads.addAndGet(READS_PER_READER);
  }
}
