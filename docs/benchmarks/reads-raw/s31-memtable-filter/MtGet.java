import io.p2kv.Durability;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.rocksdb.RocksDbEngineFactory;
import java.nio.file.*;
import java.util.*;

/** Single-thread (args: SST_KEYS MEM_KEYS GETS [memonly]; memonly: every get reads a key the memtable holds) gets against one shard: SST_KEYS compacted into SST files, MEM_KEYS in the memtable; uniform keys over both. */
public class MtGet {
  static byte[] key(long i) {
    long x = i * 0x9E3779B97F4A7C15L; x ^= x >>> 29;
    byte[] k = new byte[16];
    for (int b = 0; b < 8; b++) { k[b] = (byte) (x >>> (56 - 8 * b)); k[8 + b] = (byte) (i >>> (56 - 8 * b)); }
    return k;
  }
  public static void main(String[] a) throws Exception {
    int sst = Integer.parseInt(a[0]), mem = Integer.parseInt(a[1]), gets = Integer.parseInt(a[2]);
    Path dir = Files.createTempDirectory("mtget");
    byte[] v = new byte[112];
    new Random(1).nextBytes(v);
    try (RocksDbEngineFactory f = new RocksDbEngineFactory(1, 512L << 20, Durability.WAL, null)) {
      Engine e = f.open(0, dir, true);
      e.admin().startCompactions();
      for (int i = 0; i < sst; i++) e.put(key(i), v);
      e.admin().flush(); e.admin().compact();
      long p0 = System.nanoTime();
      for (int i = sst; i < sst + mem; i++) e.put(key(i), v);
      System.out.printf("puts into the memtable: %.0f ns/put%n", (double) (System.nanoTime() - p0) / mem);
      SplittableRandom r = new SplittableRandom(7);
      long found = 0;
      for (int round = 0; round < 5; round++) {
        long t0 = System.nanoTime();
        for (int i = 0; i < gets; i++) {
          long k = a.length > 3 && a[3].equals("memonly") ? sst + r.nextInt(mem) : r.nextInt(sst + mem);
          if (e.get(key(k)) != null) found++;
        }
        long t = System.nanoTime() - t0;
        System.out.printf("round %d: %.0f ns/get%n", round, (double) t / gets);
      }
      System.out.println("found " + found);
      e.close();
    }
  }
}
