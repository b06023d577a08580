import io.p2kv.*;
import java.io.*;
import java.nio.file.*;
import java.util.*;

public class WarmProbe {
  public static void main(String[] a) throws Exception {
    Path dir = Paths.get(a[0]);
    int n = 2_000_000, hot = Integer.parseInt(a[1]);
    boolean create = !Files.exists(dir);
    if (!create && a.length > 2) { try (P2kv s = P2kv.builder().shards(1).memoryBudgetBytes(512L << 20).open(dir)) { s.compact(); } }
    if (create) {
      try (P2kv s = P2kv.builder().shards(1).memoryBudgetBytes(512L << 20).open(dir)) {
        for (int b = 0; b < n; b += 100_000) {
          Batch batch = new Batch();
          for (int i = b; i < b + 100_000; i++) batch.put(key(i), new byte[100]);
          s.load(batch);
        }
        s.compact();
      }
    }
    // write the key file: hot random keys
    Random r = new Random(1);
    try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(dir.resolve("cache-keys"))))) {
      out.writeInt(0x50324b43); out.writeInt(2);
      for (int i = 0; i < hot; i++) { byte[] k = key(r.nextInt(n)); out.writeInt(k.length); out.write(k); out.writeInt(96 + k.length + 100); }
      out.writeInt(-1);
    }
    for (int round = 0; round < 3; round++) {
      long t0 = System.nanoTime();
      try (P2kv s = P2kv.builder().shards(1).memoryBudgetBytes(512L << 20).cacheBytes(128L << 20).open(dir)) {
        long t1 = System.nanoTime();
        System.out.printf("open+warm %d ms, %s%n", (t1 - t0) / 1_000_000, s.stats().cache());
      }
    }
  }
  static byte[] key(int i) { return String.format("user%019d", (long) i * 2654435761L % 10_000_000_000L).getBytes(); }
}
