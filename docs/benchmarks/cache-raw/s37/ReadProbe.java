import io.p2kv.*;
import java.nio.file.*;
import java.util.*;

public class ReadProbe {
  public static void main(String[] a) throws Exception {
    Path dir = Paths.get(a[0]);
    int n = 2_000_000, hot = 330_000;
    for (String mode : new String[] {"random", "sorted", "random", "sorted", "get-random"}) {
      Random r = new Random(1);
      byte[][] keys = new byte[hot][];
      for (int i = 0; i < hot; i++) keys[i] = WarmProbe.key(r.nextInt(n));
      if (mode.equals("sorted")) Arrays.sort(keys, Arrays::compareUnsigned);
      try (P2kv s = P2kv.builder().shards(1).memoryBudgetBytes(512L << 20).open(dir)) {
        long t0 = System.nanoTime();
        long found = 0;
        if (mode.startsWith("get")) {
          for (byte[] k : keys) if (s.get(k) != null) found++;
        } else {
          for (int i = 0; i < hot; i += 256) {
            List<byte[]> ks = Arrays.asList(keys).subList(i, Math.min(hot, i + 256));
            for (byte[] v : s.multiGet(ks)) if (v != null) found++;
          }
        }
        long t1 = System.nanoTime();
        System.out.printf("%s: %d ms (%.2f us/key) found %d%n", mode, (t1 - t0) / 1_000_000, (t1 - t0) / 1000.0 / hot, found);
      }
    }
  }
}
