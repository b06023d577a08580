package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Cross-shard atomic batches through the public API. */
class CrossShardBatchTest {
  @TempDir Path tmp;

  private static byte[] amount(long v) {
    return ByteBuffer.allocate(8).putLong(v).array();
  }

  private static long amount(byte[] v) {
    return ByteBuffer.wrap(v).getLong();
  }

  @ParameterizedTest
  @EnumSource(Durability.class)
  void shouldApplyABatchAcrossEveryShardAndKeepItAcrossReopen(Durability durability) {
    byte[][] keys;
    try (P2kv store = P2kv.builder().shards(4).durability(durability).open(tmp)) {
      keys = FaultTest.oneKeyPerShard(store, "k");
      store.put(keys[1], Keys.key("before"));
      Batch batch = new Batch();
      for (byte[] k : keys) {
        batch.put(k, k);
      }
      batch.delete(keys[1]).put(keys[3], Keys.key("last wins"));
      store.write(batch);
      assertArrayEquals(keys[0], store.get(keys[0]));
      assertNull(store.get(keys[1]));
      assertArrayEquals(Keys.key("last wins"), store.get(keys[3]));
      assertEquals(4, store.stats().shards().stream().mapToLong(ShardStats::crossShardParts).sum());
      store.writeAsync(new Batch().put(keys[0], Keys.key("async")).put(keys[2], Keys.key("async"))).join();
    }
    try (P2kv store = P2kv.builder().durability(durability).open(tmp)) {
      assertArrayEquals(Keys.key("async"), store.get(keys[0]));
      assertNull(store.get(keys[1]));
      assertArrayEquals(Keys.key("async"), store.get(keys[2]));
      assertArrayEquals(Keys.key("last wins"), store.get(keys[3]));
    }
  }

  @Test
  void shouldKeepTheTotalOfConcurrentCrossShardTransfersWithoutDeadlock() throws Exception {
    TestSeeds.run(getClass(), "shouldKeepTheTotalOfConcurrentCrossShardTransfersWithoutDeadlock",
        this::shouldKeepTheTotalOfConcurrentCrossShardTransfersWithoutDeadlock);
  }

  private void shouldKeepTheTotalOfConcurrentCrossShardTransfersWithoutDeadlock(long seed) throws Exception {
    int threads = 8;
    int accountsPerThread = 6;
    long initial = 1_000;
    try (P2kv store = P2kv.builder().shards(4).queueCapacity(8).open(tmp)) {
      // Each thread owns its accounts (spread over the shards by their hash), so it can read a
      // balance and write it back; transfers of different threads interleave on every shard.
      for (int t = 0; t < threads; t++) {
        for (int a = 0; a < accountsPerThread; a++) {
          store.put(Keys.key("acct" + t + "-" + a), amount(initial));
        }
      }
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      List<Future<?>> done = new ArrayList<>();
      Random seeds = new Random(seed);
      for (int t = 0; t < threads; t++) {
        int thread = t;
        long threadSeed = seeds.nextLong();
        done.add(pool.submit(() -> {
          Random rnd = new Random(threadSeed);
          for (int i = 0; i < 150; i++) {
            int from = rnd.nextInt(accountsPerThread);
            int to = (from + 1 + rnd.nextInt(accountsPerThread - 1)) % accountsPerThread;
            byte[] fk = Keys.key("acct" + thread + "-" + from);
            byte[] tk = Keys.key("acct" + thread + "-" + to);
            long amount = 1 + rnd.nextInt(10);
            Batch transfer =
                new Batch().put(fk, amount(amount(store.get(fk)) - amount)).put(tk, amount(amount(store.get(tk)) + amount));
            if (i % 3 == 0) {
              store.writeAsync(transfer).join();
            } else {
              store.write(transfer);
            }
            // A single-shard write in between, interleaving with other threads' cross-shard parts.
            store.put(Keys.key("noise" + thread), amount(i));
          }
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(120, TimeUnit.SECONDS);
      }
      pool.shutdown();
      for (int t = 0; t < threads; t++) {
        long total = 0;
        for (int a = 0; a < accountsPerThread; a++) {
          total += amount(store.get(Keys.key("acct" + t + "-" + a)));
        }
        assertEquals(accountsPerThread * initial, total, "thread " + t + "'s accounts keep their total");
      }
      assertTrue(store.stats().shards().stream().mapToLong(ShardStats::crossShardParts).sum() > 0);
    }
  }

  @Test
  void shouldServeManyInFlightAsyncCrossShardBatches() {
    try (P2kv store = P2kv.builder().shards(3).open(tmp)) {
      List<CompletableFuture<Void>> fs = new ArrayList<>();
      for (int i = 0; i < 500; i++) {
        fs.add(store.writeAsync(new Batch().put(Keys.key("a" + i), amount(i)).put(Keys.key("b" + i), amount(-i))));
      }
      fs.forEach(CompletableFuture::join);
      for (int i = 0; i < 500; i++) {
        assertEquals(0, amount(store.get(Keys.key("a" + i))) + amount(store.get(Keys.key("b" + i))));
      }
    }
  }
}
