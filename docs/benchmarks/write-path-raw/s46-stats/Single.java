import io.p2kv.*;
import java.nio.file.*;
import java.util.*;
import org.rocksdb.*;

public class Single {
  public static void main(String[] a) throws Exception {
    String mode = a[0];
    int n = Integer.parseInt(a[1]);
    Path dir = Files.createTempDirectory(Path.of("/tmp/s46/single"), "db");
    byte[] v = new byte[112];
    Random r = new Random(1);
    byte[][] keys = new byte[1 << 20][];
    for (int i = 0; i < keys.length; i++) { keys[i] = new byte[16]; r.nextBytes(keys[i]); }
    double best = 0;
    if (mode.startsWith("rocks")) {
      RocksDB.loadLibrary();
      try (Options o = new Options().setCreateIfMissing(true); RocksDB db = RocksDB.open(mode.contains("stats") ? o.setStatistics(new Statistics()) : o, dir.toString()); WriteOptions wo = new WriteOptions()) {
        for (int round = 0; round < 5; round++) {
          long t = System.nanoTime();
          for (int i = 0; i < n; i++) db.put(wo, keys[i & (keys.length - 1)], v);
          double rate = n / ((System.nanoTime() - t) / 1e9);
          System.out.printf("%s round %d %.0f%n", mode, round, rate);
        }
      }
    } else {
      P2kv.Builder b = P2kv.builder();
      
      if (mode.contains("backoff")) b.idleMode(IdleMode.BACKOFF);
      if (mode.contains("y0")) b.yieldWaitNanos(0);
      if (mode.contains("nobloom") || mode.contains("stat1")) b.rocksDbConfigurer((shard, o) -> {
        if (mode.contains("nobloom")) o.setMemtablePrefixBloomSizeRatio(0).setMemtableWholeKeyFiltering(false);
        if (mode.contains("stat1")) o.setStatistics(new Statistics(EnumSet.allOf(HistogramType.class)));

      });
      try (P2kv db = b.open(dir)) {
        for (int round = 0; round < 5; round++) {
          long t = System.nanoTime();
          for (int i = 0; i < n; i++) db.put(keys[i & (keys.length - 1)], v);
          double rate = n / ((System.nanoTime() - t) / 1e9);
          System.out.printf("%s round %d %.0f%n", mode, round, rate);
        }
        System.out.println(db.stats());
      }
    }
  }
}
