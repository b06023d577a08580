package io.p2kv.examples;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.p2kv.P2kv;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Many requests in flight from one thread: async puts with futures under a window that bounds
 * them, async gets chained into further work, and the allocation-free callback form.
 *
 * <p>Run: {@code ./p2kv example AsyncPipeline [dir]}.
 */
public final class AsyncPipeline {
  private AsyncPipeline() {}

  static final int PAIRS = 100_000;
  static final int IN_FLIGHT = 1024;

  public static void main(String[] args) throws IOException {
    try (ExampleDir dir = ExampleDir.fromArgs(args, "p2kv-async");
        P2kv store = P2kv.builder().open(dir.path())) {
      // 1. Futures under a window: at most IN_FLIGHT puts queued at once. The shard workers merge
      //    whatever is queued into one RocksDB write batch each, so a deep pipeline batches well.
      Semaphore window = new Semaphore(IN_FLIGHT);
      long start = System.nanoTime();
      for (int i = 0; i < PAIRS; i++) {
        window.acquireUninterruptibly();
        store.putAsync(key(i), ("value-" + i).getBytes(UTF_8))
            .whenComplete((ok, error) -> window.release()); // runs on the shard's worker thread
      }
      window.acquireUninterruptibly(IN_FLIGHT); // every put has completed
      System.out.printf("%,d async puts in %d ms, mean write batch %.1f%n",
          PAIRS, (System.nanoTime() - start) / 1_000_000, store.stats().meanWriteBatch());

      // 2. Chained reads. Stages added with thenApply run on the worker thread: keep them short
      //    and never call a blocking store method there; use *Async stages with your own pool.
      ExecutorService pool = Executors.newFixedThreadPool(2);
      try {
        List<CompletableFuture<Integer>> lengths = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
          lengths.add(store.getAsync(key(i)).thenApplyAsync(v -> new String(v, UTF_8).length(), pool));
        }
        CompletableFuture.allOf(lengths.toArray(new CompletableFuture<?>[0])).join();
        System.out.println("lengths of the first ten values: " + lengths.stream().map(CompletableFuture::join).toList());
      } finally {
        pool.shutdown();
      }

      // 3. Callbacks instead of futures: nothing allocated per request but the request itself.
      AtomicLong emptied = new AtomicLong();
      Semaphore done = new Semaphore(0);
      for (int i = 0; i < 1000; i++) {
        store.putAsync(key(i), new byte[0], (ok, error) -> {
          if (error == null) {
            emptied.incrementAndGet();
          }
          done.release();
        });
      }
      done.acquireUninterruptibly(1000);
      System.out.println(emptied.get() + " values emptied with callbacks");

      // Failures arrive through the future (or callback), never as a throw from putAsync itself
      // (argument errors, such as a null key, still throw at once).
      CompletableFuture<byte[]> missing = store.getAsync(key(PAIRS + 1));
      System.out.println("absent key reads as " + missing.join());
    }
  }

  static byte[] key(int i) {
    return String.format("key-%08d", i).getBytes(UTF_8);
  }
}
