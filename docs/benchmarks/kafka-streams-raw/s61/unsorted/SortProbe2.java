import org.rocksdb.*;
import java.util.*;
import java.nio.file.*;

/** One thread: WriteBatches of N keys (Kafka-store-like: 8-byte prefix + "key-%08d" over 1 M keys, 16-byte values,
 *  no WAL) into a 64 MiB memtable, keys sorted or not; reports the write time alone and the sort time alone. */
public class SortProbe2 {
  public static void main(String[] a) throws Exception {
    RocksDB.loadLibrary();
    int batch = Integer.parseInt(a[0]), rounds = Integer.parseInt(a[1]), puts = Integer.parseInt(a[2]);
    Path dir = Path.of(a[3]);
    byte[] value = new byte[16];
    for (int round = 0; round < rounds; round++) {
      for (int mode = 0; mode < 2; mode++) {
        boolean sorted = (mode == 0) == (round % 2 == 0);
        Random r = new Random(42 + round);
        try (Options o = new Options().setCreateIfMissing(true).setWriteBufferSize(64L << 20).setMaxWriteBufferNumber(3);
             RocksDB db = RocksDB.open(o, dir.resolve("db-" + round + "-" + mode).toString());
             WriteOptions wo = new WriteOptions().setDisableWAL(true)) {
          long[] t = new long[2];
          write(db, wo, r, batch, 300_000, value, sorted, new long[2]);
          write(db, wo, r, batch, puts, value, sorted, t);
          System.out.printf("round %d %s batch %d: write %.3f us/put, sort %.3f us/put%n", round, sorted ? "sorted  " : "unsorted",
              batch, t[0] / 1e3 / puts, t[1] / 1e3 / puts);
        }
      }
    }
  }

  static void write(RocksDB db, WriteOptions wo, Random r, int batch, int n, byte[] value, boolean sorted, long[] t) throws Exception {
    byte[][] keys = new byte[batch][];
    for (int i = 0; i < n; i += batch) {
      for (int j = 0; j < batch; j++) {
        keys[j] = ("\0\0\0\1\0\0\0" + (char) ('A' + r.nextInt(32)) + String.format("key-%08d", r.nextInt(1_000_000))).getBytes();
      }
      long t0 = System.nanoTime();
      if (sorted) Arrays.sort(keys, Arrays::compareUnsigned);
      long t1 = System.nanoTime();
      try (WriteBatch b = new WriteBatch()) {
        for (byte[] k : keys) b.put(k, value);
        db.write(wo, b);
      }
      long t2 = System.nanoTime();
      t[0] += t2 - t1; t[1] += t1 - t0;
    }
  }
}
