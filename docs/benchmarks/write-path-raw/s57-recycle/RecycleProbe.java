import java.nio.file.*;
import java.util.concurrent.atomic.*;
import org.rocksdb.*;

/**
 * Durable puts (sync=true) from N threads into plain RocksDB, with and without WAL recycling
 * (recycle_log_file_num). A small write buffer makes WAL files obsolete (and so recyclable) early;
 * a warm-up of W seconds runs before the measured S seconds so that recycled files are in use.
 * Usage: RecycleProbe threads warmSeconds seconds recycleNum dir
 */
public class RecycleProbe {
  public static void main(String[] a) throws Exception {
    RocksDB.loadLibrary();
    int threads = Integer.parseInt(a[0]);
    int warm = Integer.parseInt(a[1]);
    int secs = Integer.parseInt(a[2]);
    int recycle = Integer.parseInt(a[3]);
    Path dir = Path.of(a[4]);
    try (Options o = new Options().setCreateIfMissing(true).setWriteBufferSize(4 << 20).setRecycleLogFileNum(recycle);
         WriteOptions w = new WriteOptions().setSync(true);
         RocksDB db = RocksDB.open(o, dir.toString())) {
      AtomicLong count = new AtomicLong();
      AtomicBoolean stop = new AtomicBoolean();
      byte[] value = new byte[112];
      Thread[] ts = new Thread[threads];
      for (int t = 0; t < threads; t++) {
        int me = t;
        ts[t] = new Thread(() -> {
          long i = 0;
          byte[] key = new byte[16];
          while (!stop.get()) {
            long k = (i++ * 0x9E3779B97F4A7C15L) ^ me;
            for (int b = 0; b < 8; b++) key[b] = (byte) (k >>> (8 * b));
            try { db.put(w, key, value); } catch (RocksDBException e) { throw new RuntimeException(e); }
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
      String wals;
      try (var s = Files.list(dir)) { wals = s.filter(p -> p.toString().endsWith(".log")).count() + " WAL files"; }
      System.out.printf("recycle=%d threads=%d: %.0f puts/s (%s)%n", recycle, threads, (c1 - c0) / ((t1 - t0) / 1e9), wals);
    }
  }
}
