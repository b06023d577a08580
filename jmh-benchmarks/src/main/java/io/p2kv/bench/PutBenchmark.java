package io.p2kv.bench;

import io.p2kv.Durability;
import io.p2kv.P2kv;
import io.p2kv.ReadPath;
import io.p2kv.ValueSeparation;
import java.util.ArrayDeque;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jmh.annotations.AuxCounters;
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
 * Random puts into p2kv: sync, async with futures, async with callbacks. Compare with {@link
 * RocksDbPutBenchmark} and {@link BatchLimitBenchmark} run with the same parameters in the same
 * run (the suite script does).
 *
 * <p>Each trial opens a fresh store in a temporary directory and deletes it afterwards. Async
 * callers keep up to {@code window} requests in flight each; the {@code windowWaits} counter
 * shows how often a caller had to wait for its window, {@code rejectedOffers} how often a caller
 * found a shard queue full (back-pressure).
 *
 * <p>Durable writes (group commit): {@code asyncPutCallback} with {@code durability=SYNC} is N
 * callers x {@code window} async puts in flight, each acknowledged after the fsync of its batch;
 * {@code jmh-benchmarks/run-write-path.sh} runs it with {@code syncPut} and RocksDB's {@code
 * sync=true} baseline in one JMH run.
 *
 * <p>Run: {@code java -jar jmh-benchmarks/target/benchmarks.jar PutBenchmark -t 16 -p shards=1
 * -p maxBatch=128 -p valueBytes=112 -p durability=WAL -prof gc}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 1, time = 3)
@Measurement(iterations = 3, time = 3)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class PutBenchmark {
  /** Number of shards. */
  @Param({"1", "2", "4"})
  public int shards;

  /** Most operations per engine call; 1 turns batching off. */
  @Param({"" + Stores.MAX_BATCH, "1"})
  public int maxBatch;

  /** Value size (keys are 16 bytes). */
  @Param({"112", "1024"})
  public int valueBytes;

  /** WAL (no fsync) or SYNC (fsync per batch). */
  @Param({"WAL", "SYNC"})
  public String durability;

  /** Async requests in flight per caller thread. */
  @Param({"64"})
  public int window;

  /**
   * How long blocked callers and idle workers poll, yielding, before parking (p2kv's
   * yieldWaitNanos; default 50 us). 0 parks at once: the hand-off alternative it replaced.
   */
  @Param({"50000"})
  public long yieldWaitNanos;

  /** With durability SYNC: most writes per batch, so per fsync (p2kv's maxDurableBatch). */
  @Param({"1024"})
  public int maxDurableBatch;

  /** The value cache: p2kv's default, off, or a size in MiB ({@link Stores#open}); puts pay its upkeep. */
  @Param({"default"})
  public String cache;

  P2kv store;
  long lastRejected;

  @Setup(Level.Trial)
  public void open() {
    store =
        Stores.open(
            shards, maxBatch, Durability.valueOf(durability), ReadPath.DIRECT, yieldWaitNanos, ValueSeparation.none(),
            cache, b -> b.maxDurableBatch(maxDurableBatch));
  }

  /** Caller threads that have not finished their trial: {@link #close} waits for them. */
  final AtomicInteger activeCallers = new AtomicInteger();

  /**
   * Closes the store once every caller thread is done with it. JMH runs this teardown on the first
   * thread to end its last iteration, while the others may still be draining their async windows
   * or reading the store's stats in their own iteration teardowns (seen with durability SYNC, whose
   * drains take longest: a closed store failed the last iteration).
   */
  @TearDown(Level.Trial)
  public void close() throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (activeCallers.get() > 0 && System.nanoTime() - deadline < 0) {
      Thread.sleep(1);
    }
    Stores.printStats("p2kv", store);
    Stores.closeAndDelete(store);
  }

  /** Per caller thread: its random keys, its value, its async window. */
  @State(Scope.Thread)
  public static class Caller {
    SplittableRandom rnd;
    byte[] value;
    final ArrayDeque<CompletableFuture<Void>> inFlight = new ArrayDeque<>();
    final AtomicLong completed = new AtomicLong();
    long issued;
    /** The caller while it is parked for its window (asyncPutCallbackParking), else null. */
    volatile Thread waiter;
    /** Completions the parked caller waits for. */
    volatile long wakeAt;

    private PutBenchmark bench;

    @Setup(Level.Trial)
    public void setup(PutBenchmark b, ThreadParams t) {
      rnd = new SplittableRandom(1234 + t.getThreadIndex());
      value = BenchData.value(b.valueBytes, rnd);
      bench = b;
      b.activeCallers.incrementAndGet();
    }

    /** After this thread's last iteration and its teardowns: the store may close. */
    @TearDown(Level.Trial)
    public void done() {
      bench.activeCallers.decrementAndGet();
    }

    @TearDown(Level.Iteration)
    public void drain() {
      while (!inFlight.isEmpty()) {
        inFlight.poll().join();
      }
      while (completed.get() < issued) {
        Thread.yield();
      }
    }
  }

  /** Back-pressure made visible. */
  @AuxCounters(AuxCounters.Type.EVENTS)
  @State(Scope.Thread)
  public static class Backpressure {
    /** Times this caller found its async window full and waited. */
    public long windowWaits;

    /** Times callers found a shard queue full (reported by thread 0 for all). */
    public long rejectedOffers;

    @Setup(Level.Iteration)
    public void reset() {
      windowWaits = 0;
      rejectedOffers = 0;
    }

    @TearDown(Level.Iteration)
    public void collect(PutBenchmark b, ThreadParams t) {
      if (t.getThreadIndex() == 0) {
        long now = b.store.stats().rejectedOffers();
        rejectedOffers = now - b.lastRejected;
        b.lastRejected = now;
      }
    }
  }

  @Benchmark
  public void syncPut(Caller c) {
    store.put(BenchData.randomKey(c.rnd), c.value);
  }

  @Benchmark
  public void asyncPut(Caller c, Backpressure bp) {
    c.inFlight.add(store.putAsync(BenchData.randomKey(c.rnd), c.value));
    if (c.inFlight.size() >= window) {
      CompletableFuture<Void> oldest = c.inFlight.poll();
      if (!oldest.isDone()) {
        bp.windowWaits++;
        oldest.join();
      }
    }
  }

  @Benchmark
  public void asyncPutCallback(Caller c, Backpressure bp) {
    if (c.issued - c.completed.get() >= window) {
      bp.windowWaits++;
      do {
        Thread.yield();
      } while (c.issued - c.completed.get() >= window);
    }
    c.issued++;
    AtomicLong completed = c.completed;
    store.putAsync(BenchData.randomKey(c.rnd), c.value, (v, e) -> completed.incrementAndGet());
  }

  /**
   * Like {@link #asyncPutCallback}, but a caller whose window is full parks until half of it has
   * completed, instead of yielding in a loop: what a pipelining client that blocks does (see the
   * AsyncPipeline example), and no CPU spent polling on a machine where the workers need it.
   */
  @Benchmark
  public void asyncPutCallbackParking(Caller c, Backpressure bp) {
    if (c.issued - c.completed.get() >= window) {
      bp.windowWaits++;
      long target = c.issued - window / 2;
      c.wakeAt = target;
      c.waiter = Thread.currentThread();
      // The completer increments, then reads waiter; this thread sets waiter, then reads the count:
      // one of the two sees the other, so no wake-up is lost.
      while (c.completed.get() < target) {
        LockSupport.park(c);
      }
      c.waiter = null;
    }
    c.issued++;
    Caller caller = c;
    store.putAsync(
        BenchData.randomKey(c.rnd),
        c.value,
        (v, e) -> {
          long done = caller.completed.incrementAndGet();
          Thread w = caller.waiter;
          if (w != null && done >= caller.wakeAt) {
            LockSupport.unpark(w);
          }
        });
  }
}
