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

/**
 * A batch of {@code ops} random puts (16-byte keys, 100-byte values, keys sharing a 40-byte
 * prefix as a Kafka Streams task's do) written with {@link P2kv#load} (sorted table files,
 * ingested), with {@link P2kv#loadSorted} after the caller sorted it, or with {@link
 * P2kv#write(Batch)} (the worker's write batch, log and memtable), from one caller, with the
 * store's default durability. Scores are batches per second; multiply by {@code ops} for
 * pairs per second. Each batch is new keys and values (built in the measured method for both), so
 * the store grows as a bulk import's does, with its flushes and compactions.
 *
 * <p>Run: {@code java -jar jmh-benchmarks/target/benchmarks.jar BulkLoadBenchmark -p
 * ops=1024,4096,32768 -prof io.p2kv.bench.CpuProfiler}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 3)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class BulkLoadBenchmark {
  /** Shards. */
  @Param({"1"})
  public int shards;

  /** Puts per batch. */
  @Param({"1024", "4096", "32768"})
  public int ops;

  P2kv store;
  SplittableRandom rnd;
  byte[] prefix;
  byte[] value;

  @Setup(Level.Trial)
  public void open() {
    store = Stores.open(shards, Stores.MAX_BATCH, Durability.WAL, ReadPath.DIRECT);
    rnd = new SplittableRandom(42);
    prefix = BenchData.value(40, rnd);
    value = BenchData.value(100, rnd);
  }

  @TearDown(Level.Trial)
  public void close() {
    Stores.printStats("p2kv", store);
    Stores.closeAndDelete(store);
  }

  private Batch batch() {
    Batch b = new Batch(ops);
    for (int i = 0; i < ops; i++) {
      byte[] key = java.util.Arrays.copyOf(prefix, prefix.length + 16);
      long a = rnd.nextLong();
      long c = rnd.nextLong();
      for (int j = 0; j < 8; j++) {
        key[prefix.length + j] = (byte) (a >>> (8 * j));
        key[prefix.length + 8 + j] = (byte) (c >>> (8 * j));
      }
      b.put(key, value);
    }
    return b;
  }

  @Benchmark
  public void load() {
    store.load(batch());
  }

  /** The same batch sorted by the caller ({@code Batch.sortByKey}), then streamed in. */
  @Benchmark
  public void loadSorted() {
    store.loadSorted(batch().sortByKey().ops().iterator());
  }

  @Benchmark
  public void write() {
    store.write(batch());
  }
}
