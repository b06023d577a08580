package io.p2kv.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * Reports the benchmark JVM's peak resident memory (Linux {@code VmHWM}: heap, RocksDB's native
 * memory, everything) after each iteration. Use with {@code -prof io.p2kv.bench.RssProfiler}.
 */
public final class RssProfiler implements InternalProfiler {
  @Override
  public String getDescription() {
    return "peak resident set size of the benchmark JVM (VmHWM)";
  }

  @Override
  public void beforeIteration(BenchmarkParams benchmarkParams, IterationParams iterationParams) {}

  @Override
  @SuppressWarnings("rawtypes") // JMH's InternalProfiler declares the raw Result type
  public Collection<? extends Result> afterIteration(
      BenchmarkParams benchmarkParams, IterationParams iterationParams, IterationResult result) {
    return List.of(new ScalarResult("rss.peak", peakRssMiB(), "MiB", AggregationPolicy.MAX));
  }

  /** Peak RSS of this process in MiB, or -1 where /proc is not available. */
  public static double peakRssMiB() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmHWM:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024.0;
        }
      }
    } catch (IOException | NumberFormatException e) {
      return -1;
    }
    return -1;
  }
}
