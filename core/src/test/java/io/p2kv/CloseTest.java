package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** close(): from a callback, from several threads at once, and what a closed store refuses. */
class CloseTest {
  @TempDir Path tmp;

  @Test
  void shouldCloseFromACallbackWithoutHangingAndUnlockTheDirectory() throws Exception {
    P2kv store = P2kv.builder().shards(2).open(tmp);
    byte[] k = Keys.key("k");
    CompletableFuture<Throwable> closedInCallback = new CompletableFuture<>();
    CompletableFuture<Throwable> afterClose = new CompletableFuture<>();
    store.putAsync(k, Keys.key("v"), (x, e) -> {
      try {
        store.close();
        closedInCallback.complete(null);
      } catch (Throwable t) {
        closedInCallback.complete(t);
      }
      try {
        store.get(k);
        afterClose.complete(null);
      } catch (Throwable t) {
        afterClose.complete(t);
      }
    });
    // Today's bug: close() on the worker joined its own thread and never returned.
    assertNull(closedInCallback.get(30, TimeUnit.SECONDS), "close() from a callback returns");
    assertInstanceOf(StoreClosedException.class, afterClose.get(30, TimeUnit.SECONDS), "the store is closed once it returns");
    store.close(); // waits for the close the callback started
    assertEquals(P2kv.Health.Status.CLOSED, store.health().status());
    try (P2kv reopened = P2kv.builder().open(tmp)) {
      assertArrayEquals(Keys.key("v"), reopened.get(k), "the put whose callback closed the store is kept");
    }
  }

  @Test
  void shouldReturnFromEveryConcurrentCloseOnlyOnceTheStoreIsClosed() throws Exception {
    P2kv store = P2kv.builder().shards(1).maxBatch(1).open(tmp);
    CountDownLatch release = new CountDownLatch(1);
    AtomicInteger callbacks = new AtomicInteger();
    // The first callback holds the worker, so everything queued behind it waits.
    store.putAsync(Keys.key("first"), Keys.key("v"), (x, e) -> {
      awaitQuietly(release);
      callbacks.incrementAndGet();
    });
    int queued = 500;
    for (int i = 0; i < queued; i++) {
      store.putAsync(Keys.key("k" + i), Keys.key("v" + i), (x, e) -> callbacks.incrementAndGet());
    }
    Thread first = new Thread(store::close, "first-closer");
    first.start();
    // Wait until the first close has marked the store closed.
    while (store.health().status() != P2kv.Health.Status.CLOSED) {
      Thread.onSpinWait();
    }
    Thread main = Thread.currentThread();
    // Release the worker only once this thread waits inside its own close(): a close that
    // returns at once (today's bug) leaves the worker held and the directory locked below.
    Thread releaser = new Thread(() -> {
      while (!waitingInClose(main) && release.getCount() > 0) {
        Thread.onSpinWait();
      }
      release.countDown();
    }, "releaser");
    releaser.start();
    try {
      store.close();
      assertEquals(queued + 1, callbacks.get(), "every queued request ran before close returned");
      try (P2kv reopened = P2kv.builder().open(tmp)) {
        assertArrayEquals(Keys.key("v" + (queued - 1)), reopened.get(Keys.key("k" + (queued - 1))));
      }
    } finally {
      release.countDown();
      releaser.join();
      first.join();
    }
  }

  private static boolean waitingInClose(Thread t) {
    if (t.getState() != Thread.State.WAITING && t.getState() != Thread.State.TIMED_WAITING) {
      return false;
    }
    return Arrays.stream(t.getStackTrace()).anyMatch(f -> f.getClassName().endsWith("StoreCore") && f.getMethodName().equals("close"));
  }

  static void awaitQuietly(CountDownLatch latch) {
    try {
      latch.await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Test
  void shouldRefuseEmptyOperationsOnAClosedStore() {
    P2kv store = P2kv.builder().shards(2).open(tmp);
    store.close();
    assertThrows(StoreClosedException.class, () -> store.write(new Batch()));
    assertThrows(StoreClosedException.class, () -> store.multiGet(List.of()));
    assertFailsClosed(store.writeAsync(new Batch()));
    assertFailsClosed(store.multiGetAsync(List.of()));
    assertFailsClosed(store.rangeAsync(Keys.key("b"), Keys.key("a")));
    assertThrows(StoreClosedException.class, () -> store.range(Keys.key("b"), Keys.key("a")));
    assertThrows(StoreClosedException.class, () -> store.scan(Keys.key("a"), 0));
  }

  private static void assertFailsClosed(CompletableFuture<?> f) {
    CompletionException e = assertThrows(CompletionException.class, f::join);
    assertInstanceOf(StoreClosedException.class, e.getCause());
  }

  @Test
  void shouldReportHealthOpenThenClosed() {
    P2kv store = P2kv.builder().shards(2).open(tmp);
    assertEquals(P2kv.Health.Status.OPEN, store.health().status());
    assertNull(store.health().failure());
    store.close();
    assertEquals(P2kv.Health.Status.CLOSED, store.health().status());
    assertTrue(store.health().failure() == null);
  }
}
