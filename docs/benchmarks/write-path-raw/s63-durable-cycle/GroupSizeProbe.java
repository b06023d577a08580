import io.p2kv.*;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.rocksdb.RocksDbEngineFactory;
import io.p2kv.rocksdb.RocksDbConfigurer;
import java.nio.file.*;
import java.util.concurrent.atomic.*;
import org.rocksdb.*;

/**
 * Durable puts (fsync per engine write) from N platform threads, into a 1-shard p2kv store with
 * Durability.SYNC or into plain RocksDB (sync=true) opened through p2kv's engine factory, as the
 * JMH baseline does. A Statistics object of our own (StatsLevel.ALL), set through the configurer,
 * counts the WAL syncs and RocksDB's write groups over the measured window only.
 * Usage: GroupSizeProbe p2kv|rocksdb threads warmSeconds seconds budgetBytes dir [yieldWaitNanos]
 */
public class GroupSizeProbe {
  interface Put { void put(byte[] k, byte[] v); }

  public static void main(String[] a) throws Exception {
    String mode = a[0];
    int threads = Integer.parseInt(a[1]);
    int warm = Integer.parseInt(a[2]);
    int secs = Integer.parseInt(a[3]);
    long budget = Long.parseLong(a[4]);
    Path dir = Path.of(a[5]);
    Statistics stats = new Statistics();
    stats.setStatsLevel(StatsLevel.ALL);
    RocksDbConfigurer hook = (shard, options) -> options.setStatistics(stats);
    AutoCloseable closer;
    Put put;
    if (mode.equals("p2kv")) {
      P2kv store = P2kv.builder().shards(1).durability(Durability.SYNC).memoryBudgetBytes(budget)
          .rocksDbConfigurer(hook).yieldWaitNanos(a.length > 6 ? Long.parseLong(a[6]) : 50_000).open(dir);
      put = store::put;
      closer = store;
    } else {
      RocksDbEngineFactory f = new RocksDbEngineFactory(1, budget, Durability.SYNC, hook);
      Engine e = f.open(0, dir, true);
      e.admin().startCompactions();
      put = e::put;
      closer = () -> { e.close(); f.close(); };
    }
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
          key[8] = (byte) me;
          put.put(key, value);
          count.incrementAndGet();
        }
      });
      ts[t].start();
    }
    Thread.sleep(warm * 1000L);
    long c0 = count.get(), t0 = System.nanoTime();
    long synced0 = stats.getTickerCount(TickerType.WAL_FILE_SYNCED);
    long self0 = stats.getTickerCount(TickerType.WRITE_DONE_BY_SELF);
    long other0 = stats.getTickerCount(TickerType.WRITE_DONE_BY_OTHER);
    HistogramData h0 = stats.getHistogramData(HistogramType.WAL_FILE_SYNC_MICROS);
    HistogramData w0 = stats.getHistogramData(HistogramType.DB_WRITE);
    Thread.sleep(secs * 1000L);
    long c1 = count.get(), t1 = System.nanoTime();
    long synced = stats.getTickerCount(TickerType.WAL_FILE_SYNCED) - synced0;
    long self = stats.getTickerCount(TickerType.WRITE_DONE_BY_SELF) - self0;
    long other = stats.getTickerCount(TickerType.WRITE_DONE_BY_OTHER) - other0;
    HistogramData h1 = stats.getHistogramData(HistogramType.WAL_FILE_SYNC_MICROS);
    HistogramData w1 = stats.getHistogramData(HistogramType.DB_WRITE);
    stop.set(true);
    for (Thread t : ts) t.join();
    double s = (t1 - t0) / 1e9;
    long puts = c1 - c0;
    double syncMicrosTotal = h1.getSum() - h0.getSum();
    long syncCount = h1.getCount() - h0.getCount();
    System.out.printf("%s threads=%d yieldWaitNanos=" + (a.length > 6 ? a[6] : "50000") + ": %.0f puts/s, %.0f WAL syncs/s, %.2f puts per sync, engine write calls %d"
        + " (leaders %d, followers %d), mean fsync %.0f us (%d timed), window %.2f s; fsync busy %.0f %% of the window; cycle %.0f us%n",
        mode, threads, puts / s, synced / s, (double) puts / synced, self + other, self, other,
        syncMicrosTotal / syncCount, syncCount, s, 100 * syncMicrosTotal / (s * 1e6), s * 1e6 / synced);
    System.out.printf("%s DB_WRITE: %d calls, mean %.0f us per call; leader calls' share unknown; write calls busy %.0f %% of the window%n",
        mode, w1.getCount() - w0.getCount(), (w1.getSum() - w0.getSum()) / (double) (w1.getCount() - w0.getCount()),
        mode.equals("p2kv") ? 100 * (w1.getSum() - w0.getSum()) / (s * 1e6) : Double.NaN);
    closer.close();
    stats.close();
  }
}
