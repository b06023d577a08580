package io.p2kv.bench;

import io.p2kv.Durability;
import io.p2kv.P2kv;
import io.p2kv.ReadPath;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
 * Sync puts from many virtual-thread callers (JDK 21+; run on the Temurin JDK 25): each
 * invocation starts {@code vthreads} virtual threads that do {@value #OPS} / {@code vthreads}
 * puts each, into p2kv or straight into plain RocksDB with the same options. Scores are puts per
 * second. Built on JDK 17 too: virtual threads are reached by reflection, and on an older JDK the
 * setup fails with a clear message.
 *
 * <p>Run: {@code /usr/lib/jvm/temurin-25-jdk-amd64/bin/java -jar
 * jmh-benchmarks/target/benchmarks.jar VirtualThreadPutBenchmark -p vthreads=256}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 3)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
@Threads(1)
public class VirtualThreadPutBenchmark {
  static final int OPS = 65_536;

  /** Virtual-thread callers per invocation. */
  @Param({"256"})
  public int vthreads;

  /** p2kv (1 shard) or the plain RocksDB baseline. */
  @Param({"p2kv", "rocksdb"})
  public String target;

  /** p2kv's yieldWaitNanos (idle workers and platform-thread callers; default 50 us). */
  @Param({"50000"})
  public long yieldWaitNanos;

  /** p2kv's maxBatch (default: p2kv's). */
  @Param({"" + Stores.MAX_BATCH})
  public int maxBatch;

  P2kv store;
  RocksBaseline db;
  ExecutorService executor;
  byte[] value;
  long round;

  @Setup(Level.Trial)
  public void open() throws Exception {
    try {
      executor = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    } catch (NoSuchMethodException e) {
      throw new IllegalStateException("VirtualThreadPutBenchmark needs JDK 21+, this is " + Runtime.version(), e);
    }
    value = BenchData.value(112, new SplittableRandom(3));
    if (target.equals("p2kv")) {
      store = Stores.open(1, maxBatch, Durability.WAL, ReadPath.DIRECT, yieldWaitNanos);
    } else {
      db = RocksBaseline.open("rocksdb", Durability.WAL, Stores.MEMORY_BUDGET_BYTES);
    }
  }

  @TearDown(Level.Trial)
  public void close() {
    executor.shutdown();
    if (store != null) {
      Stores.printStats("p2kv", store);
    }
    Stores.closeAndDelete(store);
    if (db != null) {
      db.close();
    }
  }

  @Benchmark
  @OperationsPerInvocation(OPS)
  public void syncPuts() throws Exception {
    int perThread = OPS / vthreads;
    long base = (round++) * OPS;
    List<Future<?>> done = new ArrayList<>(vthreads);
    for (int t = 0; t < vthreads; t++) {
      long start = base + (long) t * perThread;
      done.add(executor.submit(() -> {
        for (int i = 0; i < perThread; i++) {
          byte[] key = BenchData.key(BenchData.mix(start + i));
          if (store != null) {
            store.put(key, value);
          } else {
            db.put(key, value);
          }
        }
        return null;
      }));
    }
    for (Future<?> f : done) {
      f.get();
    }
  }
}
