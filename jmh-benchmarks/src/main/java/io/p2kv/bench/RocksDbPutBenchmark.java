package io.p2kv.bench;

import io.p2kv.Durability;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
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
 * Random puts straight into plain RocksDB from every caller thread: the baselines of {@link
 * PutBenchmark}, with the same per-instance options (see {@link RocksBaseline}).
 *
 * <p>Run: {@code java -jar jmh-benchmarks/target/benchmarks.jar RocksDbPutBenchmark -t 16 -p
 * baseline=rocksdb,rocksdb-pipelined,rocksdb-unordered,rocksdb-x2 -p valueBytes=112 -p
 * durability=WAL}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 3)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class RocksDbPutBenchmark {
  /** Which baseline (see {@link RocksBaseline#NAMES}). */
  @Param({"rocksdb", "rocksdb-pipelined", "rocksdb-unordered", "rocksdb-x2", "rocksdb-x4"})
  public String baseline;

  /** Value size (keys are 16 bytes). */
  @Param({"112", "1024"})
  public int valueBytes;

  /** WAL (no fsync) or SYNC (fsync per write). */
  @Param({"WAL", "SYNC"})
  public String durability;

  RocksBaseline db;

  @Setup(Level.Trial)
  public void open() {
    db = RocksBaseline.open(baseline, Durability.valueOf(durability), Stores.MEMORY_BUDGET_BYTES);
  }

  @TearDown(Level.Trial)
  public void close() {
    db.close();
  }

  /** Per caller thread: its random keys and its value. */
  @State(Scope.Thread)
  public static class Caller {
    SplittableRandom rnd;
    byte[] value;

    @Setup(Level.Trial)
    public void setup(RocksDbPutBenchmark b, ThreadParams t) {
      rnd = new SplittableRandom(1234 + t.getThreadIndex());
      value = BenchData.value(b.valueBytes, rnd);
    }
  }

  @Benchmark
  public void put(Caller c) {
    db.put(BenchData.randomKey(c.rnd), c.value);
  }
}
