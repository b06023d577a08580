package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many virtual-thread callers on few carriers: the wait path must unmount (no {@code
 * synchronized}), or this test deadlocks. Runs on JDK 21+ (found by reflection, the library
 * targets 17).
 */
class VirtualThreadTest {
  @TempDir Path tmp;

  @Test
  void shouldServeThousandsOfBlockedVirtualThreadCallers() throws Exception {
    ExecutorService vexec = VirtualExecutors.newOrSkip();
    try (P2kv store = P2kv.builder().shards(2).readPath(ReadPath.WORKER).open(tmp)) {
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < 2000; t++) {
        byte[] k = Keys.key("vt" + t);
        fs.add(vexec.submit(() -> {
          for (int i = 0; i < 20; i++) {
            store.put(k, Keys.key("v" + i));
            assertArrayEquals(Keys.key("v" + i), store.get(k));
          }
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get(120, TimeUnit.SECONDS);
      }
    } finally {
      vexec.shutdown();
    }
  }

  @Test
  void shouldAcknowledgeDurablePutsOfManyVirtualThreadsAndKeepThemAfterReopen() throws Exception {
    ExecutorService vexec = VirtualExecutors.newOrSkip();
    int threads = 256;
    int puts = 8;
    try (P2kv store = P2kv.builder().shards(1).durability(Durability.SYNC).maxDurableBatch(32).open(tmp)) {
      List<Future<?>> fs = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        fs.add(vexec.submit(() -> {
          for (int i = 0; i < puts; i++) {
            store.put(Keys.key("vt" + thread + "-" + i), Keys.key("v" + i));
          }
          return null;
        }));
      }
      for (Future<?> f : fs) {
        f.get(120, TimeUnit.SECONDS);
      }
      long largest = store.stats().shards().get(0).maxWriteBatch();
      org.junit.jupiter.api.Assertions.assertTrue(largest <= 32, "durable batch of " + largest + " over the cap 32");
    } finally {
      vexec.shutdown();
    }
    try (P2kv store = P2kv.builder().open(tmp)) {
      for (int t = 0; t < threads; t++) {
        for (int i = 0; i < puts; i++) {
          assertArrayEquals(Keys.key("v" + i), store.get(Keys.key("vt" + t + "-" + i)), "acknowledged vt" + t + "-" + i);
        }
      }
    }
  }
}
