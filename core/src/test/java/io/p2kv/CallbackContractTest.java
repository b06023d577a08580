package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the API says of callbacks: what one throws is logged and ignored, on every path (also when
 * the request completes at once on the caller, or cannot be queued); and a blocking call from one
 * (it runs on a shard's worker) is refused with {@link IllegalStateException} before it can wait.
 */
class CallbackContractTest {
  @TempDir Path tmp;

  @Test
  void shouldIgnoreWhatACallbackThrowsWhenItRunsOnTheCaller() {
    for (ReadPath path : ReadPath.values()) {
      Path dir = tmp.resolve(path.name());
      P2kv store = P2kv.builder().shards(2).readPath(path).open(dir);
      store.put(Keys.key("k"), Keys.key("v"));
      AtomicReference<Object> seen = new AtomicReference<>();
      // A direct read completes on the caller: its callback runs there.
      store.getAsync(Keys.key("k"), (v, e) -> {
        seen.set(v);
        throw new IllegalStateException("a bug in the callback");
      });
      if (path == ReadPath.DIRECT) {
        assertArrayEquals(Keys.key("v"), (byte[]) seen.get());
      }
      store.close();
      // A closed store cannot queue the request: the callback hears of it on the caller.
      AtomicReference<Throwable> failure = new AtomicReference<>();
      store.putAsync(Keys.key("k"), Keys.key("w"), (v, e) -> {
        failure.set(e);
        throw new IllegalStateException("a bug in the callback");
      });
      assertInstanceOf(StoreClosedException.class, failure.get());
    }
  }

  @Test
  void shouldRefuseBlockingAdministrationFromACallback() throws Exception {
    try (P2kv store = P2kv.builder().shards(2).open(tmp.resolve("store"))) {
      List<Runnable> calls = List.of(() -> store.backup(tmp.resolve("backups")), store::flush, store::compact);
      for (Runnable call : calls) {
        CompletableFuture<Throwable> refused = new CompletableFuture<>();
        store.putAsync(Keys.key("k"), Keys.key("v"), (v, e) -> { // on the worker
          try {
            call.run();
            refused.complete(null);
          } catch (Throwable t) {
            refused.complete(t);
          }
        });
        Throwable t = refused.get(30, TimeUnit.SECONDS);
        assertInstanceOf(IllegalStateException.class, t);
        assertTrue(t.getMessage().contains("worker"), t.getMessage());
        call.run(); // and from a thread of the application, it runs
      }
    }
  }
}
