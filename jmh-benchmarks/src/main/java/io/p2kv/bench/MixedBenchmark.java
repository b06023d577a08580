package io.p2kv.bench;

import io.p2kv.Durability;
import io.p2kv.P2kv;
import io.p2kv.ReadPath;
import io.p2kv.ValueSeparation;
import io.p2kv.examples.tools.Zipfian;
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
 * Read/update mixes over preloaded data with Zipfian (0.99) key choice, the shape of YCSB A
 * (50/50) and B (95/5): p2kv sync operations against the same operations on one plain RocksDB
 * instance with the same options and data.
 *
 * <p>Run: {@code java -jar jmh-benchmarks/target/benchmarks.jar MixedBenchmark -t 16 -p
 * readPercent=50,95}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 3)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class MixedBenchmark {
  /** Data and mix shared by both targets. */
  @State(Scope.Benchmark)
  public static class Mix {
    /** Number of preloaded keys. */
    @Param({"1000000"})
    public long keys;

    /** Percent of reads; the rest are updates of existing keys. */
    @Param({"50", "95"})
    public int readPercent;

    Zipfian zipfian;
    byte[] value;

    @Setup(Level.Trial)
    public void setup() {
      zipfian = new Zipfian(keys, 0.99);
      value = BenchData.value(112, new SplittableRandom(5));
    }
  }

  /** A p2kv store loaded with the data. */
  @State(Scope.Benchmark)
  public static class P2kvStore {
    /** Number of shards. */
    @Param({"1", "2"})
    public int shards;

    /** The value cache: p2kv's default, off, or a size in MiB ({@link Stores#open}). */
    @Param({"default"})
    public String cache;

    /** How long a waiting sync caller yields before it parks (p2kv's default: 50 us; 0 parks at once). */
    @Param({"50000"})
    public long yieldWaitNanos;

    P2kv store;

    @Setup(Level.Trial)
    public void open(Mix mix) {
      store = Stores.open(shards, Stores.MAX_BATCH, Durability.WAL, ReadPath.DIRECT, yieldWaitNanos, ValueSeparation.none(), cache);
      Stores.preload(store, mix.keys, 112);
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
    public void open(Mix mix) {
      db = RocksBaseline.open("rocksdb", Durability.WAL, Stores.MEMORY_BUDGET_BYTES);
      db.preload(mix.keys, 112);
    }

    @TearDown(Level.Trial)
    public void close() {
      db.close();
    }
  }

  /** Per caller thread random. */
  @State(Scope.Thread)
  public static class Caller {
    SplittableRandom rnd;

    @Setup(Level.Trial)
    public void setup(ThreadParams t) {
      rnd = new SplittableRandom(31 + t.getThreadIndex());
    }
  }

  @Benchmark
  public Object p2kv(P2kvStore s, Mix mix, Caller c) {
    byte[] key = BenchData.key(mix.zipfian.next(c.rnd));
    if (c.rnd.nextInt(100) < mix.readPercent) {
      return s.store.get(key);
    }
    s.store.put(key, mix.value);
    return key;
  }

  @Benchmark
  public Object rocksdb(RocksStore s, Mix mix, Caller c) {
    byte[] key = BenchData.key(mix.zipfian.next(c.rnd));
    if (c.rnd.nextInt(100) < mix.readPercent) {
      return s.db.get(key);
    }
    s.db.put(key, mix.value);
    return key;
  }
}
