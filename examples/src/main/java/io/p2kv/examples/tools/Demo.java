package io.p2kv.examples.tools;

import io.p2kv.CacheStats;
import io.p2kv.Durability;
import io.p2kv.P2kv;
import io.p2kv.ShardStats;
import io.p2kv.StoreStats;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BiConsumer;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * Not thread-safe: {@code ./p2kv demo}. Loads the same pairs into a p2kv store and into one plain
 * RocksDB instance with the same options, then runs each workload of {@link #WORKLOADS} on both,
 * with the same threads, and prints their throughput side by side.
 *
 * <h2>Keeping it honest</h2>
 * Same data (16-byte keys scattered over the key space, 112-byte random values), same thread
 * count, same measured time, both measured in this run; which store goes first alternates by
 * row. A write row measures one side after the other, each store settled (memtables flushed, no
 * compaction pending) right before it is measured, so a row measures the compactions of its own
 * writes, not the debt of the rows before it; a read row measures both sides in interleaved
 * slices (A B B A), so that a drift of the shared machine's speed falls on both. Both stores are
 * fully compacted after loading, and the read rows run first, so reads see the same LSM shape.
 * Both sides of a row warm up before either is measured (they share the RocksDB wrapper, which
 * the JIT compiles once), and go on warming up in turns while the JIT is still compiling (16
 * callers leave its threads little CPU on a small machine); each measurement (each slice of a
 * read row) warms up again first.
 *
 * <h2>Adding a row</h2>
 * Add a {@link Workload} to {@link #WORKLOADS}: a name, a description, what one caller thread does
 * against p2kv and against RocksDB, optionally a note. The table, the CLI help and the demo test
 * pick it up.
 */
final class Demo {
  /** 16-byte keys and 112-byte values: 128-byte pairs, as in the p2KVS paper and the JMH suite. */
  static final int KEY_BYTES = 16;

  static final int VALUE_BYTES = 112;

  /** Pairs each scan of the scan row reads. */
  static final int SCAN_LENGTH = 100;

  /** Async requests each caller keeps in flight in the async rows (as in the JMH suite). */
  static final int ASYNC_WINDOW = 64;

  /** Options of one demo run. */
  record Options(long keys, Path dir, double seconds, int threads, int shards, boolean keep) {
    static final long DEFAULT_KEYS = 1_000_000;
    static final double DEFAULT_SECONDS = 3;
    static final int DEFAULT_THREADS = 16;
  }

  /**
   * What each caller thread does for the length of a phase: call the store until {@code stop},
   * counting completed operations in {@code done}.
   */
  @FunctionalInterface
  interface CallerLoop {
    void run(SplittableRandom rnd, LongAdder done, AtomicBoolean stop) throws Exception;
  }

  /**
   * The two stores a workload runs against, how many keys they hold, and the Zipfian (0.99) key
   * choice over them.
   */
  record Stores(P2kv p2kv, PlainRocksDb rocksDb, long keys, Zipfian zipfian) {
    Stores(P2kv p2kv, PlainRocksDb rocksDb, long keys) {
      this(p2kv, rocksDb, keys, new Zipfian(keys, ZIPFIAN_THETA));
    }
  }

  /** YCSB's default skew. */
  static final double ZIPFIAN_THETA = 0.99;

  /**
   * One row of the table.
   *
   * @param name the row's name
   * @param description what both sides do (printed under the table)
   * @param p2kv one caller's loop against p2kv
   * @param rocksDb one caller's loop against plain RocksDB
   * @param note what to print beside the row about the p2kv store, or "" (write rows say how many
   *     puts each RocksDB write carried instead)
   * @param readsOnly the row writes nothing: its sides are measured in interleaved slices (see
   *     {@link #measure})
   */
  record Workload(
      String name,
      String description,
      Function<Stores, CallerLoop> p2kv,
      Function<Stores, CallerLoop> rocksDb,
      Function<P2kv, String> note,
      boolean readsOnly) {
    Workload(
        String name,
        String description,
        Function<Stores, CallerLoop> p2kv,
        Function<Stores, CallerLoop> rocksDb,
        boolean readsOnly) {
      this(name, description, p2kv, rocksDb, store -> "", readsOnly);
    }
  }

  /** The rows, in the order they run: reads first (on the freshly compacted stores), then writes. */
  static final List<Workload> WORKLOADS = List.of(
      new Workload("gets",
          "random point reads of loaded keys; p2kv's default read path (DIRECT) reads RocksDB on the caller's thread",
          s -> loop(rnd -> s.p2kv().get(key(rnd.nextLong(s.keys())))),
          s -> loop(rnd -> s.rocksDb().get(key(rnd.nextLong(s.keys())))),
          true),
      new Workload("gets, Zipfian",
          "point reads of loaded keys chosen Zipfian (0.99, scrambled over the key space, as YCSB does):"
              + " a few keys are read most of the time",
          s -> loop(rnd -> s.p2kv().get(key(s.zipfian().next(rnd)))),
          s -> loop(rnd -> s.rocksDb().get(key(s.zipfian().next(rnd)))),
          store -> store.stats().cache().capacityBytes() == 0 ? "p2kv's value cache is off" : "",
          true),
      new Workload("scan " + SCAN_LENGTH,
          "one op is scan(a random loaded key, " + SCAN_LENGTH + "): up to " + SCAN_LENGTH + " pairs in a new list;"
              + " p2kv merges one RocksDB iterator per shard on the caller's thread, RocksDB reads one",
          s -> loop(rnd -> s.p2kv().scan(key(rnd.nextLong(s.keys())), SCAN_LENGTH)),
          s -> loop(rnd -> s.rocksDb().scan(key(rnd.nextLong(s.keys())), SCAN_LENGTH)),
          store -> store.shardCount() == 1
              ? "p2kv has one shard here: nothing to merge (try --shards 4)"
              : "p2kv merged " + store.shardCount() + " shards' iterators per scan",
          true),
      new Workload("sync puts",
          "blocking puts overwriting random loaded keys; p2kv merges what its queue holds into one RocksDB write",
          s -> putLoop((k, v) -> s.p2kv().put(k, v), s.keys()),
          s -> putLoop((k, v) -> s.rocksDb().put(k, v), s.keys()),
          false),
      new Workload("async puts",
          "p2kv: putAsync, " + ASYNC_WINDOW + " in flight per caller; RocksDB has no async API: blocking puts",
          s -> asyncPutLoop(s.p2kv(), s.keys()),
          s -> putLoop((k, v) -> s.rocksDb().put(k, v), s.keys()),
          false));

  /** One store operation on a random key. */
  interface KeyOp {
    void call(SplittableRandom rnd);
  }

  private static CallerLoop loop(KeyOp op) {
    return (rnd, done, stop) -> {
      while (!stop.get()) {
        op.call(rnd);
        done.increment();
      }
    };
  }

  private static CallerLoop putLoop(BiConsumer<byte[], byte[]> put, long keys) {
    return (rnd, done, stop) -> {
      while (!stop.get()) {
        put.accept(key(rnd.nextLong(keys)), value(rnd));
        done.increment();
      }
    };
  }

  private static CallerLoop asyncPutLoop(P2kv store, long keys) {
    return (rnd, done, stop) -> {
      Semaphore window = new Semaphore(ASYNC_WINDOW);
      AtomicReference<Throwable> error = new AtomicReference<>();
      while (!stop.get() && error.get() == null) {
        window.acquire();
        store.putAsync(key(rnd.nextLong(keys)), value(rnd), (ok, e) -> {
          if (e == null) {
            done.increment();
          } else {
            error.compareAndSet(null, e);
          }
          window.release();
        });
      }
      window.acquire(ASYNC_WINDOW); // every put of this caller has completed
      if (error.get() != null) {
        throw new IllegalStateException("async put failed", error.get());
      }
    };
  }

  /**
   * The key with index {@code i}: 8 bytes of a strong mix of i, so consecutive indexes scatter
   * over the key space like random keys, then i itself, so keys are unique.
   */
  static byte[] key(long i) {
    byte[] k = new byte[KEY_BYTES];
    long h = mix(i);
    for (int j = 0; j < 8; j++) {
      k[j] = (byte) (h >>> (56 - 8 * j));
      k[8 + j] = (byte) (i >>> (56 - 8 * j));
    }
    return k;
  }

  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  /** Random bytes that values are cut from: every value differs and none compresses. */
  private static final byte[] VALUE_POOL = new byte[1 << 20];

  static {
    new SplittableRandom(42).nextBytes(VALUE_POOL);
  }

  /** A fresh 112-byte value from a random place in the pool (the store keeps it until applied). */
  static byte[] value(SplittableRandom rnd) {
    int at = rnd.nextInt(VALUE_POOL.length - VALUE_BYTES);
    return Arrays.copyOfRange(VALUE_POOL, at, at + VALUE_BYTES);
  }

  /** The value loaded with key {@code i}. */
  static byte[] valueOf(long i) {
    int at = (int) Math.floorMod(mix(i), (long) (VALUE_POOL.length - VALUE_BYTES));
    return Arrays.copyOfRange(VALUE_POOL, at, at + VALUE_BYTES);
  }

  // ------------------------------------------------------------------ running

  /** The measured throughput of one row. */
  record Row(Workload workload, double p2kvOpsPerSec, double rocksDbOpsPerSec, String note, String placement) {}

  /**
   * Where p2kv keeps the demo's values now: whether its policy places a new 112-byte value inline
   * or in a blob file, and the share of the stored bytes in blob files (the baseline keeps every
   * value inline).
   */
  static String placement(StoreStats stats) {
    long blob = 0;
    long sst = 0;
    int separating = 0;
    for (ShardStats s : stats.shards()) {
      blob += Math.max(0, s.blobBytes());
      sst += Math.max(0, s.sstBytes());
      if (s.separation().separates(VALUE_BYTES)) {
        separating++;
      }
    }
    String next = separating == 0 ? "inline" : separating == stats.shards().size() ? "blob files"
        : separating + "/" + stats.shards().size() + " shards blob files";
    return String.format(Locale.ROOT, "%s, %.0f%% in blob files", next, blob + sst == 0 ? 0 : 100.0 * blob / (blob + sst));
  }

  /** Both stores get p2kv's default memory budget. */
  static final long MEMORY_BUDGET_BYTES = 512L << 20;

  /** Async puts the loader keeps in flight. */
  private static final int LOAD_WINDOW = 1024;

  private final Options options;
  private final PrintStream out;
  private final PrintStream progress;
  private final boolean live;

  /**
   * A demo run.
   *
   * @param options what to run
   * @param out where the report goes
   * @param progress where progress bars go
   * @param live whether {@code progress} is a terminal (bars redraw in place)
   */
  Demo(Options options, PrintStream out, PrintStream progress, boolean live) {
    this.options = options;
    this.out = out;
    this.progress = progress;
    this.live = live;
  }

  /**
   * Runs the demo: load, compact, measure every workload on both stores, print the table, clean
   * up.
   *
   * @return the table's rows
   * @throws IOException if the directories cannot be created or deleted
   */
  List<Row> run() throws IOException {
    long started = System.nanoTime();
    boolean temporary = options.dir() == null;
    Path root = temporary ? Files.createTempDirectory("p2kv-demo") : Files.createDirectories(options.dir());
    Path storeDir = root.resolve("p2kv");
    Path rocksDir = root.resolve("rocksdb");
    P2kv.Builder builder = P2kv.builder().memoryBudgetBytes(MEMORY_BUDGET_BYTES);
    if (options.shards() > 0) {
      builder.shards(options.shards());
    }
    List<Row> rows = new ArrayList<>();
    // Interrupted (Ctrl-C): still remove what a normal end would remove.
    Thread onExit = new Thread(() -> {
      try {
        cleanUp(root, storeDir, rocksDir, temporary);
      } catch (IOException | RuntimeException e) {
        // best effort while the JVM exits
      }
    }, "p2kv-demo-cleanup");
    Runtime.getRuntime().addShutdownHook(onExit);
    try (P2kv store = builder.open(storeDir);
        PlainRocksDb rocks = new PlainRocksDb(rocksDir, Durability.WAL, MEMORY_BUDGET_BYTES)) {
      printHeader(store);
      loadP2kv(store);
      loadRocksDb(rocks);
      timed("compacting p2kv", store::compact);
      timed("compacting RocksDB", rocks::compact);
      Stores stores = new Stores(store, rocks, options.keys());
      for (int i = 0; i < WORKLOADS.size(); i++) {
        rows.add(measure(WORKLOADS.get(i), stores, i % 2 == 1));
      }
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(onExit);
      } catch (IllegalStateException e) {
        // the JVM is exiting: the hook cleans up
      }
      cleanUp(root, storeDir, rocksDir, temporary);
    }
    printTable(rows);
    out.println();
    if (options.keep()) {
      out.println("kept the p2kv store in " + storeDir + "; look inside with: ./p2kv stats " + storeDir);
    } else {
      out.println("removed the demo's stores from " + root);
    }
    out.printf(Locale.ROOT, "demo took %.0f s%n", (System.nanoTime() - started) / 1e9);
    return rows;
  }

  /** Removes the baseline always, the p2kv store unless kept, and a temporary root. */
  private void cleanUp(Path root, Path storeDir, Path rocksDir, boolean temporary) throws IOException {
    DirectoryTree.delete(rocksDir);
    if (!options.keep()) {
      DirectoryTree.delete(storeDir);
      if (temporary) {
        DirectoryTree.delete(root);
      }
    }
  }

  private void printHeader(P2kv store) {
    Runtime rt = Runtime.getRuntime();
    out.printf(Locale.ROOT, "p2kv demo: %,d pairs of %d-byte keys and %d-byte values, %d caller threads%n",
        options.keys(), KEY_BYTES, VALUE_BYTES, options.threads());
    out.printf(Locale.ROOT, "machine:   %d cores, %s %s %s, JDK %s (%s), max heap %d MiB%n",
        rt.availableProcessors(), System.getProperty("os.name"), System.getProperty("os.version"),
        System.getProperty("os.arch"), System.getProperty("java.version"), System.getProperty("java.vm.vendor"),
        rt.maxMemory() >> 20);
    out.printf(Locale.ROOT, "p2kv:      %d shard(s)%s, maxBatch %d, durability WAL, memory budget %d MiB, in %s%n",
        store.shardCount(), options.shards() > 0 ? "" : " (the default for this machine)", P2kv.Builder.DEFAULT_MAX_BATCH,
        MEMORY_BUDGET_BYTES >> 20, store.dir());
    out.println("RocksDB:   one plain instance with the options of one p2kv shard, used directly by the callers");
    out.println();
    out.flush();
  }

  private void loadP2kv(P2kv store) {
    AtomicLong loaded = new AtomicLong();
    AtomicReference<Throwable> error = new AtomicReference<>();
    Semaphore window = new Semaphore(LOAD_WINDOW);
    ProgressBar bar = ProgressBar.count(progress, live, "loading p2kv (async puts)", options.keys(), loaded::get);
    try {
      for (long i = 0; i < options.keys() && error.get() == null; i++) {
        window.acquireUninterruptibly();
        store.putAsync(key(i), valueOf(i), (ok, e) -> {
          if (e == null) {
            loaded.incrementAndGet();
          } else {
            error.compareAndSet(null, e);
          }
          window.release();
        });
      }
      window.acquireUninterruptibly(LOAD_WINDOW);
    } finally {
      bar.close();
    }
    if (error.get() != null) {
      throw new IllegalStateException("loading p2kv failed: " + error.get(), error.get());
    }
  }

  private void loadRocksDb(PlainRocksDb rocks) {
    AtomicLong loaded = new AtomicLong();
    byte[][] keys = new byte[1000][];
    byte[][] values = new byte[keys.length][];
    ProgressBar bar = ProgressBar.count(progress, live, "loading RocksDB (batches)", options.keys(), loaded::get);
    try {
      for (long i = 0; i < options.keys(); ) {
        int n = (int) Math.min(keys.length, options.keys() - i);
        for (int j = 0; j < n; j++) {
          keys[j] = key(i + j);
          values[j] = valueOf(i + j);
        }
        rocks.putAll(keys, values, n);
        i += n;
        loaded.set(i);
      }
    } finally {
      bar.close();
    }
  }

  private void timed(String label, Runnable action) {
    progress.print(label + " ...");
    progress.flush();
    long start = System.nanoTime();
    action.run();
    progress.printf(Locale.ROOT, " took %.1f s%n", (System.nanoTime() - start) / 1e9);
  }

  /** Longest a store is given to finish its compactions before a row measures it. */
  private static final long SETTLE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(60);

  /**
   * Flushes a store's memtables and waits until RocksDB estimates no compaction pending (at most
   * {@link #SETTLE_TIMEOUT_NANOS}), so that a row measures the compactions of its own writes and
   * not the debt of the rows before it, which on 2 cores would run during it (the YCSB script
   * settles its stores between phases for the same reason). Says how long it took when it waited.
   */
  private void settle(String name, Runnable flush, LongSupplier pendingBytes) {
    long start = System.nanoTime();
    flush.run();
    while (pendingBytes.getAsLong() > 0 && System.nanoTime() - start < SETTLE_TIMEOUT_NANOS) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    if (seconds >= 0.1) {
      progress.printf(Locale.ROOT, "settling %s (flush, compactions) took %.1f s%n", name, seconds);
    }
  }

  /**
   * Compaction still pending in a p2kv store: RocksDB's estimate over the shards, plus one for
   * every data file the value-separation policy still rewrites to bring values back inline.
   */
  private static long pendingCompactionBytes(P2kv store) {
    StoreStats stats = store.stats();
    return stats.pendingCompactionBytes() + stats.inliningFilesLeft();
  }

  /**
   * Slices of a read row's measured time per side: the sides run A, B, B, A, each slice half the
   * measured time, so a drift of the machine's speed during the row (a shared machine speeding up
   * or slowing down over seconds) falls on both sides alike.
   */
  static final int READ_SLICES = 2;

  /**
   * Runs one workload on both stores, {@code rocksDbFirst} saying which side starts, and returns
   * its row. A write row measures each side once, with both stores settled right before it (a side
   * pays for the compactions of its own writes only). A read row writes nothing to settle, so it measures each side
   * in {@link #READ_SLICES} slices in the order A, B, B, A (each slice warmed up again), and a
   * side's throughput is the mean over its slices: measured one after the other, a side that ran
   * while the machine was faster won by that much (one run printed gets 0.90x with p2kv first and
   * Zipfian gets 1.08x with RocksDB first).
   */
  private Row measure(Workload w, Stores stores, boolean rocksDbFirst) {
    // Both sides warm up before either is measured: they share code (p2kv's engine is the
    // baseline's RocksDB wrapper), which the JIT would otherwise still be compiling while the
    // first side is measured, and nothing else.
    CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
    boolean jitTimed = jit != null && jit.isCompilationTimeMonitoringSupported();
    long compiling = jitTimed ? jit.getTotalCompilationTime() : 0;
    long warmupStart = System.nanoTime();
    warmUpBoth(w, stores, rocksDbFirst, "warm-up", warmupMillis());
    if (jitTimed && !jitQuiet(jit, compiling, warmupStart)) {
      settleJit(jit, w, stores, rocksDbFirst);
    }
    if (w.readsOnly()) {
      return measureInSlices(w, stores, rocksDbFirst);
    }
    double p2kv = 0;
    double rocksDb = 0;
    String placement = "";
    String note = w.note().apply(stores.p2kv());
    for (int side = 0; side < 2; side++) {
      // Both stores settled before each side: the other one may still be compacting what its
      // warm-up or its own measured run wrote, which would run during this side's measurement.
      settle("p2kv", stores.p2kv()::flush, () -> pendingCompactionBytes(stores.p2kv()));
      settle("RocksDB", stores.rocksDb()::flush, stores.rocksDb()::pendingCompactionBytes);
      if ((side == 0) != rocksDbFirst) {
        StoreStats before = stores.p2kv().stats();
        placement = placement(before);
        p2kv = run(w.name() + " on p2kv", w.p2kv().apply(stores), warmupMillis(), measureMillis());
        StoreStats after = stores.p2kv().stats();
        long calls = after.writeCalls() - before.writeCalls();
        if (calls > 0) {
          note = String.format(Locale.ROOT, "p2kv wrote %.1f puts per RocksDB write",
              (double) (after.writeOps() - before.writeOps()) / calls);
        }
      } else {
        rocksDb = run(w.name() + " on RocksDB", w.rocksDb().apply(stores), warmupMillis(), measureMillis());
      }
    }
    return new Row(w, p2kv, rocksDb, note, placement);
  }

  /**
   * Longest a row warms up beyond its first warm-ups, waiting for the JIT: {@value} warm-up pairs
   * (one warm-up of each side, each half a warm-up long).
   */
  static final int JIT_SETTLE_MAX_PAIRS = 8;

  /**
   * The JIT counts as settled when it spent at most this share of a warm-up pair's wall time
   * compiling.
   */
  static final double JIT_QUIET_SHARE = 0.02;

  /**
   * Warms both sides up again, in pairs, until the JIT has stopped compiling (see {@link
   * #JIT_QUIET_SHARE}), at most {@link #JIT_SETTLE_MAX_PAIRS} pairs. With 16 callers on 2 cores the
   * compiler threads get a small share of the CPU, and compiling a row's code can take several
   * seconds after its first warm-ups: the side measured first then ran slower code than the other
   * (a scan row printed p2kv's slices at 26 K and 43 K scans/s and RocksDB's in between at 35 K and
   * 46 K, all on the same stores). Says how long it waited.
   */
  private void settleJit(CompilationMXBean jit, Workload w, Stores stores, boolean rocksDbFirst) {
    long half = Math.max(1, warmupMillis() / 2);
    long start = System.nanoTime();
    int pairs = 0;
    boolean quiet = false;
    while (!quiet && pairs < JIT_SETTLE_MAX_PAIRS) {
      long compiling = jit.getTotalCompilationTime();
      long pairStart = System.nanoTime();
      warmUpBoth(w, stores, rocksDbFirst, "warm-up (JIT)", half);
      quiet = jitQuiet(jit, compiling, pairStart);
      pairs++;
    }
    progress.printf(Locale.ROOT, "waiting for the JIT to finish compiling %s took %.1f s%s%n", w.name(),
        (System.nanoTime() - start) / 1e9, quiet ? "" : " (still compiling; measured anyway)");
  }

  /** Warms both sides up for {@code millis} each, the row's first side first. */
  private void warmUpBoth(Workload w, Stores stores, boolean rocksDbFirst, String label, long millis) {
    for (int side = 0; side < 2; side++) {
      if ((side == 0) != rocksDbFirst) {
        run(w.name() + " on p2kv, " + label, w.p2kv().apply(stores), millis, 0);
      } else {
        run(w.name() + " on RocksDB, " + label, w.rocksDb().apply(stores), millis, 0);
      }
    }
  }

  /**
   * Whether the JIT spent at most {@link #JIT_QUIET_SHARE} of the wall time since {@code
   * sinceNanos} compiling, {@code compilingBefore} being its total compilation time then.
   */
  private static boolean jitQuiet(CompilationMXBean jit, long compilingBefore, long sinceNanos) {
    double wallMillis = (System.nanoTime() - sinceNanos) / 1e6;
    return jit.getTotalCompilationTime() - compilingBefore <= JIT_QUIET_SHARE * wallMillis;
  }

  /** A read row's measurement: both sides settled once, then slices A, B, B, A (see {@link #measure}). */
  private Row measureInSlices(Workload w, Stores stores, boolean rocksDbFirst) {
    settle("p2kv", stores.p2kv()::flush, () -> pendingCompactionBytes(stores.p2kv()));
    settle("RocksDB", stores.rocksDb()::flush, stores.rocksDb()::pendingCompactionBytes);
    StoreStats before = stores.p2kv().stats();
    String placement = placement(before);
    String note = w.note().apply(stores.p2kv());
    long sliceMillis = Math.max(1, measureMillis() / READ_SLICES);
    double p2kv = 0;
    double rocksDb = 0;
    for (int slice = 0; slice < 2 * READ_SLICES; slice++) {
      String of = " (" + (slice / 2 + 1) + "/" + READ_SLICES + ")";
      if (firstSideRuns(slice) != rocksDbFirst) {
        p2kv += run(w.name() + " on p2kv" + of, w.p2kv().apply(stores), sliceWarmupMillis(), sliceMillis);
      } else {
        rocksDb += run(w.name() + " on RocksDB" + of, w.rocksDb().apply(stores), sliceWarmupMillis(), sliceMillis);
      }
    }
    StoreStats after = stores.p2kv().stats();
    CacheStats cacheBefore = before.cache();
    CacheStats cacheAfter = after.cache();
    long cacheHits = cacheAfter.hits() - cacheBefore.hits();
    long cacheReads = cacheHits + cacheAfter.misses() - cacheBefore.misses();
    if (cacheReads > 0) {
      note = String.format(Locale.ROOT, "p2kv's value cache (%d MiB) answered %.0f%% of gets",
          cacheAfter.capacityBytes() >> 20, 100.0 * cacheHits / cacheReads);
    }
    return new Row(w, p2kv / READ_SLICES, rocksDb / READ_SLICES, note, placement);
  }

  /**
   * Whether slice {@code slice} of a read row belongs to the side that starts: A B B A, then again
   * (slices 0, 3, 4, 7, ...), so each side runs as many slices and their mean positions in time
   * are equal, which is what makes a linear drift fall on both sides alike.
   */
  static boolean firstSideRuns(int slice) {
    return slice % 4 == 0 || slice % 4 == 3;
  }

  /** A read slice's own warm-up: its caller threads are new, the code is compiled already. */
  private long sliceWarmupMillis() {
    return Math.min(250, measureMillis() / 6);
  }

  private long measureMillis() {
    return Math.max(1, Math.round(options.seconds() * 1000));
  }

  /** One second, or a third of the measured time if that is shorter (small test runs). */
  private long warmupMillis() {
    return Math.min(1000, measureMillis() / 3);
  }

  /**
   * Runs {@code loop} on every caller thread: a warm-up, then the measured interval.
   *
   * @param measureMillis 0 for a warm-up only
   * @return operations per second completed in the measured interval, 0 for a warm-up only
   */
  private double run(String label, CallerLoop loop, long warmupMillis, long measureMillis) {
    LongAdder done = new LongAdder();
    AtomicBoolean stop = new AtomicBoolean();
    AtomicReference<Throwable> failure = new AtomicReference<>();
    List<Thread> callers = new ArrayList<>();
    for (int t = 0; t < options.threads(); t++) {
      SplittableRandom rnd = new SplittableRandom(1000 + t); // the same keys on both sides
      Thread caller = new Thread(() -> {
        try {
          loop.run(rnd, done, stop);
        } catch (Throwable e) {
          failure.compareAndSet(null, e);
          stop.set(true);
        }
      }, "p2kv-demo-caller-" + t);
      caller.setDaemon(true);
      callers.add(caller);
    }
    long ops;
    long nanos;
    ProgressBar bar = ProgressBar.timed(progress, live, label, warmupMillis + measureMillis, done::sum);
    try {
      callers.forEach(Thread::start);
      sleep(warmupMillis);
      long ops0 = done.sum();
      long t0 = System.nanoTime();
      sleep(measureMillis);
      ops = done.sum() - ops0;
      nanos = System.nanoTime() - t0;
      stop.set(true);
      for (Thread caller : callers) {
        join(caller);
      }
    } finally {
      stop.set(true); // also when interrupted: no caller outlives its phase
      bar.close();
    }
    if (failure.get() != null) {
      throw new IllegalStateException(label + " failed: " + failure.get(), failure.get());
    }
    return measureMillis == 0 ? 0 : ops * 1e9 / nanos;
  }

  private static void sleep(long millis) {
    try {
      TimeUnit.MILLISECONDS.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  private static void join(Thread t) {
    try {
      t.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    }
  }

  /** The table: one row per workload, then what each row does. */
  private void printTable(List<Row> rows) {
    String format = "%-14s %7s %13s %13s %15s   %-32s %s%n";
    out.println();
    out.printf(Locale.ROOT, format, "operation", "threads", "p2kv ops/s", "RocksDB ops/s", "p2kv / RocksDB",
        "p2kv values (RocksDB: inline)", "");
    for (Row r : rows) {
      out.printf(Locale.ROOT, format, r.workload().name(), options.threads(),
          String.format(Locale.ROOT, "%,.0f", r.p2kvOpsPerSec()),
          String.format(Locale.ROOT, "%,.0f", r.rocksDbOpsPerSec()),
          String.format(Locale.ROOT, "%.2fx", r.p2kvOpsPerSec() / r.rocksDbOpsPerSec()), r.placement(), r.note());
    }
    out.println();
    for (Row r : rows) {
      out.printf(Locale.ROOT, "%-15s %s%n", r.workload().name() + ":", r.workload().description());
    }
    out.printf(Locale.ROOT, "Each side of each row: %d caller threads, %.1f s measured after %.1f s of warm-up;"
            + " both sides warm up before either is measured, and again while the JIT still compiles;"
            + " read rows measure the sides in alternating slices (A B B A), write rows one side after"
            + " the other (which goes first alternates by row), each settled first.%n",
        options.threads(), measureMillis() / 1e3, warmupMillis() / 1e3);
    out.println("p2kv values: where p2kv's value-separation policy (the default, adaptive sizeAware()) puts a new "
        + VALUE_BYTES + "-byte value when the row starts, and the share of the stored bytes in blob files;"
        + " the RocksDB baseline keeps every value inline.");
    out.println("Numbers vary from run to run on a busy machine; compare ratios, and run it twice.");
    out.flush();
  }
}
