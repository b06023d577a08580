package io.p2kv.bench;

import io.p2kv.OperationType;
import io.p2kv.internal.metrics.LatencyRecorder;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What latency recording adds to one operation, in nanoseconds: {@code record} is what a store
 * with {@code recordLatency(true)} does per operation (a clock read at the start, one at the end,
 * an HdrHistogram increment); {@code clockOnly} is the two clock reads alone. Run with {@code -t 1}
 * and {@code -t 2} (contention between cores). The store-level cost is measured with {@code
 * PutBenchmark} and {@code -jvmArgsAppend -Dp2kv.bench.recordLatency=true}; see
 * docs/ARCHITECTURE.md (Metrics).
 *
 * <p>Run: {@code java -jar jmh-benchmarks/target/benchmarks.jar LatencyRecorderBenchmark -t 2}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 1)
@Measurement(iterations = 3, time = 1)
@Fork(1)
public class LatencyRecorderBenchmark {
  final LatencyRecorder recorder = LatencyRecorder.create();

  @Benchmark
  public void record() {
    recorder.record(OperationType.PUT, System.nanoTime());
  }

  @Benchmark
  public long clockOnly() {
    return System.nanoTime() - System.nanoTime();
  }
}
