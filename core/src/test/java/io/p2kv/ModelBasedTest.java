package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Random put / get / delete / multiGet / batch sequences, sync and async, from several threads at
 * once, checked against a model after every read, then against the whole model before and after a
 * reopen. Each thread owns a disjoint pool of binary keys (the empty key included), so its model is
 * exact while the store serves all threads concurrently.
 */
class ModelBasedTest {
  private static final int THREADS = 6;
  private static final int OPS_PER_THREAD = 400;
  private static final int KEYS_PER_THREAD = 40;

  @TempDir Path tmp;

  static List<org.junit.jupiter.params.provider.Arguments> configs() {
    return StoreMatrix.configs();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("configs")
  void shouldMatchTheModelUnderConcurrentRandomOperations(StoreMatrix.Config config) throws Exception {
    TestSeeds.run(getClass(), "shouldMatchTheModelUnderConcurrentRandomOperations: " + config,
        seed -> shouldMatchTheModelUnderConcurrentRandomOperations(config, seed));
  }

  private void shouldMatchTheModelUnderConcurrentRandomOperations(StoreMatrix.Config config, long seed)
      throws Exception {
    Path dir = tmp.resolve("store");
    List<List<byte[]>> pools = new ArrayList<>();
    Random seedRnd = new Random(seed);
    for (int t = 0; t < THREADS; t++) {
      TreeMap<byte[], Boolean> distinct = new TreeMap<>(Keys.UNSIGNED);
      if (t == 0) {
        distinct.put(new byte[0], true);
      }
      while (distinct.size() < KEYS_PER_THREAD) {
        byte[] suffix = Keys.randomKey(seedRnd);
        byte[] k = new byte[suffix.length + 1];
        k[0] = (byte) (t + 1);
        System.arraycopy(suffix, 0, k, 1, suffix.length);
        distinct.put(k, true);
      }
      pools.add(new ArrayList<>(distinct.keySet()));
    }
    List<TreeMap<byte[], byte[]>> models = new ArrayList<>();
    try (P2kv store = config.builder().open(dir)) {
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      List<Future<TreeMap<byte[], byte[]>>> results = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        long threadSeed = seedRnd.nextLong();
        results.add(pool.submit(() -> runThread(store, config, pools.get(thread), new Random(threadSeed))));
      }
      for (Future<TreeMap<byte[], byte[]>> r : results) {
        models.add(r.get(120, TimeUnit.SECONDS));
      }
      pool.shutdown();
      verifyAll(store, pools, models, config + " before reopen");
    }
    try (P2kv store = config.builder().open(dir)) {
      verifyAll(store, pools, models, config + " after reopen");
    }
  }

  private static TreeMap<byte[], byte[]> runThread(P2kv store, StoreMatrix.Config config, List<byte[]> keys, Random rnd) {
    TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);
    List<CompletableFuture<?>> pending = new ArrayList<>();
    // Async writes complete in order per shard; a worker-path read is queued behind them, so it
    // must see them. A direct read only promises to see completed writes: join first.
    boolean joinBeforeRead = config.readPath() == ReadPath.DIRECT;
    for (int op = 0; op < OPS_PER_THREAD; op++) {
      byte[] key = keys.get(rnd.nextInt(keys.size()));
      int kind = rnd.nextInt(11);
      if (kind >= 5 && kind <= 7 && joinBeforeRead) {
        joinAll(pending);
      }
      switch (kind) {
        case 0 -> {
          byte[] v = Keys.randomValue(rnd, 64);
          store.put(key, v);
          model.put(key, v);
        }
        case 1 -> {
          byte[] v = Keys.randomValue(rnd, 64);
          pending.add(store.putAsync(key, v));
          model.put(key, v);
        }
        case 2 -> {
          store.delete(key);
          model.remove(key);
        }
        case 3 -> {
          pending.add(store.deleteAsync(key));
          model.remove(key);
        }
        case 4 -> {
          Batch batch = randomBatch(store, keys, key, rnd, model);
          if (rnd.nextBoolean()) {
            store.write(batch);
          } else {
            pending.add(store.writeAsync(batch));
          }
        }
        case 5 -> assertArrayEquals(model.get(key), store.get(key), config + " get");
        case 6 -> {
          byte[] expected = model.get(key);
          pending.add(store.getAsync(key).thenAccept(v -> assertArrayEquals(expected, v, config + " getAsync")));
        }
        case 7 -> {
          List<byte[]> ks = new ArrayList<>();
          int n = 1 + rnd.nextInt(40);
          for (int i = 0; i < n; i++) {
            ks.add(keys.get(rnd.nextInt(keys.size())));
          }
          List<byte[]> expected = new ArrayList<>();
          for (byte[] k : ks) {
            expected.add(model.get(k));
          }
          if (rnd.nextBoolean()) {
            assertValues(expected, store.multiGet(ks), config + " multiGet");
          } else {
            pending.add(store.multiGetAsync(ks).thenAccept(vs -> assertValues(expected, vs, config + " multiGetAsync")));
          }
        }
        default -> {
          byte[] v = Keys.randomValue(rnd, 300);
          CompletableFuture<Void> f = new CompletableFuture<>();
          store.putAsync(key, v, (ok, err) -> {
            if (err != null) {
              f.completeExceptionally(err);
            } else {
              f.complete(null);
            }
          });
          pending.add(f);
          model.put(key, v);
        }
      }
      if (pending.size() > 64) {
        joinAll(pending);
      }
    }
    joinAll(pending);
    return model;
  }

  private static Batch randomBatch(P2kv store, List<byte[]> keys, byte[] first, Random rnd, Map<byte[], byte[]> model) {
    // Half the batches stay on one shard (one engine write), half may span shards (the GSN path).
    int shard = store.shardOf(first);
    boolean anyShard = rnd.nextBoolean();
    List<byte[]> sameShard = new ArrayList<>();
    for (byte[] k : keys) {
      if (anyShard || store.shardOf(k) == shard) {
        sameShard.add(k);
      }
    }
    Batch batch = new Batch();
    int n = 1 + rnd.nextInt(6);
    for (int i = 0; i < n; i++) {
      byte[] k = sameShard.get(rnd.nextInt(sameShard.size()));
      if (rnd.nextInt(4) == 0) {
        batch.delete(k);
        model.remove(k);
      } else {
        byte[] v = Keys.randomValue(rnd, 64);
        batch.put(k, v);
        model.put(k, v);
      }
    }
    return batch;
  }

  private static void joinAll(List<CompletableFuture<?>> pending) {
    for (CompletableFuture<?> f : pending) {
      f.join();
    }
    pending.clear();
  }

  private static void assertValues(List<byte[]> expected, List<byte[]> actual, String what) {
    assertEquals(expected.size(), actual.size(), what);
    for (int i = 0; i < expected.size(); i++) {
      assertArrayEquals(expected.get(i), actual.get(i), what + " at " + i);
    }
  }

  private static void verifyAll(P2kv store, List<List<byte[]>> pools, List<TreeMap<byte[], byte[]>> models, String what) {
    for (int t = 0; t < pools.size(); t++) {
      List<byte[]> keys = pools.get(t);
      List<byte[]> expected = new ArrayList<>();
      for (byte[] k : keys) {
        expected.add(models.get(t).get(k));
      }
      assertValues(expected, store.multiGet(keys), what + " thread " + t);
      for (byte[] k : keys) {
        assertArrayEquals(models.get(t).get(k), store.get(k), what);
      }
    }
  }
}
