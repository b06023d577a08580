package io.p2kv.bench;

import io.p2kv.Durability;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The batching limit: one thread writing pre-built batches of 32 random puts into one plain
 * RocksDB instance, with no queue and no hand-off. The ceiling a single p2kv worker can reach;
 * scores are puts per second.
 *
 * <p>{@code batch} splits each invocation's 32 puts into engine writes of that many puts (32: one
 * WriteBatch of 32, the limit; 1: 32 single-put writes): the CPU per put at two batch sizes gives
 * RocksDB's cost per engine write and per key (docs/benchmarks/SCALING.md), and {@code
 * durability=NO_WAL} against {@code WAL} the write-ahead log's share.
 *
 * <p>Run: {@code java -jar jmh-benchmarks/target/benchmarks.jar BatchLimitBenchmark -p
 * valueBytes=112 -p durability=WAL}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 3)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Threads(1)
public class BatchLimitBenchmark {
  /** Value size (keys are 16 bytes). */
  @Param({"112", "1024"})
  public int valueBytes;

  /** WAL (no fsync) or SYNC (fsync per batch). */
  @Param({"WAL", "SYNC"})
  public String durability;

  /** Puts per engine write: 1, 2, 4, 8, 16 or 32 (a divisor of 32). */
  @Param({"32"})
  public int batch;

  RocksBaseline db;
  SplittableRandom rnd;
  byte[] value;
  final List<byte[]> keys = new ArrayList<>(32);

  @Setup(Level.Trial)
  public void open() {
    db = RocksBaseline.open("rocksdb", Durability.valueOf(durability), Stores.MEMORY_BUDGET_BYTES);
    rnd = new SplittableRandom(99);
    value = BenchData.value(valueBytes, rnd);
    if (batch < 1 || 32 % batch != 0) {
      throw new IllegalArgumentException("batch must divide 32, got " + batch);
    }
  }

  @TearDown(Level.Trial)
  public void close() {
    db.close();
  }

  @Benchmark
  @OperationsPerInvocation(32)
  public void writeBatchOf32() {
    keys.clear();
    for (int i = 0; i < 32; i++) {
      keys.add(BenchData.randomKey(rnd));
    }
    for (int from = 0; from < 32; from += batch) {
      db.writeBatch(keys.subList(from, from + batch), value);
    }
  }
}
