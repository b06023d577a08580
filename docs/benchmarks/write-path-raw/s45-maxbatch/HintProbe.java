import org.rocksdb.*;
import java.util.*;
import java.nio.file.*;
import java.lang.management.*;

/** One thread, WriteBatches of N random 16-byte keys (112-byte values), WAL on, 64 MiB memtable:
 *  uN = keys in random order; sN = keys sorted within the batch; hN = sorted, and the memtable inserts
 *  with a splice hint (memtable_insert_with_hint_prefix_extractor with an empty prefix). */
public class HintProbe {
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
        Properties p = new Properties();
        if (mode.startsWith("h")) p.setProperty("memtable_insert_with_hint_prefix_extractor", "rocksdb.FixedPrefix.0");
        p.setProperty("write_buffer_size", String.valueOf(64L << 20));
        try (ConfigOptions co = new ConfigOptions();
             ColumnFamilyOptions cfo = p.isEmpty() ? new ColumnFamilyOptions() : ColumnFamilyOptions.getColumnFamilyOptionsFromProps(co, p)) {
          cfo.setWriteBufferSize(64L << 20).setMaxWriteBufferNumber(2).setMemtablePrefixBloomSizeRatio(0.02).setMemtableWholeKeyFiltering(true)
              .setLevelCompactionDynamicLevelBytes(true).setCompressionType(CompressionType.LZ4_COMPRESSION);
          List<ColumnFamilyHandle> hs = new ArrayList<>();
          try (DBOptions o = new DBOptions().setCreateIfMissing(true).setMaxBackgroundJobs(2).setAtomicFlush(true);
               RocksDB db = RocksDB.open(o, d.toString(), List.of(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, cfo)), hs);
               WriteOptions wo = new WriteOptions()) {
            int n = Integer.parseInt(mode.substring(1));
            boolean sort = !mode.startsWith("u");
            run(db, wo, n, sort, 300_000);
            long cpu0 = processCpu();
            long t0 = System.nanoTime();
            run(db, wo, n, sort, puts);
            long ns = System.nanoTime() - t0;
            long cpu = processCpu() - cpu0;
            System.out.printf("round %d %-5s: %.0f puts/s, process cpu %.2f us/put%n", round, mode, puts / (ns / 1e9), cpu / 1e3 / puts);
            for (ColumnFamilyHandle h : hs) h.close();
          }
        }
      }
    }
    System.exit(0);
  }

  static long processCpu() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  static void run(RocksDB db, WriteOptions wo, int size, boolean sort, int n) throws Exception {
    Random r = new Random();
    byte[][] keys = new byte[size][];
    for (int i = 0; i < n; i += size) {
      for (int j = 0; j < size; j++) { keys[j] = new byte[16]; r.nextBytes(keys[j]); }
      if (sort) Arrays.sort(keys, Arrays::compareUnsigned);
      try (WriteBatch b = new WriteBatch()) {
        for (int j = 0; j < size; j++) b.put(keys[j], VALUE);
        db.write(wo, b);
      }
    }
  }
}
