import org.rocksdb.*;
import java.util.*;
import java.nio.file.*;

/** Single thread: WriteBatches of N random keys into a growing memtable, keys sorted or not. */
public class SortProbe {
  public static void main(String[] a) throws Exception {
    RocksDB.loadLibrary();
    int batch = Integer.parseInt(a[0]);
    int rounds = Integer.parseInt(a[1]);
    int putsPerRound = Integer.parseInt(a[2]);
    Path dir = Path.of(a[3]);
    Random r = new Random(42);
    byte[] value = new byte[112];
    r.nextBytes(value);
    for (int round = 0; round < rounds; round++) {
      for (int mode = 0; mode < 2; mode++) {
        boolean sorted = (mode == 0) == (round % 2 == 0);
        Path d = dir.resolve("db-" + round + "-" + mode);
        try (Options o = new Options().setCreateIfMissing(true).setWriteBufferSize(64L << 20);
             RocksDB db = RocksDB.open(o, d.toString()); WriteOptions wo = new WriteOptions()) {
          byte[][] keys = new byte[batch][];
          // warm: 300K keys
          write(db, wo, r, keys, batch, 300_000, value, sorted);
          long t0 = System.nanoTime();
          write(db, wo, r, keys, batch, putsPerRound, value, sorted);
          long ns = System.nanoTime() - t0;
          System.out.printf("round %d %s batch %d: %.0f puts/s%n", round, sorted ? "sorted  " : "unsorted", batch, putsPerRound / (ns / 1e9));
        }
      }
    }
  }

  static void write(RocksDB db, WriteOptions wo, Random r, byte[][] keys, int batch, int n, byte[] value, boolean sorted) throws Exception {
    for (int i = 0; i < n; i += batch) {
      for (int j = 0; j < batch; j++) {
        byte[] k = new byte[16];
        r.nextBytes(k);
        keys[j] = k;
      }
      if (sorted) Arrays.sort(keys, Arrays::compareUnsigned);
      try (WriteBatch b = new WriteBatch()) {
        for (byte[] k : keys) b.put(k, value);
        db.write(wo, b);
      }
    }
  }
}
