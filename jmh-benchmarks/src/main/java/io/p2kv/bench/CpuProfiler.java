package io.p2kv.bench;

import java.lang.management.ManagementFactory;
import java.util.Collection;
import java.util.List;
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
 */
public final class CpuProfiler implements InternalProfiler {
  private long cpuStartNanos;
  private long wallStartNanos;

  @Override
  public String getDescription() {
    return "process CPU time per operation and busy cores";
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getProcessCpuTime();
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {
    cpuStartNanos = processCpuNanos();
    wallStartNanos = System.nanoTime();
  }

  @Override
  @SuppressWarnings("rawtypes") // JMH's InternalProfiler declares the raw Result type
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    double cpu = processCpuNanos() - cpuStartNanos;
    double wall = System.nanoTime() - wallStartNanos;
    double opsPerSecond = result.getPrimaryResult().getScore();
    double ops = opsPerSecond * wall / 1e9;
    return List.of(
        new ScalarResult("cpu.ns/op", ops > 0 ? cpu / ops : Double.NaN, "ns/op", AggregationPolicy.AVG),
        new ScalarResult("cpu.cores", cpu / wall, "cores", AggregationPolicy.AVG));
  }
}
