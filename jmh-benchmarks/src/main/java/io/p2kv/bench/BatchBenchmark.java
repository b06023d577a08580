package io.p2kv.bench;

import io.p2kv.Batch;
import io.p2kv.Durability;
import io.p2kv.P2kv;
import io.p2kv.ReadPath;
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
 * Atomic batches of {@code ops} random puts (128-byte pairs): across shards (random keys, so a
 * batch of 2 or more usually spans shards and takes the GSN protocol), within one shard (keys
 * chosen to share a shard: one engine write), and the same operations issued as single sync puts.
 * Scores are batches (or groups of {@code ops} single puts) per second; multiply by {@code ops}
 * for puts per second.
 *
 * <p>Run: {@code java -jar jmh-benchmarks/target/benchmarks.jar BatchBenchmark -t 16 -p
 * shards=4 -p ops=2,8}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 3)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class BatchBenchmark {
  /** Shards (cross-shard batches need more than one). */
  @Param({"4"})
  public int shards;

  /** Operations per batch. */
  @Param({"2", "8"})
  public int ops;

  /** WAL (no fsync) or SYNC. */
  @Param({"WAL"})
  public String durability;

  P2kv store;

  @Setup(Level.Trial)
  public void open() {
    store = Stores.open(shards, Stores.MAX_BATCH, Durability.valueOf(durability), ReadPath.DIRECT);
  }

  @TearDown(Level.Trial)
  public void close() {
    Stores.printStats("p2kv", store);
    Stores.closeAndDelete(store);
  }

  /** Per caller thread: random keys and a value. */
  @State(Scope.Thread)
  public static class Caller {
    SplittableRandom rnd;
    byte[] value;
    final Batch batch = new Batch();

    @Setup(Level.Trial)
    public void setup(ThreadParams t) {
      rnd = new SplittableRandom(4242 + t.getThreadIndex());
      value = BenchData.value(112, rnd);
    }
  }

  @Benchmark
  public void crossShardBatch(Caller c) {
    c.batch.clear();
    for (int i = 0; i < ops; i++) {
      c.batch.put(BenchData.randomKey(c.rnd), c.value);
    }
    store.write(c.batch);
  }

  @Benchmark
  public void singleShardBatch(Caller c) {
    c.batch.clear();
    byte[] first = BenchData.randomKey(c.rnd);
    int shard = store.shardOf(first);
    c.batch.put(first, c.value);
    while (c.batch.size() < ops) {
      byte[] k = BenchData.randomKey(c.rnd);
      if (store.shardOf(k) == shard) {
        c.batch.put(k, c.value);
      }
    }
    store.write(c.batch);
  }

  @Benchmark
  public void singlePuts(Caller c) {
    for (int i = 0; i < ops; i++) {
      store.put(BenchData.randomKey(c.rnd), c.value);
    }
  }
}
