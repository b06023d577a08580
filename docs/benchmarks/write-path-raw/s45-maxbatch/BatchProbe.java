import org.rocksdb.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import java.nio.file.*;
import java.lang.management.*;

/**
 * Can one shard's batch be inserted by two threads at once? WriteBatches of 64 random 16-byte keys
 * with 112-byte values, WAL on, a 64 MiB memtable, after 300 K warm-up puts:
 *   one    - one thread writes each batch of 64;
 *   split  - the batch is split in two batches of 32 with disjoint keys; this thread writes one half
 *            while a helper thread writes the other (handed over by a spin on an atomic), and waits
 *            for it: RocksDB's write group inserts the two halves in parallel when they meet there
 *            (allow_concurrent_memtable_write, on by default);
 *   two    - two threads write batches of 32 independently (no joining): an upper bound.
 */
public class BatchProbe {
  static final byte[] VALUE = new byte[112];

  public static void main(String[] a) throws Exception {
    RocksDB.loadLibrary();
    int rounds = Integer.parseInt(a[0]);
    int puts = Integer.parseInt(a[1]);
    Path dir = Path.of(a[2]);
    String[] modes = a[3].split(",");
    new Random(1).nextBytes(VALUE);
    for (int round = 0; round < rounds; round++) {
      for (int m = 0; m < modes.length; m++) {
        String mode = modes[(m + round) % modes.length];
        Path d = dir.resolve("db-" + round + "-" + m);
        try (Options o = new Options().setCreateIfMissing(true).setWriteBufferSize(64L << 20).setMaxWriteBufferNumber(2)
                .setMemtablePrefixBloomSizeRatio(0.02).setMemtableWholeKeyFiltering(true).setLevelCompactionDynamicLevelBytes(true)
                .setMaxBackgroundJobs(2).setCompressionType(CompressionType.LZ4_COMPRESSION).setAtomicFlush(true);
             RocksDB db = RocksDB.open(o, d.toString()); WriteOptions wo = new WriteOptions()) {
          run(db, wo, "one", 300_000);
          long cpu0 = processCpu();
          long t0 = System.nanoTime();
          run(db, wo, mode, puts);
          long ns = System.nanoTime() - t0;
          long cpu = processCpu() - cpu0;
          System.out.printf("round %d %-5s: %.0f puts/s, process cpu %.2f us/put, L0 files %s%n", round, mode, puts / (ns / 1e9),
              cpu / 1e3 / puts, db.getProperty("rocksdb.num-files-at-level0"));
        }
      }
    }
    System.exit(0);
  }

  static long processCpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  static WriteBatch batch(Random r, int n) throws RocksDBException {
    WriteBatch b = new WriteBatch();
    for (int j = 0; j < n; j++) {
      byte[] k = new byte[16];
      r.nextBytes(k);
      b.put(k, VALUE);
    }
    return b;
  }

  static void run(RocksDB db, WriteOptions wo, String mode, int n) throws Exception {
    Random r = new Random();
    int size = mode.equals("one") ? 32 : Integer.parseInt(mode);
    for (int i = 0; i < n; i += size) {
      try (WriteBatch b = batch(r, size)) { db.write(wo, b); }
    }
  }
}
