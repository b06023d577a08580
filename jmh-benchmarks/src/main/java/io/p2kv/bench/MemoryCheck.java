package io.p2kv.bench;

import io.p2kv.P2kv;
import io.p2kv.StoreStats;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Semaphore;

/**
 * Loads a store with default options (only the shard count set) and reports the process's peak
 * resident memory, to check the default memory budget: a 4-shard store with 10 M pairs of 16 + 112
 * bytes must stay under 1.5 GB resident. Async puts, 4096 in flight, random keys; then reads a
 * sample back and compacts.
 *
 * <p>Run: {@code java -Xmx1g -cp jmh-benchmarks/target/benchmarks.jar io.p2kv.bench.MemoryCheck 4
 * 10000000}
 */
public final class MemoryCheck {
  private MemoryCheck() {}

  public static void main(String[] args) throws Exception {
    int shards = Integer.parseInt(args[0]);
    long pairs = Long.parseLong(args[1]);
    Path dir = BenchData.tempDir("p2kv-memory");
    SplittableRandom rnd = new SplittableRandom(7);
    byte[] value = BenchData.value(112, rnd);
    Semaphore window = new Semaphore(4096);
    long start = System.nanoTime();
    try (P2kv store = P2kv.builder().shards(shards).open(dir)) {
      for (long i = 0; i < pairs; i++) {
        window.acquireUninterruptibly();
        store.putAsync(BenchData.key(i), value, (v, e) -> window.release());
        if (i % 2_000_000 == 0 && i > 0) {
          report(String.format(Locale.ROOT, "loaded %,d", i), store, start);
        }
      }
      window.acquireUninterruptibly(4096);
      report(String.format(Locale.ROOT, "loaded %,d", pairs), store, start);
      long found = 0;
      for (long i = 0; i < pairs; i += pairs / 100_000) {
        if (store.get(BenchData.key(i)) != null) {
          found++;
        }
      }
      report("read back a sample (" + found + " found)", store, start);
      store.compact();
      report("compacted", store, start);
    } finally {
      BenchData.deleteTree(dir);
    }
    System.out.printf(Locale.ROOT, "PEAK RSS %.0f MiB (%d shards, %,d pairs of 128 bytes, default memory budget)%n",
        RssProfiler.peakRssMiB(), shards, pairs);
  }

  private static void report(String what, P2kv store, long start) {
    Runtime rt = Runtime.getRuntime();
    StoreStats stats = store.stats();
    System.out.printf(Locale.ROOT,
        "%6.1f s  %-32s peak RSS %5.0f MiB  heap used %4d MiB  memtables %4d MiB  blob cache %4d / %4d MiB%n",
        (System.nanoTime() - start) / 1e9, what, RssProfiler.peakRssMiB(),
        (rt.totalMemory() - rt.freeMemory()) >> 20, stats.memtableBytes() >> 20,
        stats.blobCacheUsageBytes() >> 20, stats.blobCacheCapacityBytes() >> 20);
  }
}
