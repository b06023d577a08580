package io.p2kv.bench;

import io.p2kv.Durability;
import io.p2kv.KeyValue;
import io.p2kv.P2kv;
import io.p2kv.ReadPath;
import io.p2kv.ValueSeparation;
import java.nio.ByteBuffer;
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
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Ordered reads over a preloaded, compacted store of {@code keys} pairs (16 + 112 bytes, keys
 * spread uniformly over the key space): SCAN of {@code length} pairs from a random start, and
 * RANGE over a random interval holding about {@code length} pairs; p2kv with hash or key-range
 * partitioning against one plain RocksDB instance with the same options and data. Scores are
 * ordered reads per second.
 *
 * <p>Run: {@code java -jar jmh-benchmarks/target/benchmarks.jar ScanBenchmark -t 1 -p
 * length=10,100,1000 -p shards=1,4 -p partitioning=hash,range}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 3)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ScanBenchmark {
  /** Data and read size shared by both targets. */
  @State(Scope.Benchmark)
  public static class Data {
    /** Preloaded keys. */
    @Param({"500000"})
    public long keys;

    /** Pairs per SCAN, and about the pairs per RANGE. */
    @Param({"10", "100", "1000"})
    public int length;
  }

  /** A p2kv store loaded with the data. */
  @State(Scope.Benchmark)
  public static class P2kvStore {
    /** Shards. */
    @Param({"1", "4"})
    public int shards;

    /** hash (the default) or range (split keys at equal quantiles of the key space). */
    @Param({"hash", "range"})
    public String partitioning;

    /**
     * Value placement: p2kv's default policy (what a user gets), or every value inline like the
     * plain-RocksDB baseline ({@link Stores#separation}).
     */
    @Param({"default", "none"})
    public String separation;

    P2kv store;

    @Setup(Level.Trial)
    public void open(Data data) {
      P2kv.Builder b = P2kv.builder().shards(shards).durability(Durability.WAL).readPath(ReadPath.DIRECT)
          .valueSeparation(Stores.separation(separation))
          .memoryBudgetBytes(Stores.MEMORY_BUDGET_BYTES);
      if (partitioning.equals("range") && shards > 1) {
        List<byte[]> splits = new ArrayList<>();
        for (int i = 1; i < shards; i++) {
          splits.add(prefix(Long.divideUnsigned(-1L, shards) * i));
        }
        b.rangePartitioning(splits);
      }
      store = b.open(BenchData.tempDir("p2kv-scan"));
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
    public void open(Data data) {
      db = RocksBaseline.open("rocksdb", Durability.WAL, Stores.MEMORY_BUDGET_BYTES);
      db.preload(data.keys, 112);
    }

    @TearDown(Level.Trial)
    public void close() {
      db.close();
    }
  }

  /**
   * Four plain RocksDB instances with the data hashed over them as p2kv's hash partitioning does,
   * read by {@link RocksBaseline#mergedScan}: the floor for a scan over 4 hash shards.
   */
  @State(Scope.Benchmark)
  public static class RocksX4Store {
    RocksBaseline db;

    @Setup(Level.Trial)
    public void open(Data data) {
      db = RocksBaseline.open("rocksdb-x4", Durability.WAL, Stores.MEMORY_BUDGET_BYTES);
      db.preload(data.keys, 112);
    }

    @TearDown(Level.Trial)
    public void close() {
      db.close();
    }
  }

  /** Per caller: random starts. */
  @State(Scope.Thread)
  public static class Caller {
    SplittableRandom rnd;

    @Setup(Level.Trial)
    public void setup(ThreadParams t) {
      rnd = new SplittableRandom(99 + t.getThreadIndex());
    }

    byte[] start() {
      return prefix(rnd.nextLong());
    }

    /** [start, end) holding about {@code length} of {@code keys} uniformly spread keys. */
    byte[][] interval(Data data) {
      long width = Long.divideUnsigned(-1L, data.keys) * data.length;
      long from = rnd.nextLong();
      if (Long.compareUnsigned(from, -1L - width) > 0) {
        from = -1L - width;
      }
      return new byte[][] {prefix(from), prefix(from + width)};
    }
  }

  static byte[] prefix(long v) {
    return ByteBuffer.allocate(8).putLong(v).array();
  }

  @Benchmark
  public List<KeyValue> p2kvScan(P2kvStore s, Data data, Caller c) {
    return s.store.scan(c.start(), data.length);
  }

  @Benchmark
  public List<KeyValue> rocksScan(RocksStore s, Data data, Caller c) {
    return s.db.scan(c.start(), data.length);
  }

  @Benchmark
  public List<KeyValue> rocksX4Scan(RocksX4Store s, Data data, Caller c) {
    return s.db.mergedScan(c.start(), data.length);
  }

  @Benchmark
  public List<KeyValue> p2kvRange(P2kvStore s, Data data, Caller c) {
    byte[][] iv = c.interval(data);
    return s.store.range(iv[0], iv[1]);
  }

  @Benchmark
  public List<KeyValue> rocksRange(RocksStore s, Data data, Caller c) {
    byte[][] iv = c.interval(data);
    return s.db.range(iv[0], iv[1]);
  }
}
