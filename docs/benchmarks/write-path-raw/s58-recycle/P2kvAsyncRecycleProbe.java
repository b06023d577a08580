import io.p2kv.*;
import java.nio.file.*;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.*;

/**
 * Durable (SYNC) async puts with callbacks from N threads, each with up to 64 in flight, into a
 * 1-shard p2kv store: recycle_log_file_num as p2kv sets it for SYNC stores (default), or turned
 * off through the RocksDB hook (off). Usage: P2kvAsyncRecycleProbe threads warmSeconds seconds default|off budgetBytes dir
 */
public class P2kvAsyncRecycleProbe {
  public static void main(String[] a) throws Exception {
    int threads = Integer.parseInt(a[0]);
    int warm = Integer.parseInt(a[1]);
    int secs = Integer.parseInt(a[2]);
    boolean off = a[3].equals("off");
    long budget = Long.parseLong(a[4]);
    Path dir = Path.of(a[5]);
    try (P2kv store = P2kv.builder().shards(1).durability(Durability.SYNC).memoryBudgetBytes(budget)
        .rocksDbConfigurer((s, o) -> { if (off) o.setRecycleLogFileNum(0); }).open(dir)) {
      AtomicLong count = new AtomicLong();
      AtomicBoolean stop = new AtomicBoolean();
      byte[] value = new byte[112];
      Thread[] ts = new Thread[threads];
      for (int t = 0; t < threads; t++) {
        int me = t;
        ts[t] = new Thread(() -> {
          Semaphore window = new Semaphore(64);
          long i = 0;
          while (!stop.get()) {
            window.acquireUninterruptibly();
            long k = (i++ * 0x9E3779B97F4A7C15L) ^ me;
            byte[] key = new byte[16];
            for (int b = 0; b < 8; b++) key[b] = (byte) (k >>> (8 * b));
            store.putAsync(key, value, (v, e) -> {
              if (e == null) count.incrementAndGet();
              window.release();
            });
          }
          window.acquireUninterruptibly(64);
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
      System.out.printf("p2kv SYNC async x64 recycle=%s threads=%d budget=%d: %.0f puts/s (%d WAL files)%n", off ? "off (hook sets 0)" : "default", threads, budget, (c1 - c0) / ((t1 - t0) / 1e9), wals);
    }
  }
}
