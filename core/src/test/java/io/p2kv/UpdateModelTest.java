package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Updates, merges and increments mixed with puts, deletes and batches (single- and cross-shard) of
 * the same keys, mostly async so that the workers take them in runs, from several threads at once,
 * each on its own small pool of keys: every update's result must be the model's value after
 * applying the thread's operations in the order it issued them (queue order), a throwing function
 * must change nothing, and the store must equal the model at the end and after a reopen.
 */
class UpdateModelTest {
  private static final int THREADS = 4;
  private static final int OPS_PER_THREAD = 600;
  private static final int KEYS_PER_THREAD = 6; // few keys: runs often hold several writes of one key

  @TempDir Path tmp;

  static List<org.junit.jupiter.params.provider.Arguments> configs() {
    return StoreMatrix.configs();
  }

  /** Appends one byte; absent counts as empty. */
  private static UnaryOperator<byte[]> append(byte b) {
    return v -> {
      byte[] out = v == null ? new byte[1] : Arrays.copyOf(v, v.length + 1);
      out[out.length - 1] = b;
      return out;
    };
  }

  /** Deletes values that grew past 6 bytes, else appends. */
  private static UnaryOperator<byte[]> appendOrDeleteLong(byte b) {
    UnaryOperator<byte[]> append = append(b);
    return v -> v != null && v.length > 6 ? null : append.apply(v);
  }

  private static final MergeOperator XOR = (existing, operand) -> {
    byte[] out = existing == null ? new byte[operand.length] : Arrays.copyOf(existing, Math.max(existing.length, operand.length));
    for (int i = 0; i < operand.length; i++) {
      out[i] ^= operand[i];
    }
    return out;
  };

  @ParameterizedTest(name = "{0}")
  @MethodSource("configs")
  void shouldApplyUpdatesInQueueOrderWithTheWritesOfTheirKeys(StoreMatrix.Config config) throws Exception {
    TestSeeds.run(getClass(), "shouldApplyUpdatesInQueueOrderWithTheWritesOfTheirKeys: " + config,
        seed -> run(config, seed));
  }

  private void run(StoreMatrix.Config config, long seed) throws Exception {
    Path dir = tmp.resolve("store");
    Random seeds = new Random(seed);
    List<List<byte[]>> pools = new ArrayList<>();
    for (int t = 0; t < THREADS; t++) {
      List<byte[]> keys = new ArrayList<>();
      for (int i = 0; i < KEYS_PER_THREAD; i++) {
        keys.add(new byte[] {(byte) t, (byte) i});
      }
      pools.add(keys);
    }
    List<TreeMap<byte[], byte[]>> models = new ArrayList<>();
    try (P2kv store = config.builder().mergeOperator("xor", XOR).open(dir)) {
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      List<Future<TreeMap<byte[], byte[]>>> results = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        List<byte[]> keys = pools.get(t);
        long threadSeed = seeds.nextLong();
        results.add(pool.submit(() -> runThread(store, config, keys, new Random(threadSeed))));
      }
      for (Future<TreeMap<byte[], byte[]>> r : results) {
        models.add(r.get(120, TimeUnit.SECONDS));
      }
      pool.shutdown();
      verify(store, pools, models, config + " at the end");
      assertTrue(store.stats().updates() > 0);
    }
    try (P2kv store = config.builder().open(dir)) {
      verify(store, pools, models, config + " after reopen");
    }
  }

  private static TreeMap<byte[], byte[]> runThread(P2kv store, StoreMatrix.Config config, List<byte[]> keys, Random rnd) {
    TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);
    List<CompletableFuture<?>> pending = new ArrayList<>();
    for (int op = 0; op < OPS_PER_THREAD; op++) {
      byte[] key = keys.get(rnd.nextInt(keys.size()));
      int kind = rnd.nextInt(12);
      boolean async = rnd.nextInt(4) != 0;
      switch (kind) {
        case 0, 1 -> {
          byte[] v = Keys.randomValue(rnd, 4);
          if (async) {
            pending.add(store.putAsync(key, v));
          } else {
            store.put(key, v);
          }
          model.put(key, v);
        }
        case 2 -> {
          if (async) {
            pending.add(store.deleteAsync(key));
          } else {
            store.delete(key);
          }
          model.remove(key);
        }
        case 3 -> {
          // A batch over this thread's keys: on one shard or across shards.
          Batch batch = new Batch();
          for (int i = 0, n = 1 + rnd.nextInt(3); i < n; i++) {
            byte[] k = keys.get(rnd.nextInt(keys.size()));
            if (rnd.nextInt(3) == 0) {
              batch.delete(k);
              model.remove(k);
            } else {
              byte[] v = Keys.randomValue(rnd, 4);
              batch.put(k, v);
              model.put(k, v);
            }
          }
          if (async) {
            pending.add(store.writeAsync(batch));
          } else {
            store.write(batch);
          }
        }
        case 4, 5, 6 -> {
          UnaryOperator<byte[]> fn = kind == 6 ? appendOrDeleteLong((byte) op) : append((byte) op);
          byte[] expected = fn.apply(copy(model.get(key)));
          put(model, key, expected);
          if (async) {
            pending.add(store.updateAsync(key, fn).thenAccept(v -> assertArrayEquals(expected, v, config + " updateAsync")));
          } else {
            assertArrayEquals(expected, store.update(key, fn), config + " update");
          }
        }
        case 7 -> {
          // Throws after spoiling its argument: fails alone, changes nothing.
          UnaryOperator<byte[]> fn = v -> {
            if (v != null && v.length > 0) {
              v[0] ^= 0x55;
            }
            throw new IllegalStateException("model");
          };
          if (async) {
            pending.add(store.updateAsync(key, fn).handle((v, e) -> {
              assertInstanceOf(UpdateFunctionException.class, e instanceof CompletionException ? e.getCause() : e);
              return null;
            }));
          } else {
            assertThrows(UpdateFunctionException.class, () -> store.update(key, fn));
          }
        }
        case 8 -> {
          byte[] operand = Keys.randomValue(rnd, 3);
          byte[] expected = XOR.merge(copy(model.get(key)), operand);
          put(model, key, expected);
          if (async) {
            pending.add(store.mergeAsync(key, operand, "xor").thenAccept(v -> assertArrayEquals(expected, v, config + " mergeAsync")));
          } else {
            assertArrayEquals(expected, store.merge(key, operand, "xor"), config + " merge");
          }
        }
        case 9 -> {
          byte[] current = model.get(key);
          long delta = rnd.nextInt(100) - 50;
          if (current != null && current.length != 8) {
            if (async) {
              pending.add(store.incrementAsync(key, delta).handle((v, e) -> {
                assertInstanceOf(IllegalStateException.class, e instanceof CompletionException ? e.getCause() : e);
                return null;
              }));
            } else {
              assertThrows(IllegalStateException.class, () -> store.increment(key, delta));
            }
          } else {
            long expected = (current == null ? 0 : ByteBuffer.wrap(current).getLong()) + delta;
            model.put(key, ByteBuffer.allocate(8).putLong(expected).array());
            if (async) {
              pending.add(store.incrementAsync(key, delta).thenAccept(v -> assertEquals(expected, v, config + " incrementAsync")));
            } else {
              assertEquals(expected, store.increment(key, delta), config + " increment");
            }
          }
        }
        default -> {
          // A read: the worker path sees the queued writes; the direct path only completed ones.
          if (config.readPath() == ReadPath.DIRECT) {
            joinAll(pending);
          }
          byte[] expected = model.get(key);
          if (async) {
            pending.add(store.getAsync(key).thenAccept(v -> assertArrayEquals(expected, v, config + " getAsync")));
          } else {
            assertArrayEquals(expected, store.get(key), config + " get");
          }
        }
      }
      if (pending.size() > 48) {
        joinAll(pending);
      }
    }
    joinAll(pending);
    return model;
  }

  private static byte[] copy(byte[] v) {
    return v == null ? null : v.clone();
  }

  private static void put(TreeMap<byte[], byte[]> model, byte[] key, byte[] value) {
    if (value == null) {
      model.remove(key);
    } else {
      model.put(key, value);
    }
  }

  private static void joinAll(List<CompletableFuture<?>> pending) {
    for (CompletableFuture<?> f : pending) {
      f.join();
    }
    pending.clear();
  }

  private static void verify(P2kv store, List<List<byte[]>> pools, List<TreeMap<byte[], byte[]>> models, String what) {
    for (int t = 0; t < pools.size(); t++) {
      List<byte[]> keys = pools.get(t);
      List<byte[]> values = store.multiGet(keys);
      for (int i = 0; i < keys.size(); i++) {
        assertArrayEquals(models.get(t).get(keys.get(i)), values.get(i), what + ": key " + Arrays.toString(keys.get(i)));
      }
    }
  }
}
