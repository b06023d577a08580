package io.p2kv.kafka.bench;

import io.p2kv.P2kv;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The measurement behind the per-task design decision (docs/ARCHITECTURE.md, "Kafka Streams"):
 * {@code tasks} tasks' stores as one p2kv store each (1 shard, as a task store would be opened) or
 * as key ranges of one shared store. Two "stream threads" put {@code puts} 100-byte values spread
 * over the tasks, in runs of 100 puts per task (a task's poll batch), then everything idles for 2 s.
 * Prints threads, wall and process CPU time for the writes, CPU time while idle, and resident
 * memory.
 *
 * <p>Run: see docs/benchmarks/KAFKA-STREAMS.md, e.g. {@code java -cp "$(cat kafka-streams/target/test-cp.txt):
 * kafka-streams/target/test-classes:kafka-streams/target/classes" io.p2kv.kafka.bench.StoreLayoutMeasure
 * shared|per-task 32 400000 DIR}
 */
public final class StoreLayoutMeasure {
  private StoreLayoutMeasure() {}

  public static void main(String[] args) throws Exception {
    boolean shared = args[0].equals("shared");
    int tasks = Integer.parseInt(args[1]);
    int puts = Integer.parseInt(args[2]);
    Path dir = Files.createDirectories(Path.of(args[3]));
    List<P2kv> stores = new ArrayList<>();
    if (shared) {
      stores.add(P2kv.builder().shards(1).memoryBudgetBytes(256L << 20).open(dir.resolve("shared")));
    } else {
      for (int t = 0; t < tasks; t++) {
        // Each task's store gets a share of the same total budget (16 MiB is p2kv's minimum).
        stores.add(P2kv.builder().shards(1).memoryBudgetBytes(Math.max(16L << 20, (256L << 20) / tasks))
            .open(dir.resolve("task-" + t)));
      }
    }
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    Thread[] writers = new Thread[2];
    for (int w = 0; w < writers.length; w++) {
      int first = w;
      writers[w] = new Thread(() -> {
        byte[] value = new byte[100];
        ThreadLocalRandom r = ThreadLocalRandom.current();
        for (int i = 0; i < puts / writers.length; ) {
          int task = first + 2 * r.nextInt(tasks / 2); // each writer owns half of the tasks
          P2kv s = shared ? stores.get(0) : stores.get(task);
          for (int j = 0; j < 100; j++, i++) {
            byte[] key = ByteBuffer.allocate(12).putInt(task).putLong(r.nextLong(1_000_000)).array();
            r.nextBytes(value);
            s.put(key, value);
          }
        }
      });
      writers[w].start();
    }
    for (Thread w : writers) {
      w.join();
    }
    long wall = System.nanoTime() - t0;
    long cpu1 = os.getProcessCpuTime();
    Thread.sleep(2000);
    long cpu2 = os.getProcessCpuTime();
    String rss = Files.readAllLines(Path.of("/proc/self/status")).stream()
        .filter(l -> l.startsWith("VmRSS")).findFirst().orElse("?");
    System.out.printf("%s tasks=%d puts=%d threads=%d writes: %.0f puts/s, %.2f us CPU/put; idle CPU %.1f%% of a core; %s%n",
        args[0], tasks, puts, ManagementFactory.getThreadMXBean().getThreadCount(), puts / (wall / 1e9), (cpu1 - cpu0) / 1e3 / puts,
        (cpu2 - cpu1) / 2e9 * 100, rss.replaceAll("\\s+", " "));
    for (P2kv s : stores) {
      s.close();
    }
  }
}
