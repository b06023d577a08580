package io.p2kv.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.IterationParams;
import org.openjdk.jmh.profile.InternalProfiler;
import org.openjdk.jmh.results.AggregationPolicy;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.ScalarResult;

/**
 * Reports the CPU time the benchmark JVM spent per operation (every thread: callers, workers,
 * RocksDB's background threads, GC) and the cores it kept busy, per iteration. On a shared machine
 * CPU time per operation varies much less than throughput, because time other processes take is
 * not counted: use it to compare two variants of the same benchmark (A/B) when the machine is
 * busy. Throughput benchmarks only. Use with {@code -prof io.p2kv.bench.CpuProfiler}.
 *
 * <p>On Linux it also splits that CPU by thread group ({@code cpu.<group>.ns/op}, see {@link
 * ThreadGroup}), from each thread's {@code /proc/self/task/<tid>/schedstat} (nanoseconds on CPU)
 * and its name ({@code comm}, the first 15 characters of a Java thread's name): what the callers,
 * the shard workers and RocksDB's flush and compaction threads each cost per operation
 * (docs/benchmarks/SCALING.md). CPU of threads that ended during the iteration is in {@code
 * other}.
 */
public final class CpuProfiler implements InternalProfiler {
  /** Where a thread's CPU time is counted. */
  enum ThreadGroup {
    /** JMH's benchmark threads: the callers (and a sync caller in the worker's role). */
    CALLER,
    /** p2kv shard worker threads ({@code p2kv-shard-N}). */
    WORKER,
    /** RocksDB's background threads ({@code rocksdb:low} compaction, {@code rocksdb:high} flush). */
    ROCKSDB,
    /** Garbage collection and the VM thread. */
    GC,
    /** The JIT compilers. */
    JIT,
    /** Everything else, and threads that ended during the iteration. */
    OTHER;

    static ThreadGroup of(String comm) {
      if (comm.startsWith("p2kv-shard-")) {
        return WORKER;
      }
      if (comm.startsWith("rocksdb:")) {
        return ROCKSDB;
      }
      if (comm.contains("jmh-worker") || comm.startsWith("io.p2kv.bench")) {
        return CALLER;
      }
      if (comm.startsWith("GC ") || comm.startsWith("G1 ") || comm.startsWith("VM Thread")) {
        return GC;
      }
      if (comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler")) {
        return JIT;
      }
      return OTHER;
    }
  }

  private static final Path TASKS = Path.of("/proc/self/task");

  private long cpuStartNanos;
  private long wallStartNanos;
  private Map<String, long[]> threadsAtStart = Map.of();

  @Override
  public String getDescription() {
    return "process CPU time per operation and busy cores, split by thread group on Linux";
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  /** CPU nanoseconds of every live thread, keyed by tid, with its group's ordinal. */
  static Map<String, long[]> threadCpuNanos() {
    Map<String, long[]> out = new HashMap<>();
    if (!Files.isDirectory(TASKS)) {
      return out;
    }
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
      for (Path task : tasks) {
        try {
          String comm = Files.readString(task.resolve("comm")).trim();
          String sched = Files.readString(task.resolve("schedstat")).trim();
          long nanos = Long.parseLong(sched.substring(0, sched.indexOf(' ')));
          out.put(task.getFileName().toString(), new long[] {nanos, ThreadGroup.of(comm).ordinal()});
        } catch (IOException | RuntimeException gone) {
          // the thread ended while we listed it: its time is in OTHER
        }
      }
    } catch (IOException e) {
      return Map.of();
    }
    return out;
  }

  /**
   * CPU per group between two snapshots; what the process spent beyond the threads seen in both
   * (threads that ended, or started and ended) goes to OTHER.
   */
  static Map<ThreadGroup, Long> byGroup(Map<String, long[]> start, Map<String, long[]> end, long processCpuNanos) {
    Map<ThreadGroup, Long> out = new EnumMap<>(ThreadGroup.class);
    for (ThreadGroup g : ThreadGroup.values()) {
      out.put(g, 0L);
    }
    long attributed = 0;
    for (Map.Entry<String, long[]> e : end.entrySet()) {
      long[] s = start.get(e.getKey());
      long delta = e.getValue()[0] - (s == null ? 0 : s[0]);
      ThreadGroup g = ThreadGroup.values()[(int) e.getValue()[1]];
      out.merge(g, delta, Long::sum);
      attributed += delta;
    }
    out.merge(ThreadGroup.OTHER, Math.max(0, processCpuNanos - attributed), Long::sum);
    return out;
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    threadsAtStart = threadCpuNanos();
    cpuStartNanos = processCpuNanos();
    wallStartNanos = System.nanoTime();
  }

  @Override
  @SuppressWarnings("rawtypes") // JMH's InternalProfiler declares the raw Result type
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    double cpu = processCpuNanos() - cpuStartNanos;
    double wall = System.nanoTime() - wallStartNanos;
    Map<String, long[]> threadsAtEnd = threadCpuNanos();
    double opsPerSecond = result.getPrimaryResult().getScore();
    double ops = opsPerSecond * wall / 1e9;
    List<Result> out = new ArrayList<>();
    out.add(new ScalarResult("cpu.ns/op", ops > 0 ? cpu / ops : Double.NaN, "ns/op", AggregationPolicy.AVG));
    out.add(new ScalarResult("cpu.cores", cpu / wall, "cores", AggregationPolicy.AVG));
    if (!threadsAtEnd.isEmpty()) {
      byGroup(threadsAtStart, threadsAtEnd, (long) cpu)
          .forEach(
              (g, nanos) ->
                  out.add(
                      new ScalarResult(
                          "cpu." + g.name().toLowerCase(java.util.Locale.ROOT) + ".ns/op",
                          ops > 0 ? nanos / ops : Double.NaN,
                          "ns/op",
                          AggregationPolicy.AVG)));
    }
    return out;
  }
}
