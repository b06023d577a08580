import org.rocksdb.*;
import java.util.*;
import java.nio.file.*;

/** Single thread: WriteBatches of 32 random 16-byte keys, 112-byte values, WAL on, memtable size varied. */
public class MemProbe {
  public static void main(String[] a) throws Exception {
    RocksDB.loadLibrary();
    int rounds = Integer.parseInt(a[0]);
    int puts = Integer.parseInt(a[1]);
    Path dir = Path.of(a[2]);
    String[] sizes = a[3].split(",");
    Random r = new Random(42);
    byte[] value = new byte[112];
    r.nextBytes(value);
    for (int round = 0; round < rounds; round++) {
      for (int m = 0; m < sizes.length; m++) {
        String[] cfg = sizes[(m + round) % sizes.length].split(":"); long size = Long.parseLong(cfg[0]) << 20; int maxN = Integer.parseInt(cfg[1]); int merge = Integer.parseInt(cfg[2]);
        Path d = dir.resolve("db-" + round + "-" + m);
        try (Options o = new Options().setCreateIfMissing(true).setWriteBufferSize(size).setMaxWriteBufferNumber(maxN).setMinWriteBufferNumberToMerge(merge).setMemtablePrefixBloomSizeRatio(0.02).setMemtableWholeKeyFiltering(true).setLevelCompactionDynamicLevelBytes(true).setMaxBackgroundJobs(2).setCompressionType(CompressionType.LZ4_COMPRESSION).setAtomicFlush(Boolean.getBoolean("atomic"));
             RocksDB db = RocksDB.open(o, d.toString()); WriteOptions wo = new WriteOptions()) {
          write(db, wo, r, 300_000, value);
          long cpu0 = ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean()).getCurrentThreadCpuTime();
          long t0 = System.nanoTime();
          write(db, wo, r, puts, value);
          long ns = System.nanoTime() - t0;
          long cpu = ((com.sun.management.ThreadMXBean) java.lang.management.ManagementFactory.getThreadMXBean()).getCurrentThreadCpuTime() - cpu0;
          System.out.printf("round %d memtable %3d MiB x%d merge %d: %.0f puts/s, writer cpu %.2f us/put, L0 files %s%n", round, size >> 20, maxN, merge, puts / (ns / 1e9), cpu / 1e3 / puts,
              db.getProperty("rocksdb.num-files-at-level0") + " L0 MB " + (Long.parseLong(db.getProperty("rocksdb.estimate-live-data-size"))>>20) + " imm " + db.getProperty("rocksdb.num-immutable-mem-table"));
        }
      }
    }
  }

  static void write(RocksDB db, WriteOptions wo, Random r, int n, byte[] value) throws Exception {
    for (int i = 0; i < n; i += 32) {
      try (WriteBatch b = new WriteBatch()) {
        for (int j = 0; j < 32; j++) { byte[] k = new byte[16]; r.nextBytes(k); b.put(k, value); }
        db.write(wo, b);
      }
    }
  }
}
