package io.p2kv.bench;

import io.p2kv.Durability;
import io.p2kv.P2kv;
import io.p2kv.ReadPath;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
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
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Random point reads over a preloaded, compacted store of {@code keys} pairs of 16 + 112 bytes,
 * uniform or Zipfian (0.99, scrambled): p2kv sync gets, async gets, multiGets of 32, on either
 * read path; and the same reads straight from one plain RocksDB instance with the same options and
 * data (the baseline and the multiGet read limit).
 *
 * <p>Run: {@code java -jar jmh-benchmarks/target/benchmarks.jar GetBenchmark -t 16 -p
 * distribution=uniform -p readPath=DIRECT,WORKER}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 3)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class GetBenchmark {
  /** A p2kv store loaded with the data. */
  @State(Scope.Benchmark)
  public static class P2kvStore {
    /** Number of shards. */
    @Param({"1", "2"})
    public int shards;

    /** Where reads run. */
    @Param({"DIRECT", "WORKER"})
    public String readPath;

    /**
     * Value placement: p2kv's default policy (what a user gets), or every value inline like the
     * plain-RocksDB baseline ({@link Stores#separation}).
     */
    @Param({"default", "none"})
    public String separation;

    /** The value cache: p2kv's default, off, or a size in MiB ({@link Stores#open}). */
    @Param({"default"})
    public String cache;

    P2kv store;

    @Setup(Level.Trial)
    public void open(KeyChoice data) {
      store = Stores.open(shards, Stores.MAX_BATCH, Durability.WAL, ReadPath.valueOf(readPath), 50_000, Stores.separation(separation), cache);
      Stores.preload(store, data.keys, 112);
    }

    @TearDown(Level.Trial)
    public void close() {
      Stores.closeAndDelete(store);
    }
  }

  /** One plain RocksDB instance loaded with the same data. */
  @State(Scope.Benchmark)
  public static class RocksStore {
    RocksBaseline db;

    @Setup(Level.Trial)
    public void open(KeyChoice data) {
      db = RocksBaseline.open("rocksdb", Durability.WAL, Stores.MEMORY_BUDGET_BYTES);
      db.preload(data.keys, 112);
    }

    @TearDown(Level.Trial)
    public void close() {
      db.close();
    }
  }

  /** Per caller thread: its random and its async window. */
  @State(Scope.Thread)
  public static class Caller {
    SplittableRandom rnd;
    final ArrayDeque<CompletableFuture<byte[]>> inFlight = new ArrayDeque<>();
    final List<byte[]> batch = new ArrayList<>(32);

    @Setup(Level.Trial)
    public void setup(ThreadParams t) {
      rnd = new SplittableRandom(777 + t.getThreadIndex());
    }

    @TearDown(Level.Iteration)
    public void drain() {
      while (!inFlight.isEmpty()) {
        inFlight.poll().join();
      }
    }

    List<byte[]> keys32(KeyChoice data) {
      batch.clear();
      for (int i = 0; i < 32; i++) {
        batch.add(BenchData.key(data.nextIndex(rnd)));
      }
      return batch;
    }
  }

  @Benchmark
  public byte[] p2kvGet(P2kvStore s, KeyChoice data, Caller c) {
    return s.store.get(BenchData.key(data.nextIndex(c.rnd)));
  }

  @Benchmark
  public void p2kvGetAsync(P2kvStore s, KeyChoice data, Caller c, Blackhole bh) {
    c.inFlight.add(s.store.getAsync(BenchData.key(data.nextIndex(c.rnd))));
    if (c.inFlight.size() >= 64) {
      bh.consume(c.inFlight.poll().join());
    }
  }

  @Benchmark
  @OperationsPerInvocation(32)
  public List<byte[]> p2kvMultiGet32(P2kvStore s, KeyChoice data, Caller c) {
    return s.store.multiGet(c.keys32(data));
  }

  @Benchmark
  public byte[] rocksGet(RocksStore s, KeyChoice data, Caller c) {
    return s.db.get(BenchData.key(data.nextIndex(c.rnd)));
  }

  @Benchmark
  @OperationsPerInvocation(32)
  public List<byte[]> rocksMultiGet32(RocksStore s, KeyChoice data, Caller c) {
    return s.db.multiGet(c.keys32(data));
  }
}
