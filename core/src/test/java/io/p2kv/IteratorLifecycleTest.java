package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Iterators are native resources: leftovers are force-closed when the store closes, closing is
 * safe while another thread is inside an iterator, and a failed open leaks nothing.
 */
class IteratorLifecycleTest {
  @TempDir Path tmp;

  private static P2kv.Builder builder(int shards) {
    return P2kv.builder().shards(shards).memoryBudgetBytes(64L << 20);
  }

  private static void fill(P2kv store, int keys) {
    List<CompletableFuture<Void>> fs = new ArrayList<>();
    for (int i = 0; i < keys; i++) {
      fs.add(store.putAsync(Keys.key(String.format("k%06d", i)), Keys.key("v" + i)));
    }
    fs.forEach(CompletableFuture::join);
  }

  @Test
  void shouldForceCloseIteratorsTheApplicationLeftOpenWhenTheStoreCloses() {
    TestSeeds.run(getClass(), "shouldForceCloseIteratorsTheApplicationLeftOpenWhenTheStoreCloses",
        this::shouldForceCloseIteratorsTheApplicationLeftOpenWhenTheStoreCloses);
  }

  private void shouldForceCloseIteratorsTheApplicationLeftOpenWhenTheStoreCloses(long seed) {
    P2kv store = builder(4).open(tmp);
    fill(store, 500);
    Random rnd = new Random(seed);
    List<KvIterator> abandoned = new ArrayList<>();
    int closed = 0;
    for (int i = 0; i < 2000; i++) {
      KvIterator it =
          switch (i % 4) {
            case 0 -> store.iterator(null, null);
            case 1 -> store.reverseIterator(Keys.key("k000100"), Keys.key("k000400"));
            case 2 -> store.prefixIterator(Keys.key("k0001"));
            default -> store.iterator(Keys.key("k000300"), null);
          };
      // Leave them in every state: fresh, part-way, exhausted, re-seeked.
      for (int n = rnd.nextInt(3) == 0 ? 1000 : rnd.nextInt(20); n > 0 && it.hasNext(); n--) {
        it.next();
      }
      if (rnd.nextInt(5) == 0) {
        it.seek(Keys.key("k000250"));
      }
      if (rnd.nextBoolean()) {
        it.close();
        closed++;
      } else {
        abandoned.add(it);
      }
    }
    assertEquals(abandoned.size(), store.core().openIteratorCount(), "closed iterators are forgotten");

    store.close();

    assertEquals(abandoned.size(), store.core().iteratorsClosedByClose(), "close counted the leftovers");
    assertEquals(0, store.core().openIteratorCount());
    assertTrue(closed > 0 && !abandoned.isEmpty());
    for (KvIterator it : abandoned) {
      assertThrows(StoreClosedException.class, it::hasNext);
      assertThrows(StoreClosedException.class, () -> it.seek(Keys.key("k")));
      it.close();
      it.close();
    }
    try (P2kv reopened = builder(4).open(tmp)) {
      assertEquals(500, reopened.range(null, null).size(), "the store reopens intact");
    }
  }

  @Test
  void shouldCloseTheStoreSafelyWhileOtherThreadsAreInsideOrderedReads() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try {
      for (int round = 0; round < 8; round++) {
        Path dir = tmp.resolve("round-" + round);
        P2kv store = builder(1 + round % 4).open(dir);
        fill(store, 2000);
        CountDownLatch busy = new CountDownLatch(3);
        List<Future<Throwable>> readers = new ArrayList<>();
        // One thread streams an iterator forever (seeking back at the end).
        readers.add(pool.submit(() -> {
          try (KvIterator it = store.iterator(null, null)) {
            for (long n = 0; ; n++) {
              if (!it.hasNext()) {
                it.seek(new byte[0]);
              }
              it.next();
              if (n == 100) {
                busy.countDown();
              }
            }
          } catch (P2kvException e) {
            return e;
          }
        }));
        // One thread scans, one opens and closes reverse iterators, both in a loop.
        readers.add(pool.submit(() -> {
          try {
            for (long n = 0; ; n++) {
              store.scan(Keys.key(String.format("k%06d", (int) (n % 2000))), 50);
              if (n == 10) {
                busy.countDown();
              }
            }
          } catch (P2kvException e) {
            return e;
          }
        }));
        readers.add(pool.submit(() -> {
          try {
            for (long n = 0; ; n++) {
              try (KvIterator it = store.reverseIterator(null, null)) {
                for (int i = 0; i < 30 && it.hasNext(); i++) {
                  it.next();
                }
              }
              if (n == 10) {
                busy.countDown();
              }
            }
          } catch (P2kvException e) {
            return e;
          }
        }));
        assertTrue(busy.await(60, TimeUnit.SECONDS), "readers started");

        store.close();

        for (Future<Throwable> reader : readers) {
          Throwable end = reader.get(60, TimeUnit.SECONDS);
          assertInstanceOf(StoreClosedException.class, end, "round " + round + ": a reader ends with the store closed");
        }
        assertEquals(0, store.core().openIteratorCount(), "round " + round);
      }
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void shouldLetAnotherThreadCloseAnIteratorWhileItIsRead() throws Exception {
    try (P2kv store = builder(3).open(tmp)) {
      fill(store, 2000);
      ExecutorService pool = Executors.newSingleThreadExecutor();
      try {
        for (int round = 0; round < 20; round++) {
          KvIterator it = store.iterator(null, null);
          CountDownLatch busy = new CountDownLatch(1);
          Future<Throwable> reader = pool.submit(() -> {
            try {
              for (long n = 0; ; n++) {
                if (!it.hasNext()) {
                  it.seek(new byte[0]);
                }
                it.next();
                if (n == 50) {
                  busy.countDown();
                }
              }
            } catch (IllegalStateException e) {
              return e;
            }
          });
          assertTrue(busy.await(60, TimeUnit.SECONDS));
          it.close();
          assertInstanceOf(IllegalStateException.class, reader.get(60, TimeUnit.SECONDS));
        }
        assertEquals(0, store.core().openIteratorCount());
      } finally {
        pool.shutdownNow();
      }
    }
  }

  @Test
  void shouldRefuseToUseAnIteratorAfterItIsClosed() {
    try (P2kv store = builder(2).open(tmp)) {
      fill(store, 10);
      KvIterator it = store.iterator(null, null);
      assertTrue(it.hasNext());
      it.close();
      assertThrows(IllegalStateException.class, it::hasNext);
      assertThrows(IllegalStateException.class, it::next);
      assertThrows(IllegalStateException.class, () -> it.seek(Keys.key("k")));
      it.close();
    }
  }

  @Test
  void shouldRefuseOrderedReadsOnAClosedStore() {
    P2kv store = builder(2).open(tmp);
    store.close();
    byte[] k = Keys.key("k");
    assertThrows(StoreClosedException.class, () -> store.scan(k, 10));
    assertThrows(StoreClosedException.class, () -> store.scan(k, 0));
    assertThrows(StoreClosedException.class, () -> store.range(k, k));
    assertThrows(StoreClosedException.class, () -> store.iterator(null, null));
    assertThrows(StoreClosedException.class, () -> store.prefixIterator(k));
    CompletionException e = assertThrows(CompletionException.class, () -> store.scanAsync(k, 10).join());
    assertInstanceOf(StoreClosedException.class, e.getCause());
    assertTrue(store.rangeAsync(null, null).isCompletedExceptionally());
  }

  @Test
  void shouldFailAnOrderedReadOnAnEngineErrorNamingTheShardAndLeakNothing() {
    FaultyEngines engines = new FaultyEngines();
    try (P2kv store = engines.builder(3).open(tmp)) {
      fill(store, 100);
      engines.faults.put(2, FaultyEngines.Fault.FAIL_ITERATORS);
      ShardFailedException e = assertThrows(ShardFailedException.class, () -> store.scan(null, 10));
      assertEquals(2, e.shard());
      assertTrue(e.getMessage().contains("Corruption"), e.getMessage());
      assertThrows(ShardFailedException.class, () -> store.iterator(null, null));
      assertEquals(0, store.core().openIteratorCount(), "the iterators of shards 0 and 1 were freed");
      CompletionException async = assertThrows(CompletionException.class, () -> store.scanAsync(null, 10).join());
      assertInstanceOf(ShardFailedException.class, async.getCause());

      engines.faults.remove(2);
      assertEquals(10, store.scan(null, 10).size(), "only the failed reads failed");
      assertFalse(store.core().isClosed());
    }
  }

  @Test
  void shouldServeManyConcurrentIteratorsIndependently() throws Exception {
    try (P2kv store = builder(4).open(tmp)) {
      fill(store, 1000);
      ExecutorService pool = Executors.newFixedThreadPool(4);
      AtomicInteger checked = new AtomicInteger();
      try {
        List<Future<?>> fs = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
          int thread = t;
          fs.add(pool.submit(() -> {
            for (int i = 0; i < 30; i++) {
              try (KvIterator it = thread % 2 == 0 ? store.iterator(null, null) : store.reverseIterator(null, null)) {
                byte[] last = null;
                int n = 0;
                while (it.hasNext()) {
                  byte[] key = it.next().key();
                  if (last != null) {
                    int c = Keys.UNSIGNED.compare(last, key);
                    assertTrue(thread % 2 == 0 ? c < 0 : c > 0);
                  }
                  last = key;
                  n++;
                }
                assertEquals(1000, n);
                checked.incrementAndGet();
              }
            }
            return null;
          }));
        }
        for (Future<?> f : fs) {
          f.get(60, TimeUnit.SECONDS);
        }
      } finally {
        pool.shutdownNow();
      }
      assertEquals(120, checked.get());
      assertFalse(store.core().openIteratorCount() > 0);
    }
  }
}
