package io.p2kv.examples;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.p2kv.P2kv;
import io.p2kv.StoreStats;
import io.p2kv.UpdateFunctionException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Read-modify-write from many threads without locks: counters ({@code increment}), a record that
 * every thread adds to ({@code update}), and a log appended to by a merge operator declared at
 * open ({@code merge}). Each runs on the key's shard worker, the one thread that writes that shard,
 * so no thread loses another's change.
 *
 * <p>Run: {@code ./p2kv example Updates [dir]}.
 */
public final class Updates {
  private Updates() {}

  static final int THREADS = 8;
  static final int VISITS = 5_000; // per thread
  static final String[] PAGES = {"page:home", "page:docs", "page:blog"};

  public static void main(String[] args) throws Exception {
    try (ExampleDir dir = ExampleDir.fromArgs(args, "p2kv-updates");
        P2kv store = P2kv.builder().shards(2)
            // Merge operators are declared at every open; p2kv stores their results as plain values.
            .mergeOperator("append", (existing, entry) -> existing == null ? entry : concat(existing, entry))
            .open(dir.path())) {
      byte[] user = "user:ada".getBytes(UTF_8);
      store.put(user, "name=Ada".getBytes(UTF_8));
      for (String page : PAGES) {
        store.delete(page.getBytes(UTF_8)); // counters and log start afresh (an earlier run's may be here)
      }
      store.delete("log".getBytes(UTF_8));
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      List<Future<?>> running = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        running.add(pool.submit(() -> {
          for (int i = 0; i < VISITS; i++) {
            store.increment(PAGES[(thread + i) % PAGES.length].getBytes(UTF_8), 1); // 8-byte counters
          }
          // The function gets the current record and returns the new one; keep it short and
          // never call the store from it: its shard waits while it runs.
          store.update(user, record -> addField(record, "seen-by-" + thread));
          store.merge("log".getBytes(UTF_8), ("thread " + thread + " done;").getBytes(UTF_8), "append");
        }));
      }
      for (Future<?> f : running) {
        f.get();
      }
      pool.shutdown();
      long total = 0;
      for (String page : PAGES) {
        long views = ByteBuffer.wrap(store.get(page.getBytes(UTF_8))).getLong(); // big-endian long
        System.out.printf("%s: %,d views%n", page, views);
        total += views;
      }
      System.out.printf("total: %,d views (expected %,d)%n", total, THREADS * VISITS);
      String[] fields = new String(store.get(user), UTF_8).split(";");
      System.out.println("user:ada has " + fields.length + " fields: " + fields[0] + ", " + fields[1] + ", ...");
      System.out.println("log has " + new String(store.get("log".getBytes(UTF_8)), UTF_8).split(";").length + " entries");

      // A function that throws fails only its own update; nothing is written for it.
      try {
        store.update(user, record -> {
          throw new IllegalStateException("record is locked by policy");
        });
      } catch (UpdateFunctionException e) {
        System.out.println("refused update: " + e.getCause().getMessage());
      }
      StoreStats stats = store.stats();
      System.out.printf("%,d update functions ran, the longest for %.0f us; mean write batch %.1f%n",
          stats.updates(), stats.maxUpdateNanos() / 1e3, stats.meanWriteBatch());
    }
  }

  /** A record of {@code ;}-separated fields, kept sorted. */
  static byte[] addField(byte[] record, String field) {
    TreeSet<String> fields = new TreeSet<>(List.of(new String(record, UTF_8).split(";")));
    fields.add(field);
    return String.join(";", fields).getBytes(UTF_8);
  }

  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }
}
