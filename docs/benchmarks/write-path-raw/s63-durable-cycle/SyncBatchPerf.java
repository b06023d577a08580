import java.nio.file.*;
import org.rocksdb.*;

/**
 * One thread writing WriteBatches of N puts (16-byte keys, 112-byte values) with sync=true into a
 * plain RocksDB (recycle_log_file_num 2, as p2kv's SYNC stores), timing each write and reading
 * RocksDB's PerfContext (this thread's): WAL time (append + fsync), memtable insert, the rest.
 * Usage: SyncBatchPerf batchSize warmWrites writes dir [sync|nosync [sorted]]
 */
public class SyncBatchPerf {
  public static void main(String[] a) throws Exception {
    int n = Integer.parseInt(a[0]);
    int warm = Integer.parseInt(a[1]);
    int writes = Integer.parseInt(a[2]);
    boolean sorted = a.length > 5 && a[5].equals("sorted");
    RocksDB.loadLibrary();
    try (Statistics stats = new Statistics();
        Options o = new Options().setCreateIfMissing(true).setRecycleLogFileNum(2).setStatistics(stats)
            .setWriteBufferSize(64L << 20);
        WriteOptions w = new WriteOptions().setSync(a.length < 5 || !a[4].equals("nosync"));
        RocksDB db = RocksDB.open(o, a[3])) {
      stats.setStatsLevel(StatsLevel.ALL);
      byte[] v = new byte[112];
      long seq = 0;
      for (int phase = 0; phase < 2; phase++) {
        int count = phase == 0 ? warm : writes;
        if (phase == 1) {
          db.setPerfLevel(PerfLevel.ENABLE_TIME_EXCEPT_FOR_MUTEX);
          db.getPerfContext().reset();
        }
        HistogramData s0 = stats.getHistogramData(HistogramType.WAL_FILE_SYNC_MICROS);
        long t0 = System.nanoTime();
        for (int i = 0; i < count; i++) {
          try (WriteBatch b = new WriteBatch()) {
            byte[][] keys = new byte[n][];
            for (int j = 0; j < n; j++) {
              long k = (seq++) * 0x9E3779B97F4A7C15L;
              byte[] key = new byte[16];
              for (int x = 0; x < 8; x++) key[x] = (byte) (k >>> (8 * x));
              keys[j] = key;
            }
            if (sorted) java.util.Arrays.sort(keys, java.util.Arrays::compareUnsigned);
            for (byte[] key : keys) b.put(key, v);
            db.write(w, b);
          }
        }
        long t1 = System.nanoTime();
        if (phase == 1) {
          PerfContext p = db.getPerfContext();
          HistogramData s1 = stats.getHistogramData(HistogramType.WAL_FILE_SYNC_MICROS);
          double per = 1e3 * count;
          System.out.printf((sorted ? "sorted " : "") + "batch %d: %.0f us per write (wall); perf context per write: wal %.0f us (fsync %.0f us by the histogram),"
              + " memtable %.0f us, pre/post %.0f us, thread wait %.0f us, delay %.0f us, scheduling %.0f us%n",
              n, (t1 - t0) / per, p.getWriteWalTime() / per, (s1.getSum() - s0.getSum()) / (double) count,
              p.getWriteMemtableTime() / per, p.getWritePreAndPostProcessTime() / per, p.getWriteThreadWaitNanos() / per,
              p.getWriteDelayTime() / per, p.getWriteSchedulingFlushesCompactionsTime() / per);
        }
      }
    }
  }
}
