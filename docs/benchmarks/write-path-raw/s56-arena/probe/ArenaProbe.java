import org.rocksdb.*;
import java.nio.file.*;
import java.util.*;

/** Single thread, WriteBatch of 32 random 16-byte keys, 112-byte values, WAL on, 64 MiB memtable. */
public class ArenaProbe {
  public static void main(String[] a) throws Exception {
    RocksDB.loadLibrary();
    long arena = Long.parseLong(a[0]);
    int n = Integer.parseInt(a[1]);
    Path dir = Paths.get(a[2]);
    try (Options o = new Options().setCreateIfMissing(true).setWriteBufferSize(64L << 20).setMaxWriteBufferNumber(3)
        .setArenaBlockSize(arena);
         RocksDB db = RocksDB.open(o, dir.toString()); WriteOptions wo = new WriteOptions()) {
      SplittableRandom r = new SplittableRandom(1);
      byte[] v = new byte[112]; r.nextBytes(v);
      long maxHuge = 0; long t0 = 0;
      int warm = 300_000;
      for (int i = 0; i < n + warm; i += 32) {
        if (i == warm) t0 = System.nanoTime();
        try (WriteBatch b = new WriteBatch()) {
          for (int j = 0; j < 32; j++) { byte[] k = new byte[16]; r.nextBytes(k); b.put(k, v); }
          db.write(wo, b);
        }
        if ((i & 0x3ffff) == 0) maxHuge = Math.max(maxHuge, huge());
      }
      long t = System.nanoTime() - t0;
      System.out.printf("arena=%d puts/s=%.0f maxAnonHugeKB=%d endAnonHugeKB=%d%n", arena, n * 1e9 / t, maxHuge, huge());
    }
  }
  static long huge() throws Exception {
    for (String l : Files.readAllLines(Paths.get("/proc/self/smaps_rollup")))
      if (l.startsWith("AnonHugePages:")) return Long.parseLong(l.replaceAll("[^0-9]", ""));
    return -1;
  }
}
