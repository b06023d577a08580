package io.p2kv;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.MBeanServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Read-modify-write on the workers: {@link P2kv#update}, {@link P2kv#merge}, {@link
 * P2kv#increment}, against RocksDB, from many threads.
 */
class UpdateTest {
  @TempDir Path tmp;

  private P2kv.Builder builder() {
    return P2kv.builder().shards(2).memoryBudgetBytes(64L << 20);
  }

  private static byte[] k(String s) {
    return s.getBytes(UTF_8);
  }

  private static long counter(byte[] value) {
    return ByteBuffer.wrap(value).getLong();
  }

  /** Runs {@code body(thread)} on {@code threads} threads started together; rethrows failures. */
  private static void concurrently(int threads, ThreadBody body) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    CyclicBarrier start = new CyclicBarrier(threads);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          start.await();
          body.run(thread);
          return null;
        }));
      }
      for (Future<?> f : done) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  interface ThreadBody {
    void run(int thread) throws Exception;
  }

  @Test
  void shouldCountExactlyWhenThreadsIncrementAFewHotKeys() throws Exception {
    int threads = 8;
    int increments = 2_000;
    byte[][] hot = {k("hot-a"), k("hot-b"), k("hot-c")};
    // Every value an increment returned, per key: exactly 1..count if none was lost or doubled.
    List<Set<Long>> seen = List.of(ConcurrentHashMap.newKeySet(), ConcurrentHashMap.newKeySet(), ConcurrentHashMap.newKeySet());
    AtomicInteger duplicates = new AtomicInteger();
    try (P2kv store = builder().open(tmp.resolve("s"))) {
      concurrently(threads, t -> {
        List<CompletableFuture<Long>> inFlight = new ArrayList<>();
        List<Integer> inFlightKey = new ArrayList<>();
        for (int i = 0; i < increments; i++) {
          int h = (t + i) % hot.length;
          if (t % 2 == 0) {
            if (!seen.get(h).add(store.increment(hot[h], 1))) {
              duplicates.incrementAndGet();
            }
          } else {
            inFlight.add(store.incrementAsync(hot[h], 1)); // many in flight: runs of increments
            inFlightKey.add(h);
            if (inFlight.size() == 64 || i == increments - 1) {
              for (int j = 0; j < inFlight.size(); j++) {
                if (!seen.get(inFlightKey.get(j)).add(inFlight.get(j).join())) {
                  duplicates.incrementAndGet();
                }
              }
              inFlight.clear();
              inFlightKey.clear();
            }
          }
        }
      });
      long total = 0;
      for (int h = 0; h < hot.length; h++) {
        long value = counter(store.get(hot[h]));
        assertEquals(seen.get(h).size(), value, "key " + h + ": one distinct result per increment");
        assertEquals(new TreeSet<>(seen.get(h)).last(), value);
        total += value;
      }
      assertEquals(0, duplicates.get(), "no two increments returned the same value");
      assertEquals((long) threads * increments, total);
      StoreStats stats = store.stats();
      assertEquals((long) threads * increments, stats.updates());
      assertTrue(stats.meanWriteBatch() > 1, "increments were batched: " + stats.meanWriteBatch());
    }
    try (P2kv store = builder().open(tmp.resolve("s"))) {
      long total = 0;
      for (byte[] key : hot) {
        total += counter(store.get(key));
      }
      assertEquals((long) threads * increments, total, "after reopen");
    }
  }

  /** A record as a set of fields, stored as sorted lines. */
  private static byte[] addField(byte[] record, String field) {
    TreeSet<String> fields = fields(record);
    fields.add(field);
    return String.join("\n", fields).getBytes(UTF_8);
  }

  private static TreeSet<String> fields(byte[] record) {
    TreeSet<String> fields = new TreeSet<>();
    if (record != null && record.length > 0) {
      fields.addAll(Arrays.asList(new String(record, UTF_8).split("\n")));
    }
    return fields;
  }

  @Test
  void shouldLoseNoFieldWhenThreadsEachAddFieldsToOneRecord() throws Exception {
    int threads = 8;
    int fieldsPerThread = 150;
    byte[] record = k("record");
    try (P2kv store = builder().open(tmp.resolve("s"))) {
      store.put(record, k("base"));
      concurrently(threads, t -> {
        List<CompletableFuture<byte[]>> pending = new ArrayList<>();
        for (int i = 0; i < fieldsPerThread; i++) {
          String field = "t" + t + "-" + i;
          if (i % 3 == 0) {
            byte[] now = store.update(record, v -> addField(v, field));
            assertTrue(fields(now).contains(field), "the result holds the field just added");
          } else {
            pending.add(store.updateAsync(record, v -> addField(v, field)));
          }
        }
        for (CompletableFuture<byte[]> f : pending) {
          f.join();
        }
      });
      TreeSet<String> all = fields(store.get(record));
      assertEquals(1 + threads * fieldsPerThread, all.size(), "no update lost another's field");
      assertTrue(all.contains("base") && all.contains("t7-149"));
    }
  }

  @Test
  void shouldFailOnlyAnUpdateWhoseFunctionThrows() throws Exception {
    try (P2kv store = builder().open(tmp.resolve("s"))) {
      byte[] key = k("key");
      store.put(key, k("1"));
      IllegalStateException boom = new IllegalStateException("boom");
      UpdateFunctionException e = assertThrows(UpdateFunctionException.class, () -> store.update(key, v -> {
        throw boom;
      }));
      assertSame(boom, e.getCause());
      assertTrue(e.getMessage().contains("boom"), e.getMessage());
      assertArrayEquals(k("1"), store.get(key), "nothing written");

      // Back to back, so the worker is likely to take them as one run: only the throwing one fails.
      for (int round = 0; round < 50; round++) {
        byte[] r = k("r" + round);
        CompletableFuture<Void> put = store.putAsync(r, k("a"));
        CompletableFuture<byte[]> failing = store.updateAsync(r, v -> {
          v[0] = 'x'; // its own copy: nobody else sees this
          throw new IllegalArgumentException("no");
        });
        CompletableFuture<byte[]> next = store.updateAsync(r, v -> (new String(v, UTF_8) + "b").getBytes(UTF_8));
        CompletableFuture<Long> counter = store.incrementAsync(k("c" + round), 1);
        put.join();
        assertInstanceOf(UpdateFunctionException.class, assertThrows(Exception.class, failing::join).getCause());
        assertArrayEquals(k("ab"), next.join());
        assertEquals(1L, counter.join());
        assertArrayEquals(k("ab"), store.get(r));
      }
      long failed = store.stats().shards().stream().mapToLong(ShardStats::failedRequests).sum();
      assertEquals(51, failed);
    }
  }

  @Test
  void shouldDeleteWhenTheFunctionReturnsNullAndLeaveAnAbsentKeyAbsent() {
    try (P2kv store = builder().open(tmp.resolve("s"))) {
      byte[] key = k("key");
      store.put(key, k("v"));
      assertNull(store.update(key, v -> null));
      assertNull(store.get(key));
      List<byte[]> given = new ArrayList<>();
      assertNull(store.update(key, v -> {
        given.add(v);
        return null;
      }));
      assertEquals(1, given.size());
      assertNull(given.get(0), "an absent key is given as null");
      assertNull(store.get(key));
      assertArrayEquals(k("new"), store.update(key, v -> v == null ? k("new") : v));
      assertArrayEquals(new byte[0], store.updateAsync(key, v -> new byte[0]).join(), "the empty value is a value");
      assertArrayEquals(new byte[0], store.get(key));
    }
  }

  @Test
  void shouldRefuseABlockingStoreCallFromAFunction() {
    try (P2kv store = builder().open(tmp.resolve("s"))) {
      byte[] key = k("key");
      UpdateFunctionException e = assertThrows(UpdateFunctionException.class, () -> store.update(key, v -> {
        store.put(k("other"), k("x")); // would wait for its own worker
        return k("never");
      }));
      IllegalStateException cause = assertInstanceOf(IllegalStateException.class, e.getCause());
      assertTrue(cause.getMessage().contains("would deadlock"), cause.getMessage());
      assertThrows(UpdateFunctionException.class, () -> store.update(key, v -> k("x" + store.increment(k("c"), 1))));
      assertNull(store.get(key));
      assertNull(store.get(k("other")));
    }
  }

  @Test
  void shouldFailAFunctionThatReturnsAnOversizedValue() {
    try (P2kv store = builder().open(tmp.resolve("s"))) {
      byte[] key = k("key");
      UpdateFunctionException e = assertThrows(
          UpdateFunctionException.class, () -> store.update(key, v -> new byte[P2kv.MAX_VALUE_BYTES + 1]));
      assertTrue(e.getMessage().contains("returned a value of " + (P2kv.MAX_VALUE_BYTES + 1) + " bytes"), e.getMessage());
      assertNull(store.get(key));
    }
  }

  @Test
  void shouldCheckArgumentsAtOnce() {
    try (P2kv store = builder().open(tmp.resolve("s"))) {
      assertThrows(NullPointerException.class, () -> store.update(null, v -> v));
      assertThrows(NullPointerException.class, () -> store.update(k("k"), null));
      assertThrows(NullPointerException.class, () -> store.updateAsync(k("k"), null));
      assertThrows(IllegalArgumentException.class, () -> store.update(new byte[P2kv.MAX_KEY_BYTES + 1], v -> v));
      assertThrows(NullPointerException.class, () -> store.increment(null, 1));
      assertThrows(NullPointerException.class, () -> store.merge(k("k"), null, "x"));
      assertThrows(NullPointerException.class, () -> store.merge(k("k"), k("o"), null));
    }
  }

  @Test
  void shouldKeepCountersAsEightByteBigEndianLongs() {
    try (P2kv store = builder().open(tmp.resolve("s"))) {
      byte[] key = k("views");
      assertEquals(5, store.increment(key, 5));
      assertEquals(2, store.incrementAsync(key, -3).join());
      assertArrayEquals(ByteBuffer.allocate(8).putLong(2).array(), store.get(key));
      store.put(key, ByteBuffer.allocate(8).putLong(-10).array());
      assertEquals(-9, store.increment(key, 1), "a counter put by the application");
      assertEquals(-9, store.increment(key, 0));

      store.put(key, k("12"));
      IllegalStateException notCounter = assertThrows(IllegalStateException.class, () -> store.increment(key, 1));
      assertTrue(notCounter.getMessage().contains("2 bytes, not a counter"), notCounter.getMessage());
      assertInstanceOf(IllegalStateException.class,
          assertThrows(Exception.class, () -> store.incrementAsync(key, 1).join()).getCause());
      assertArrayEquals(k("12"), store.get(key), "left alone");

      store.put(key, ByteBuffer.allocate(8).putLong(Long.MAX_VALUE).array());
      assertThrows(ArithmeticException.class, () -> store.increment(key, 1));
      assertEquals(Long.MAX_VALUE, counter(store.get(key)));
      assertEquals(Long.MIN_VALUE, store.increment(k("low"), Long.MIN_VALUE));
    }
  }

  @Test
  void shouldMergeWithTheOperatorsDeclaredAtOpenOnly() {
    MergeOperator append = (existing, operand) -> {
      if (existing == null) {
        return operand;
      }
      byte[] out = Arrays.copyOf(existing, existing.length + operand.length);
      System.arraycopy(operand, 0, out, existing.length, operand.length);
      return out;
    };
    MergeOperator max = (existing, operand) ->
        existing == null || Arrays.compareUnsigned(operand, existing) > 0 ? operand : existing;
    Path dir = tmp.resolve("s");
    try (P2kv store = builder().mergeOperator("append", append).mergeOperator("max", max).open(dir)) {
      byte[] log = k("log");
      assertArrayEquals(k("a"), store.merge(log, k("a"), "append"));
      assertArrayEquals(k("ab"), store.mergeAsync(log, k("b"), "append").join());
      assertArrayEquals(k("m"), store.merge(k("top"), k("m"), "max"));
      assertArrayEquals(k("m"), store.merge(k("top"), k("c"), "max"));
      IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> store.merge(log, k("c"), "concat"));
      assertTrue(unknown.getMessage().contains("no merge operator named \"concat\"")
          && unknown.getMessage().contains("[append, max]"), unknown.getMessage());
      assertThrows(IllegalArgumentException.class, () -> store.mergeAsync(log, k("c"), "concat"), "thrown at once");
      assertArrayEquals(k("ab"), store.get(log));
    }
    // Reopened without operators: the values are plain values; merging needs an operator declared now.
    try (P2kv store = builder().open(dir)) {
      assertArrayEquals(k("ab"), store.get(k("log")));
      assertThrows(IllegalArgumentException.class, () -> store.merge(k("log"), k("c"), "append"));
    }
    try (P2kv store = builder().mergeOperator("append", append).open(dir)) {
      assertArrayEquals(k("abc"), store.merge(k("log"), k("c"), "append"));
      MergeOperator throwing = (existing, operand) -> {
        throw new UnsupportedOperationException("no");
      };
      assertThrows(IllegalArgumentException.class, () -> P2kv.builder().mergeOperator("append", append).mergeOperator("append", throwing));
      assertThrows(IllegalArgumentException.class, () -> P2kv.builder().mergeOperator("", append));
      assertThrows(NullPointerException.class, () -> P2kv.builder().mergeOperator("x", null));
    }
    try (P2kv store = builder().mergeOperator("fail", (existing, operand) -> {
      throw new UnsupportedOperationException("no");
    }).open(dir)) {
      UpdateFunctionException e = assertThrows(UpdateFunctionException.class, () -> store.merge(k("log"), k("d"), "fail"));
      assertInstanceOf(UnsupportedOperationException.class, e.getCause());
      assertArrayEquals(k("abc"), store.get(k("log")));
    }
  }

  @Test
  void shouldReportHowLongFunctionsTookInStatsAndJmx() throws Exception {
    try (P2kv store = builder().shards(1).jmx(true).recordLatency(true).open(tmp.resolve("s"))) {
      for (int i = 0; i < 10; i++) {
        store.update(k("k" + i), v -> k("v"));
      }
      store.update(k("slow"), v -> {
        try {
          Thread.sleep(30);
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
        return k("done");
      });
      store.increment(k("c"), 1);
      StoreStats stats = store.stats();
      ShardStats shard = stats.shards().get(0);
      assertEquals(12, shard.updates());
      assertEquals(12, stats.updates());
      assertTrue(shard.maxUpdateNanos() >= TimeUnit.MILLISECONDS.toNanos(30), "max " + shard.maxUpdateNanos());
      assertTrue(shard.updateNanos() >= shard.maxUpdateNanos());
      assertEquals(shard.maxUpdateNanos(), stats.maxUpdateNanos());
      assertEquals(12, stats.latency(OperationType.UPDATE).orElseThrow().count());
      MBeanServer server = ManagementFactory.getPlatformMBeanServer();
      var bean = io.p2kv.internal.metrics.JmxRegistration.storeName(store.dir());
      assertEquals(12L, server.getAttribute(bean, "Updates"));
      assertTrue((Long) server.getAttribute(bean, "MaxUpdateNanos") >= TimeUnit.MILLISECONDS.toNanos(30));
    }
  }

  @Test
  void shouldSeeEveryWriteQueuedBeforeAnUpdateAndKeepQueueOrder() {
    try (P2kv store = builder().open(tmp.resolve("s"))) {
      for (int round = 0; round < 200; round++) {
        byte[] key = k("q" + round);
        List<CompletableFuture<?>> fs = new ArrayList<>();
        fs.add(store.putAsync(key, k("1")));
        CompletableFuture<byte[]> a = store.updateAsync(key, v -> (new String(v, UTF_8) + "2").getBytes(UTF_8));
        fs.add(store.writeAsync(new Batch().put(key, k("3")).put(k("other" + round), k("x"))));
        CompletableFuture<byte[]> b = store.updateAsync(key, v -> (new String(v, UTF_8) + "4").getBytes(UTF_8));
        fs.add(store.deleteAsync(key));
        CompletableFuture<byte[]> c = store.updateAsync(key, v -> v == null ? k("5") : k("wrong"));
        assertArrayEquals(k("12"), a.join());
        assertArrayEquals(k("34"), b.join());
        assertArrayEquals(k("5"), c.join());
        fs.forEach(CompletableFuture::join);
        assertArrayEquals(k("5"), store.get(key));
      }
    }
  }

  @Test
  void shouldGiveEachFunctionAnArrayOfItsOwn() {
    try (P2kv store = builder().shards(1).open(tmp.resolve("s"))) {
      Set<Object> arrays = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
      List<CompletableFuture<byte[]>> results = new ArrayList<>();
      byte[] put = k("a");
      CompletableFuture<Void> p = store.putAsync(k("key"), put);
      for (int i = 0; i < 20; i++) {
        results.add(store.updateAsync(k("key"), v -> {
          assertTrue(arrays.add(v), "a fresh array for every function");
          v[0]++; // modifies its own copy in place and returns it
          return v;
        }));
      }
      p.join();
      for (int i = 0; i < 20; i++) {
        assertEquals('a' + i + 1, results.get(i).join()[0], "results are not changed by later functions");
      }
      assertArrayEquals(k("a"), put, "the put's array is not changed");
    }
  }
}
