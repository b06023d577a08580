package io.p2kv.systemtest;

import io.p2kv.TestSeeds;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.p2kv.Batch;
import io.p2kv.P2kv;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Long random operation sequences through the public API only, from several threads, against a
 * model (a {@code TreeMap} in unsigned byte order per thread, over disjoint key pools), with the
 * store closed and reopened between rounds. Batches may span shards.
 */
class SystemModelTest {
  private static final int THREADS = 4;
  private static final int ROUNDS = 4;
  private static final int OPS_PER_ROUND = 600;

  @TempDir Path tmp;

  @ParameterizedTest(name = "shards={0}")
  @ValueSource(ints = {1, 4, 8})
  void shouldMatchTheModelAcrossRoundsAndReopens(int shards) throws Exception {
    TestSeeds.run(getClass(), "shouldMatchTheModelAcrossRoundsAndReopens: shards=" + shards,
        seed -> shouldMatchTheModelAcrossRoundsAndReopens(shards, seed));
  }

  private void shouldMatchTheModelAcrossRoundsAndReopens(int shards, long seed) throws Exception {
    Random seeds = new Random(seed);
    List<List<byte[]>> pools = new ArrayList<>();
    List<TreeMap<byte[], byte[]>> models = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      TreeMap<byte[], Boolean> distinct = new TreeMap<>(Arrays::compareUnsigned);
      while (distinct.size() < 60) {
        byte[] k = new byte[1 + seeds.nextInt(12)];
        seeds.nextBytes(k);
        k[0] = (byte) t; // disjoint pools
        distinct.put(k, true);
      }
      pools.add(new ArrayList<>(distinct.keySet()));
      models.add(new TreeMap<>(Arrays::compareUnsigned));
    }
    for (int round = 0; round < ROUNDS; round++) {
      try (P2kv store = P2kv.builder().shards(shards).queueCapacity(64).open(tmp)) {
        assertEquals(shards, store.shardCount());
        verify(store, pools, models, "start of round " + round);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<Future<?>> done = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
          int thread = t;
          long threadSeed = seeds.nextLong();
          done.add(pool.submit(() -> run(store, pools.get(thread), models.get(thread), new Random(threadSeed))));
        }
        for (Future<?> f : done) {
          f.get(120, TimeUnit.SECONDS);
        }
        pool.shutdown();
        verify(store, pools, models, "end of round " + round);
      }
    }
  }

  private static void run(P2kv store, List<byte[]> keys, TreeMap<byte[], byte[]> model, Random rnd) {
    List<CompletableFuture<?>> pending = new ArrayList<>();
    for (int i = 0; i < OPS_PER_ROUND; i++) {
      byte[] key = keys.get(rnd.nextInt(keys.size()));
      switch (rnd.nextInt(7)) {
        case 0, 1 -> {
          byte[] v = new byte[rnd.nextInt(200)];
          rnd.nextBytes(v);
          store.put(key, v);
          model.put(key, v);
        }
        case 2 -> {
          byte[] v = new byte[rnd.nextInt(50)];
          rnd.nextBytes(v);
          pending.add(store.putAsync(key, v));
          model.put(key, v);
        }
        case 3 -> {
          store.delete(key);
          model.remove(key);
        }
        case 4 -> {
          Batch batch = new Batch();
          for (int j = 0, n = 1 + rnd.nextInt(8); j < n; j++) {
            byte[] k = keys.get(rnd.nextInt(keys.size()));
            if (rnd.nextInt(3) == 0) {
              batch.delete(k);
              model.remove(k);
            } else {
              byte[] v = new byte[rnd.nextInt(30)];
              rnd.nextBytes(v);
              batch.put(k, v);
              model.put(k, v);
            }
          }
          store.write(batch);
        }
        case 5 -> {
          for (CompletableFuture<?> f : pending) {
            f.join();
          }
          pending.clear();
          assertArrayEquals(model.get(key), store.get(key));
        }
        default -> {
          for (CompletableFuture<?> f : pending) {
            f.join();
          }
          pending.clear();
          List<byte[]> ks = new ArrayList<>();
          for (int j = 0, n = 1 + rnd.nextInt(20); j < n; j++) {
            ks.add(keys.get(rnd.nextInt(keys.size())));
          }
          List<byte[]> vs = store.multiGet(ks);
          for (int j = 0; j < ks.size(); j++) {
            assertArrayEquals(model.get(ks.get(j)), vs.get(j));
          }
        }
      }
    }
    for (CompletableFuture<?> f : pending) {
      f.join();
    }
  }

  private static void verify(P2kv store, List<List<byte[]>> pools, List<TreeMap<byte[], byte[]>> models, String when) {
    for (int t = 0; t < pools.size(); t++) {
      List<byte[]> values = store.multiGet(pools.get(t));
      for (int i = 0; i < pools.get(t).size(); i++) {
        assertArrayEquals(models.get(t).get(pools.get(t).get(i)), values.get(i), when + ", thread " + t + ", key " + i);
      }
    }
  }
}
