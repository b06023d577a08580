package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Per-caller ordering, read-your-writes and exactly-once completion. */
class OrderingTest {
  @TempDir Path tmp;

  private static byte[] intValue(int i) {
    return ByteBuffer.allocate(4).putInt(i).array();
  }

  @ParameterizedTest(name = "shards={0}")
  @ValueSource(ints = {1, 4})
  void shouldApplyOneCallersPipelinedWritesToAKeyInIssueOrder(int shards) {
    try (P2kv store = P2kv.builder().shards(shards).queueCapacity(64).readPath(ReadPath.WORKER).open(tmp)) {
      for (int k = 0; k < 8; k++) {
        byte[] key = Keys.key("key-" + k);
        List<CompletableFuture<Void>> fs = new ArrayList<>();
        List<CompletableFuture<byte[]>> reads = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
          fs.add(store.putAsync(key, intValue(i)));
          if (i % 50 == 0) {
            // Queued behind the puts issued so far on the same shard, so it sees value i exactly.
            reads.add(store.getAsync(key));
          }
        }
        for (int r = 0; r < reads.size(); r++) {
          assertArrayEquals(intValue(r * 50), reads.get(r).join(), "read " + r + " sees the writes queued before it");
        }
        fs.forEach(CompletableFuture::join);
        assertArrayEquals(intValue(499), store.get(key));
      }
    }
  }

  @ParameterizedTest(name = "readPath={0}")
  @ValueSource(strings = {"WORKER", "DIRECT"})
  void shouldLetEveryCallerReadItsOwnCompletedWrites(String readPath) throws Exception {
    try (P2kv store = P2kv.builder().shards(4).readPath(ReadPath.valueOf(readPath)).open(tmp)) {
      ExecutorService pool = Executors.newFixedThreadPool(8);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          for (int i = 0; i < 500; i++) {
            byte[] key = Keys.key("t" + thread + "-" + (i % 20));
            store.put(key, intValue(i));
            assertArrayEquals(intValue(i), store.get(key));
            if (i % 7 == 0) {
              store.delete(key);
              assertEquals(null, store.get(key));
            }
          }
        }));
      }
      for (Future<?> f : done) {
        f.get(60, TimeUnit.SECONDS);
      }
      pool.shutdown();
    }
  }

  @ParameterizedTest(name = "shards={0}")
  @ValueSource(ints = {1, 4})
  void shouldCompleteEveryCallbackExactlyOnceIncludingThoseQueuedAtClose(int shards) {
    int n = 20_000;
    AtomicIntegerArray calls = new AtomicIntegerArray(n);
    AtomicIntegerArray errors = new AtomicIntegerArray(n);
    P2kv store = P2kv.builder().shards(shards).open(tmp);
    for (int i = 0; i < n; i++) {
      int id = i;
      store.putAsync(Keys.key("k" + (i % 1000)), intValue(i), (v, e) -> {
        calls.incrementAndGet(id);
        if (e != null) {
          errors.incrementAndGet(id);
        }
      });
    }
    store.close();
    for (int i = 0; i < n; i++) {
      assertEquals(1, calls.get(i), "callback " + i + " ran exactly once");
      assertEquals(0, errors.get(i), "a request accepted before close is executed, not dropped");
    }
    try (P2kv reopened = P2kv.builder().open(tmp)) {
      for (int k = 0; k < 1000; k++) {
        // The last write to key k is value 19000 + k.
        assertArrayEquals(intValue(n - 1000 + k), reopened.get(Keys.key("k" + k)));
      }
      assertTrue(reopened.stats().shards().size() == shards);
    }
  }
}
