import io.p2kv.P2kv;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.LongAdder;

/** 256 virtual threads put for 15 s into a 1-shard store (budget MiB, durability); cores busy; then RocksDB's stall warnings from its LOG. Usage: VtStall 512 WAL|NO_WAL */
public class VtStall {
  public static void main(String[] a) throws Exception {
    Path dir = Files.createTempDirectory("vtstall");
    LongAdder puts = new LongAdder();
    long t0 = System.nanoTime();
    try (P2kv s = P2kv.builder().shards(1).memoryBudgetBytes(Long.parseLong(a[0]) << 20).durability(io.p2kv.Durability.valueOf(a[1])).open(dir)) {
      byte[] v = new byte[112];
      long end = System.nanoTime() + 15_000_000_000L;
      try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
        for (int t = 0; t < 256; t++) {
          final int tt = t;
          ex.submit(() -> {
            SplittableRandom r = new SplittableRandom(tt);
            while (System.nanoTime() < end) {
              byte[] k = new byte[16];
              r.nextBytes(k);
              s.put(k, v);
              puts.increment();
            }
            return null;
          });
        }
      }
      double secs = (System.nanoTime() - t0) / 1e9;
      long cpu = ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
      System.out.printf("%s puts/s %.0f, cores busy %.2f (process CPU / wall, from the store's open)%n", a[1], puts.sum() / secs, cpu / 1e9 / secs);
      System.out.println(s.stats().shards().get(0));
    }
    try (var files = Files.walk(dir)) {
      files.filter(p -> p.getFileName().toString().startsWith("LOG")).forEach(p -> {
        try {
          var lines = Files.readAllLines(p);
          System.out.println(p + ": " + lines.size() + " lines, stall lines: " + lines.stream().filter(l -> l.toLowerCase().contains("stall") || l.contains("Stopping")).count());
          lines.stream().filter(l -> l.toLowerCase().contains("stall") || l.contains("Stopping")).limit(8).forEach(System.out::println);
        } catch (Exception e) {
          throw new RuntimeException(e);
        }
      });
    }
  }
}
