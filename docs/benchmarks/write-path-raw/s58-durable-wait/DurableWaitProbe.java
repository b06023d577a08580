import io.p2kv.*;
import java.nio.file.*;
import java.util.concurrent.atomic.*;

/**
 * Durable (SYNC) puts from N platform threads into a 1-shard p2kv store (recycled logs, as p2kv sets them),
 * with the callers polling (yielding) for yieldWaitNanos before they park. Usage: DurableWaitProbe threads warmSeconds seconds yieldWaitNanos budgetBytes dir
 */
public class DurableWaitProbe {
  public static void main(String[] a) throws Exception {
    int threads = Integer.parseInt(a[0]);
    int warm = Integer.parseInt(a[1]);
    int secs = Integer.parseInt(a[2]);
    long yieldWait = Long.parseLong(a[3]);
    long budget = Long.parseLong(a[4]);
    Path dir = Path.of(a[5]);
    try (P2kv store = P2kv.builder().shards(1).durability(Durability.SYNC).memoryBudgetBytes(budget)
        .yieldWaitNanos(yieldWait).open(dir)) {
      AtomicLong count = new AtomicLong();
      AtomicBoolean stop = new AtomicBoolean();
      byte[] value = new byte[112];
      Thread[] ts = new Thread[threads];
      for (int t = 0; t < threads; t++) {
        int me = t;
        ts[t] = new Thread(() -> {
          long i = 0;
          while (!stop.get()) {
            long k = (i++ * 0x9E3779B97F4A7C15L) ^ me;
            byte[] key = new byte[16];
            for (int b = 0; b < 8; b++) key[b] = (byte) (k >>> (8 * b));
            store.put(key, value);
            count.incrementAndGet();
          }
        });
        ts[t].start();
      }
      Thread.sleep(warm * 1000L);
      long c0 = count.get(), t0 = System.nanoTime();
      Thread.sleep(secs * 1000L);
      long c1 = count.get(), t1 = System.nanoTime();
      stop.set(true);
      for (Thread t : ts) t.join();
      long wals;
      try (var s = Files.walk(dir)) { wals = s.filter(p -> p.toString().endsWith(".log")).count(); }
      System.out.printf("p2kv SYNC yieldWaitNanos=%d threads=%d budget=%d: %.0f puts/s (%d WAL files)%n", yieldWait, threads, budget, (c1 - c0) / ((t1 - t0) / 1e9), wals);
    }
  }
}
