package io.p2kv.ycsb;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.ShardStats;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@code p2kv.maxdurablebatch} and {@code p2kv.maxdurablebatchbytes} reach the store: with {@code
 * p2kv.sync=true} and 16 concurrent writers (whose group commit would otherwise put nearly all of
 * them into one fsync), no engine write holds more requests than the property allows, and every
 * write reads back.
 */
class DurableBatchPropertyTest {
  private static final int WRITERS = 16;
  private static final int PUTS_PER_WRITER = 40;

  @TempDir Path tmp;

  @ParameterizedTest(name = "{0}={1}: at most {2} writes per fsync")
  @CsvSource({
    // 3 operations per durable run.
    "p2kv.maxdurablebatch, 3, 3",
    // 1 payload byte per durable run: every request is larger, so each runs alone.
    "p2kv.maxdurablebatchbytes, 1, 1",
  })
  void shouldCapEveryDurableRunAtTheProperty(String property, String value, long maxPerWrite) throws Exception {
    BindingConfig config =
        BindingConfig.parse(
            BindingConfigTest.props(
                "p2kv.dir", tmp.resolve("store").toString(),
                "p2kv.sync", "true",
                "p2kv.shards", "1",
                "p2kv.memorybudgetmb", "32",
                property, value));
    try (YcsbStore store = new P2kvYcsbClient().open(config)) {
      CyclicBarrier start = new CyclicBarrier(WRITERS);
      ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
      try {
        List<Future<?>> done = new ArrayList<>();
        for (int w = 0; w < WRITERS; w++) {
          int writer = w;
          done.add(
              pool.submit(
                  () -> {
                    start.await();
                    for (int i = 0; i < PUTS_PER_WRITER; i++) {
                      store.put(key(writer, i), key(writer, i));
                    }
                    return null;
                  }));
        }
        for (Future<?> f : done) {
          f.get();
        }
      } finally {
        pool.shutdownNow();
      }
      ShardStats shard = ((P2kvYcsbClient.Store) store).p2kv().stats().shards().get(0);
      assertEquals(WRITERS * PUTS_PER_WRITER, shard.writeOps(), "every put written");
      assertTrue(
          shard.maxWriteBatch() >= 1 && shard.maxWriteBatch() <= maxPerWrite,
          "largest durable write " + shard.maxWriteBatch() + ", allowed " + maxPerWrite);
      for (int w = 0; w < WRITERS; w++) {
        for (int i = 0; i < PUTS_PER_WRITER; i++) {
          assertArrayEquals(key(w, i), store.get(key(w, i)));
        }
      }
    }
  }

  private static byte[] key(int writer, int i) {
    return ("user" + writer + "-" + i).getBytes(StandardCharsets.UTF_8);
  }
}
