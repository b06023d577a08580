package io.p2kv.bench;

import io.p2kv.CutStats;
import io.p2kv.Durability;
import io.p2kv.P2kv;
import io.p2kv.ReadPath;
import io.p2kv.Snapshot;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Consistent cuts under load: 16 threads put random keys while one more thread takes consistent
 * cuts of the store back to back: nothing ({@code cut=none}, the baseline of the same run),
 * snapshots (taken and closed), or checkpoints (written and deleted). The {@code put} row is the
 * writers' throughput; the {@code cutter} row is cuts per second. At the end of each trial the
 * log shows ({@code # cut=...}) the mean and largest time one cut call took, and the writer stall
 * the store counted ({@link CutStats}: how long each cut held the writers, from the first worker at
 * its barrier until the last went on), then the writers' put latency percentiles up to the largest
 * ({@code # p2kv PUT latency}). All over the whole trial, warm-up included.
 *
 * <p>Run (each fork is one round; {@code jmh-benchmarks/run-cuts.sh} runs this and renders
 * docs/benchmarks/CUTS.md): {@code java -jar jmh-benchmarks/target/benchmarks.jar CutBenchmark -p
 * cut=none,snapshot,checkpoint -f 3 -wi 1 -w 3 -i 3 -r 3}
 */
@State(Scope.Group)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 3)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g", "-Dp2kv.bench.recordLatency=true"})
public class CutBenchmark {
  /** Number of shards. */
  @Param({"4"})
  public int shards;

  /** What the cutter thread does back to back: none, snapshot or checkpoint. */
  @Param({"none", "snapshot", "checkpoint"})
  public String cut;

  /** Keys loaded before the trial (128-byte pairs). */
  @Param({"200000"})
  public long keys;

  P2kv store;
  Path checkpoints;
  long cuts;
  long cutNanos;
  long maxCutNanos;

  @Setup(Level.Trial)
  public void open() {
    store = Stores.open(shards, Stores.MAX_BATCH, Durability.WAL, ReadPath.DIRECT);
    Stores.preload(store, keys, 112);
    checkpoints = BenchData.tempDir("p2kv-bench-checkpoints");
  }

  @TearDown(Level.Trial)
  public void close() {
    CutStats held = store.stats().cuts();
    System.out.printf(
        Locale.ROOT,
        "%n# cut=%s: %d cuts, mean %.3f ms, max %.3f ms; writers held %d times, mean %.3f ms, max %.3f ms%n",
        cut, cuts, cuts == 0 ? 0 : cutNanos / 1e6 / cuts, maxCutNanos / 1e6,
        held.count(), held.meanHoldNanos() / 1e6, held.maxHoldNanos() / 1e6);
    Stores.printStats("p2kv", store);
    Stores.closeAndDelete(store);
    BenchData.deleteTree(checkpoints);
  }

  /** Per writer thread: its random keys and value. */
  @State(Scope.Thread)
  public static class Writer {
    SplittableRandom rnd;
    byte[] value;

    @Setup(Level.Trial)
    public void setup(ThreadParams t) {
      rnd = new SplittableRandom(99 + t.getThreadIndex());
      value = BenchData.value(112, rnd);
    }
  }

  @Benchmark
  @Group("cuts")
  @GroupThreads(16)
  public void put(Writer w) {
    store.put(BenchData.randomKey(w.rnd), w.value);
  }

  @Benchmark
  @Group("cuts")
  @GroupThreads(1)
  public void cutter() {
    long start = System.nanoTime();
    long took;
    switch (cut) {
      case "none" -> {
        LockSupport.parkNanos(1_000_000); // the baseline: the cutter thread idles
        return;
      }
      case "snapshot" -> {
        Snapshot s = store.snapshot();
        took = System.nanoTime() - start;
        s.close();
      }
      case "checkpoint" -> {
        Path target = checkpoints.resolve("cp-" + cuts);
        store.checkpoint(target);
        took = System.nanoTime() - start;
        BenchData.deleteTree(target); // not timed
      }
      default -> throw new IllegalArgumentException("cut=" + cut);
    }
    cuts++;
    cutNanos += took;
    maxCutNanos = Math.max(maxCutNanos, took);
  }
}
