import io.p2kv.P2kv;
import java.nio.file.*;
import java.util.SplittableRandom;
/** Gets over a store of many small pairs (24-byte keys, 8-byte values): the SSTs' filter blocks outgrow a block-cache shard. */
public class SmallPairs {
  public static void main(String[] a) throws Exception {
    int n = Integer.parseInt(a[0]); long budget = Long.parseLong(a[1]) << 20; int gets = Integer.parseInt(a[2]);
    Path dir = Files.createTempDirectory("p2kv-smallpairs");
    try (P2kv s = P2kv.builder().shards(1).memoryBudgetBytes(budget).open(dir)) {
      long t0 = System.nanoTime();
      java.util.List<P2kv> unused = null;
      for (int i = 0; i < n; i++) {
        s.putAsync(key(i), new byte[8]);
        if ((i & 0xffff) == 0) s.put(key(i), new byte[8]);
      }
      s.put(key(0), new byte[8]);
      s.flush();
      s.compact();
      System.out.printf("loaded %d pairs in %.1f s%n", n, (System.nanoTime() - t0) / 1e9);
      SplittableRandom r = new SplittableRandom(7);
      for (int round = 0; round < 3; round++) {
        long t = System.nanoTime(); int found = 0;
        for (int i = 0; i < gets; i++) if (s.get(key(r.nextInt(n))) != null) found++;
        double us = (System.nanoTime() - t) / 1e3 / gets;
        System.out.printf("round %d: %d gets, %d found, %.2f us per get%n", round, gets, found, us);
      }
      System.out.println(s.stats());
    }
  }
  static byte[] key(int i) { return String.format("bench-key-%014d", i).getBytes(); }
}
