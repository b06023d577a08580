package io.p2kv.bench;

import io.p2kv.Durability;
import io.p2kv.P2kv;
import io.p2kv.ReadPath;
import io.p2kv.ShardStats;
import io.p2kv.ValueSeparation;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.ThreadParams;

/**
 * Read-modify-write of existing 128-byte values (16-byte keys), 16 callers by default, uniform or
 * Zipfian (0.99, scrambled) keys over a preloaded, compacted key space. Each operation reads a
 * value, adds 1 to the 8-byte big-endian counter at its start, and writes it back, atomically per
 * key (two callers never lose each other's change):
 *
 * <ul>
 *   <li>{@code p2kvUpdate}: one {@code P2kv.update}; the shard worker reads, modifies and writes,
 *       batched with the other updates of its run (one multiGet, one WriteBatch), no lock;
 *   <li>{@code rocksdbLocked}: what a RocksDB user in Java writes (RocksDB's merge operators are
 *       C++ only): get, modify, put on one plain RocksDB instance with p2kv's shard options, under
 *       a striped per-key lock (1024 stripes, as the YCSB baseline);
 *   <li>{@code p2kvGetPutLocked}: the same locked loop over p2kv's own get and put.
 * </ul>
 *
 * <p>Issue 16's targets: {@code p2kvUpdate} at least 2x {@code rocksdbLocked} and 1.5x {@code
 * p2kvGetPutLocked}. At the end of each p2kv trial the log shows the store's update count, the
 * longest update function and the mean write batch ({@code # p2kv ...}).
 *
 * <p>Run: {@code java -jar jmh-benchmarks/target/benchmarks.jar UpdateBenchmark -t 16 -p
 * distribution=uniform,zipfian -p shards=1}
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 3)
@Measurement(iterations = 3, time = 3)
@Threads(16)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class UpdateBenchmark {
  /** Value length of every record. */
  static final int VALUE_BYTES = 128;

  /** The modification: the counter in the value's first 8 bytes, plus one, in place. */
  static final UnaryOperator<byte[]> BUMP = UpdateBenchmark::bump;

  static byte[] bump(byte[] v) {
    long c = 0;
    for (int i = 0; i < 8; i++) {
      c = (c << 8) | (v[i] & 0xFF);
    }
    c++;
    for (int i = 7; i >= 0; i--) {
      v[i] = (byte) c;
      c >>>= 8;
    }
    return v;
  }

  /** The striped per-key locks of the locked loops, as in the YCSB baseline. */
  @State(Scope.Benchmark)
  public static class Locks {
    static final int STRIPES = 1024;
    final ReentrantLock[] stripes = new ReentrantLock[STRIPES];

    @Setup(Level.Trial)
    public void setup() {
      for (int i = 0; i < STRIPES; i++) {
        stripes[i] = new ReentrantLock();
      }
    }

    ReentrantLock of(long index) {
      return stripes[(int) (BenchData.mix(index) & (STRIPES - 1))];
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

    P2kv store;

    @Setup(Level.Trial)
    public void open(KeyChoice data) {
      store = Stores.open(shards, Stores.MAX_BATCH, Durability.WAL, ReadPath.DIRECT, 50_000, ValueSeparation.none(), cache);
      Stores.preload(store, data.keys, VALUE_BYTES);
    }

    @TearDown(Level.Trial)
    public void close() {
      var stats = store.stats();
      if (stats.updates() > 0) {
        long preRead = stats.shards().stream().mapToLong(ShardStats::preReadUpdates).sum();
        System.out.printf("%n# p2kv updates: %,d functions, longest %.1f us, mean write batch %.2f, %.1f%% used their caller's read%n",
            stats.updates(), stats.maxUpdateNanos() / 1e3, stats.meanWriteBatch(), 100.0 * preRead / stats.updates());
      }
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
      db.preload(data.keys, VALUE_BYTES);
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
      rnd = new SplittableRandom(1601 + t.getThreadIndex());
    }
  }

  @Benchmark
  public byte[] p2kvUpdate(P2kvStore s, KeyChoice data, Caller c) {
    return s.store.update(BenchData.key(data.nextIndex(c.rnd)), BUMP);
  }

  @Benchmark
  public byte[] rocksdbLocked(RocksStore s, KeyChoice data, Locks locks, Caller c) {
    long i = data.nextIndex(c.rnd);
    byte[] key = BenchData.key(i);
    ReentrantLock lock = locks.of(i);
    lock.lock();
    try {
      byte[] v = bump(s.db.get(key));
      s.db.put(key, v);
      return v;
    } finally {
      lock.unlock();
    }
  }

  @Benchmark
  public byte[] p2kvGetPutLocked(P2kvStore s, KeyChoice data, Locks locks, Caller c) {
    long i = data.nextIndex(c.rnd);
    byte[] key = BenchData.key(i);
    ReentrantLock lock = locks.of(i);
    lock.lock();
    try {
      byte[] v = bump(s.store.get(key));
      s.store.put(key, v);
      return v;
    } finally {
      lock.unlock();
    }
  }
}
