package io.p2kv.bench;

import io.p2kv.P2kv;
import io.p2kv.ShardStats;
import io.p2kv.StoreStats;
import io.p2kv.ValueSeparation;
import io.p2kv.examples.tools.Zipfian;
import io.p2kv.rocksdb.RocksDbConfigurer;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToIntFunction;
import org.rocksdb.CompressionType;

/**
 * Value-separation policies on the workloads of the papers: Parallax's Table 1 mixes (24-byte
 * keys; small values 9 B, medium 104 B, large 1004 B; S, M, L, SD 60/20/20, MD 20/60/20, LD
 * 20/20/60 by count) and DiffKV's generalized Pareto value sizes (k = 0.92, sigma = 226, theta =
 * 0, capped at 128 KB). A dedicated driver rather than a JMH benchmark: each measurement is one
 * long, stateful sequence (load, update, read) whose device bytes are the result, not a
 * steady-state operation rate.
 *
 * <p>Per mix and policy, on a fresh one-shard store with a small memory budget (so the data is
 * several times the memtable budget and compaction and blob garbage collection really run):
 *
 * <ol>
 *   <li><b>load</b>: every key once, in scattered order, async puts with 1024 in flight;
 *   <li><b>update</b>: as many updates as half the keys, keys chosen Zipfian (0.99, scrambled), new
 *       value sizes drawn from the same mix (so keys change class), the write shape of YCSB Run A;
 *   <li><b>read</b>: uniform random point reads from two threads, each checked against the
 *       expected value length: a warm-up of {@link #READ_WARMUP_SECONDS} s that lets the adaptive
 *       policy see the reads, more reads while it brings separated values back inline (at most
 *       {@link #READ_SETTLE_MAX_SECONDS} s), a settle, then a fixed measured time. The warm-up's
 *       duration and what flushes and compactions wrote during it are reported: the cost of the
 *       policy's reaction, shown beside the steady read rate it buys.
 * </ol>
 *
 * Load and update throughput count from the first write until the store has flushed and no
 * flush or compaction is running or pending ("settled"): work a policy leaves behind is charged to
 * it. Before measuring, every policy runs once on a small MD store (discarded: JIT warm-up); then
 * each (mix, policy) runs {@code repetitions} times, the policies in opposite order each time, and
 * the report gives the means and the spread of the throughputs. Write amplification is device
 * bytes written by flushes and compactions (SST and blob files, garbage collection included, WAL
 * excluded) per user byte written, for each phase. Space amplification is SST + blob bytes after
 * the updates per exact live byte (keys plus current values, known to the driver). The LSM-tree
 * shape is scaled to the small memtables, the same for every policy (see {@link #scaleShape}).
 *
 * <p>Run (about 15 minutes on 2 cores; the result in docs/benchmarks is from this command):
 *
 * <pre>
 * mvn -B -q -o package -DskipTests
 * java -Xms2g -Xmx2g -cp jmh-benchmarks/target/benchmarks.jar io.p2kv.bench.ValueSeparationBenchmark \
 *     --out docs/benchmarks/VALUE-SEPARATION.md
 * </pre>
 *
 * Options: {@code --mixes S,M,L,SD,MD,LD,PARETO}, {@code --policies
 * none,all,threshold:128,fixed,sizeAware}, {@code --budget-mib 32}, {@code --data-mib 128},
 * {@code --read-seconds 3}, {@code --lsm-shape scaled|stock}, {@code --repetitions 2}, {@code
 * --out FILE} (a markdown report; otherwise only the log). A policy {@code raw:min=N,level=L,age=A,force=F} sets RocksDB's blob options directly through the
 * tuning hook on top of {@code none()} (for exploring the mapping; separate such policies with
 * {@code ;}).
 */
public final class ValueSeparationBenchmark {
  /** Key size of every workload (Parallax, DiffKV). */
  static final int KEY_BYTES = 24;

  private final int budgetMib;
  private final long dataBytes;
  private final int readSeconds;
  private final boolean scaledShape;

  ValueSeparationBenchmark(int budgetMib, long dataBytes, int readSeconds, boolean scaledShape) {
    this.budgetMib = budgetMib;
    this.dataBytes = dataBytes;
    this.readSeconds = readSeconds;
    this.scaledShape = scaledShape;
  }

  /**
   * The LSM-tree shape of a large store, scaled down with the memtable: level base 4 memtables
   * (RocksDB's rule of thumb, level0_file_num_compaction_trigger x write_buffer_size), SST files
   * of one memtable. p2kv sizes memtables from the budget but leaves RocksDB's 256 MB level base,
   * which at a 32 MiB budget would put the whole data set in one level that every L0 compaction
   * rewrites; a multi-level tree is what the papers' model and workloads describe.
   */
  static void scaleShape(org.rocksdb.Options o) {
    long memtable = o.writeBufferSize();
    o.setMaxBytesForLevelBase(4 * memtable).setTargetFileSizeBase(memtable);
  }

  // ------------------------------------------------------------------------------ workloads

  /** A value-size distribution. */
  record Mix(String name, String description, ToIntFunction<SplittableRandom> sizes, double meanValueBytes) {
    int nextSize(SplittableRandom rnd) {
      return sizes.applyAsInt(rnd);
    }
  }

  static Mix parallax(String name, int small, int medium, int large) {
    String d = "Parallax " + name + ": " + small + "% 9 B, " + medium + "% 104 B, " + large + "% 1004 B values";
    double mean = (small * 9.0 + medium * 104.0 + large * 1004.0) / 100;
    return new Mix(name, d, rnd -> {
      int p = rnd.nextInt(100);
      return p < small ? 9 : p < small + medium ? 104 : 1004;
    }, mean);
  }

  /** DiffKV's generalized Pareto value sizes, capped at 128 KB. */
  static Mix pareto() {
    double k = 0.92;
    double sigma = 226;
    int cap = 128 * 1024;
    ToIntFunction<SplittableRandom> f = rnd -> (int) Math.min(cap, sigma / k * (Math.pow(1 - rnd.nextDouble(), -k) - 1));
    SplittableRandom r = new SplittableRandom(7);
    double sum = 0;
    int samples = 1_000_000;
    for (int i = 0; i < samples; i++) {
      sum += f.applyAsInt(r);
    }
    return new Mix("PARETO", "DiffKV generalized Pareto (k 0.92, sigma 226, theta 0, max 128 KB)", f, sum / samples);
  }

  static Map<String, Mix> mixes() {
    Map<String, Mix> m = new LinkedHashMap<>();
    for (Mix mix :
        List.of(
            parallax("S", 100, 0, 0),
            parallax("M", 0, 100, 0),
            parallax("L", 0, 0, 100),
            parallax("SD", 60, 20, 20),
            parallax("MD", 20, 60, 20),
            parallax("LD", 20, 20, 60),
            pareto())) {
      m.put(mix.name(), mix);
    }
    return m;
  }

  /** The 24-byte key of index i: a scattering hash, then i, then a second hash. */
  static byte[] key(long i) {
    byte[] k = new byte[KEY_BYTES];
    long h = BenchData.mix(i);
    long h2 = BenchData.mix(h);
    for (int j = 0; j < 8; j++) {
      k[j] = (byte) (h >>> (56 - 8 * j));
      k[8 + j] = (byte) (i >>> (56 - 8 * j));
      k[16 + j] = (byte) (h2 >>> (56 - 8 * j));
    }
    return k;
  }

  // ------------------------------------------------------------------------------ policies

  /** A policy under test: p2kv's, or raw RocksDB blob options through the hook. */
  record Policy(String name, ValueSeparation separation, RocksDbConfigurer hook) {}

  static Policy policy(String spec) {
    if (spec.startsWith("raw:")) {
      Map<String, String> kv = new LinkedHashMap<>();
      for (String part : spec.substring(4).split(",")) {
        String[] p = part.split("=");
        kv.put(p[0], p[1]);
      }
      long min = Long.parseLong(kv.getOrDefault("min", "0"));
      int level = Integer.parseInt(kv.getOrDefault("level", "0"));
      double age = Double.parseDouble(kv.getOrDefault("age", "0.25"));
      double force = Double.parseDouble(kv.getOrDefault("force", "1.0"));
      long fileBytes = Long.parseLong(kv.getOrDefault("file", "0"));
      RocksDbConfigurer hook = (shard, o) -> {
        o.setEnableBlobFiles(true)
            .setMinBlobSize(min)
            .setBlobFileStartingLevel(level)
            .setEnableBlobGarbageCollection(age > 0)
            .setBlobGarbageCollectionAgeCutoff(age)
            .setBlobGarbageCollectionForceThreshold(force)
            .setBlobCompressionType(CompressionType.LZ4_COMPRESSION);
        if (fileBytes > 0) {
          o.setBlobFileSize(fileBytes);
        }
      };
      return new Policy(spec, ValueSeparation.none(), hook);
    }
    ValueSeparation v;
    if (spec.equals("none")) {
      v = ValueSeparation.none();
    } else if (spec.equals("all")) {
      v = ValueSeparation.all();
    } else if (spec.startsWith("threshold")) {
      int t = spec.contains(":") ? Integer.parseInt(spec.substring(spec.indexOf(':') + 1)) : 128;
      v = ValueSeparation.threshold(t);
    } else if (spec.equals("fixed")) {
      v = ValueSeparation.sizeAware().fixed();
    } else if (spec.equals("sizeAware") || spec.equals("adaptive")) {
      v = ValueSeparation.sizeAware();
    } else {
      throw new IllegalArgumentException("unknown policy " + spec);
    }
    return new Policy(spec, v, null);
  }

  // ------------------------------------------------------------------------------ a run

  /** What one (mix, policy) run measured. */
  record Row(
      String mix,
      String policy,
      long keys,
      double loadOps,
      double loadAckOps,
      double loadWa,
      double updateOps,
      double updateAckOps,
      double updateWa,
      double spaceAmp,
      double blobGarbage,
      double readOps,
      String settingsAfterLoad,
      String settingsAfterUpdate,
      long userBytes,
      long deviceBytes,
      double spread,
      double readSettleSeconds,
      long readPhaseWriteBytes,
      String settingsAfterReads) {
    /** Write amplification of load and update together. */
    double totalWa() {
      return (double) deviceBytes / userBytes;
    }

    /**
     * The mean of repetitions of one (mix, policy): throughput, amplification and garbage
     * averaged; settings of the last; spread = the largest relative difference between the
     * repetitions' load, update or read throughput.
     */
    static Row mean(List<Row> rs) {
      int n = rs.size();
      Row last = rs.get(n - 1);
      double spread = 0;
      for (java.util.function.ToDoubleFunction<Row> f :
          List.<java.util.function.ToDoubleFunction<Row>>of(Row::loadOps, Row::updateOps, Row::readOps)) {
        double min = rs.stream().mapToDouble(f).min().orElse(0);
        double max = rs.stream().mapToDouble(f).max().orElse(0);
        double avg = rs.stream().mapToDouble(f).average().orElse(0);
        spread = Math.max(spread, avg == 0 ? 0 : (max - min) / avg);
      }
      return new Row(
          last.mix(),
          last.policy(),
          last.keys(),
          avg(rs, Row::loadOps),
          avg(rs, Row::loadAckOps),
          avg(rs, Row::loadWa),
          avg(rs, Row::updateOps),
          avg(rs, Row::updateAckOps),
          avg(rs, Row::updateWa),
          avg(rs, Row::spaceAmp),
          avg(rs, Row::blobGarbage),
          avg(rs, Row::readOps),
          last.settingsAfterLoad(),
          last.settingsAfterUpdate(),
          rs.stream().mapToLong(Row::userBytes).sum(),
          rs.stream().mapToLong(Row::deviceBytes).sum(),
          spread,
          avg(rs, Row::readSettleSeconds),
          (long) avg(rs, r -> r.readPhaseWriteBytes()),
          last.settingsAfterReads());
    }

    private static double avg(List<Row> rs, java.util.function.ToDoubleFunction<Row> f) {
      return rs.stream().mapToDouble(f).average().orElse(Double.NaN);
    }
  }

  Row run(Mix mix, Policy policy) {
    long keys = Math.max(1000, dataBytes / (KEY_BYTES + Math.max(1, (long) mix.meanValueBytes())));
    Path dir = BenchData.tempDir("p2kv-vsep");
    int[] sizes = new int[(int) keys];
    byte[] pool = BenchData.value(256 * 1024 + 1, new SplittableRandom(99));
    SplittableRandom rnd = new SplittableRandom(mix.name().hashCode() * 31L + 17);
    P2kv.Builder builder =
        P2kv.builder().shards(1).memoryBudgetBytes((long) budgetMib << 20).valueSeparation(policy.separation());
    RocksDbConfigurer blob = policy.hook();
    boolean shape = scaledShape;
    if (blob != null || shape) {
      builder.rocksDbConfigurer((shard, o) -> {
        if (shape) {
          scaleShape(o);
        }
        if (blob != null) {
          blob.configure(shard, o);
        }
      });
    }
    try (P2kv store = builder.open(dir)) {
      // Load.
      long t0 = System.nanoTime();
      writeAll(store, keys, i -> i, mix, rnd, pool, sizes);
      long tAck = System.nanoTime();
      settle(store);
      long tLoad = System.nanoTime();
      StoreStats s1 = store.stats();
      // Update: half the key count, Zipfian keys.
      Zipfian zipf = new Zipfian(keys, 0.99);
      SplittableRandom zr = new SplittableRandom(4242);
      long updates = keys / 2;
      long[] chosen = new long[(int) updates];
      for (int i = 0; i < updates; i++) {
        chosen[i] = zipf.next(zr);
      }
      long t1 = System.nanoTime();
      writeAll(store, updates, i -> chosen[(int) i], mix, rnd, pool, sizes);
      long tAck2 = System.nanoTime();
      settle(store);
      long tUpdate = System.nanoTime();
      StoreStats s2 = store.stats();
      if (Boolean.getBoolean("vsep.debug")) {
        System.out.println("# " + s2.shards().get(0));
      }
      long live = 0;
      for (int sz : sizes) {
        live += KEY_BYTES + sz;
      }
      // Reads: a warm-up that lets the policy see them; while it brings separated values back
      // inline, reads go on (a second at a time) until it is done and compactions have settled;
      // then the measured reads. The warm-up's time and device writes are reported.
      long tr0 = System.nanoTime();
      StoreStats r0 = store.stats();
      read(store, sizes, READ_WARMUP_SECONDS);
      while (store.stats().inliningFilesLeft() > 0 && System.nanoTime() - tr0 < TimeUnit.SECONDS.toNanos(READ_SETTLE_MAX_SECONDS)) {
        read(store, sizes, 1);
      }
      settle(store);
      double readSettle = seconds(System.nanoTime() - tr0);
      StoreStats r1 = store.stats();
      double readOps = read(store, sizes, readSeconds);
      long user1 = s1.userBytesWritten();
      long user2 = s2.userBytesWritten() - user1;
      return new Row(
          mix.name(),
          policy.name(),
          keys,
          keys / seconds(tLoad - t0),
          keys / seconds(tAck - t0),
          (double) s1.deviceWriteBytes() / user1,
          updates / seconds(tUpdate - t1),
          updates / seconds(tAck2 - t1),
          (double) (s2.deviceWriteBytes() - s1.deviceWriteBytes()) / user2,
          (double) s2.diskBytes() / live,
          s2.blobGarbageRatio(),
          readOps,
          settings(s1),
          settings(s2),
          s2.userBytesWritten(),
          s2.deviceWriteBytes(),
          0,
          readSettle,
          r1.deviceWriteBytes() - r0.deviceWriteBytes(),
          settings(r1));
    } finally {
      BenchData.deleteTree(dir);
    }
  }

  private static String settings(StoreStats s) {
    ShardStats shard = s.shards().get(0);
    return shard.separation().toString();
  }

  private static double seconds(long nanos) {
    return nanos / 1e9;
  }

  interface KeyChoice {
    long key(long i);
  }

  private static void writeAll(
      P2kv store, long n, KeyChoice choice, Mix mix, SplittableRandom rnd, byte[] pool, int[] sizes) {
    Semaphore window = new Semaphore(1024);
    AtomicReference<Throwable> error = new AtomicReference<>();
    for (long i = 0; i < n; i++) {
      long k = choice.key(i);
      int size = mix.nextSize(rnd);
      int off = rnd.nextInt(pool.length - Math.min(size, pool.length - 1));
      byte[] value = size <= pool.length - off ? Arrays.copyOfRange(pool, off, off + size) : new byte[size];
      sizes[(int) k] = size;
      window.acquireUninterruptibly();
      store.putAsync(key(k), value, (v, e) -> {
        if (e != null) {
          error.set(e);
        }
        window.release();
      });
    }
    window.acquireUninterruptibly(1024);
    if (error.get() != null) {
      throw new IllegalStateException("write failed", error.get());
    }
  }

  /** Flushes, then waits until no flush or compaction runs or is pending (at most 5 minutes). */
  private static void settle(P2kv store) {
    store.flush();
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
    int quiet = 0;
    while (quiet < 3 && System.nanoTime() < deadline) {
      if (store.stats().backgroundJobs() == 0) {
        quiet++;
      } else {
        quiet = 0;
      }
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Seconds of reads before the policy's reaction is waited for. */
  static final int READ_WARMUP_SECONDS = 2;

  /** Longest wait for values to come back inline under reads. */
  static final int READ_SETTLE_MAX_SECONDS = 120;

  private static double read(P2kv store, int[] sizes, int seconds) {
    int threads = 2;
    AtomicLong ops = new AtomicLong();
    AtomicReference<String> wrong = new AtomicReference<>();
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    List<Thread> ts = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int seed = t;
      Thread th = new Thread(() -> {
        SplittableRandom r = new SplittableRandom(1000 + seed);
        long n = 0;
        while ((n & 63) != 0 || System.nanoTime() < end) {
          int k = r.nextInt(sizes.length);
          byte[] v = store.get(key(k));
          if (v == null || v.length != sizes[k]) {
            wrong.compareAndSet(null, "key " + k + ": expected " + sizes[k] + " bytes, got " + (v == null ? "null" : v.length));
          }
          n++;
        }
        ops.addAndGet(n);
      });
      ts.add(th);
      th.start();
    }
    long start = System.nanoTime();
    for (Thread th : ts) {
      try {
        th.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    double secs = seconds(System.nanoTime() - start);
    if (wrong.get() != null) {
      throw new IllegalStateException("read a wrong value: " + wrong.get());
    }
    return ops.get() / secs;
  }

  // ------------------------------------------------------------------------------ main

  public static void main(String[] args) throws IOException {
    Map<String, String> opts = new LinkedHashMap<>();
    for (int i = 0; i + 1 < args.length; i += 2) {
      opts.put(args[i].replaceFirst("^--", ""), args[i + 1]);
    }
    List<String> mixNames = List.of(opts.getOrDefault("mixes", "S,M,L,SD,MD,LD,PARETO").split(","));
    String policyList = opts.getOrDefault("policies", "none,all,threshold:128,fixed,sizeAware");
    List<String> policies = List.of(policyList.split(policyList.contains(";") ? ";" : ","));
    int budget = Integer.parseInt(opts.getOrDefault("budget-mib", "32"));
    long data = Long.parseLong(opts.getOrDefault("data-mib", "128")) << 20;
    int readSeconds = Integer.parseInt(opts.getOrDefault("read-seconds", "3"));
    boolean scaled = !opts.getOrDefault("lsm-shape", "scaled").equals("stock");
    int repetitions = Integer.parseInt(opts.getOrDefault("repetitions", "2"));
    ValueSeparationBenchmark bench = new ValueSeparationBenchmark(budget, data, readSeconds, scaled);
    Map<String, Mix> all = mixes();
    String load0 = loadAverage();
    long start = System.nanoTime();
    List<Row> rows = new ArrayList<>();
    System.out.printf(Locale.ROOT, "# budget %d MiB, data %d MiB, lsm shape %s, load average %s%n", budget, data >> 20, scaled ? "scaled" : "stock", load0);
    System.out.println("mix\tpolicy\tkeys\tload/s\tloadAck/s\tWA.load\tupd/s\tupdAck/s\tWA.upd\tWA.all\tSA\tgarbage\tread/s\treadSettle.s\treadPhase.MiB\tsettings");
    // Warm-up, discarded: the first store of a JVM pays for JIT compilation of the whole path.
    ValueSeparationBenchmark warm = new ValueSeparationBenchmark(budget, 16L << 20, 1, scaled);
    for (String p : policies) {
      warm.run(all.get("MD"), policy(p));
    }
    System.out.println("# warm-up done");
    for (String m : mixNames) {
      Mix mix = all.get(m);
      if (mix == null) {
        throw new IllegalArgumentException("unknown mix " + m + "; one of " + all.keySet());
      }
      // Each repetition runs the policies in the opposite order of the one before, so that no
      // policy always comes first after a mix change.
      Map<String, List<Row>> reps = new LinkedHashMap<>();
      for (String p : policies) {
        reps.put(p, new ArrayList<>());
      }
      for (int rep = 0; rep < repetitions; rep++) {
        List<String> order = new ArrayList<>(policies);
        if (rep % 2 == 1) {
          java.util.Collections.reverse(order);
        }
        for (String p : order) {
          Row r = bench.run(mix, policy(p));
          reps.get(p).add(r);
          System.out.printf(
              Locale.ROOT,
              "%s\t%s\t%d\t%.0f\t%.0f\t%.2f\t%.0f\t%.0f\t%.2f\t%.2f\t%.2f\t%.2f\t%.0f\t%.1f\t%d\t%s -> %s -> %s%n",
              r.mix(), r.policy(), r.keys(), r.loadOps(), r.loadAckOps(), r.loadWa(), r.updateOps(), r.updateAckOps(),
              r.updateWa(), r.totalWa(), r.spaceAmp(), r.blobGarbage(), r.readOps(), r.readSettleSeconds(),
              r.readPhaseWriteBytes() >> 20, r.settingsAfterLoad(), r.settingsAfterUpdate(), r.settingsAfterReads());
        }
      }
      for (List<Row> rs : reps.values()) {
        rows.add(Row.mean(rs));
      }
    }
    double minutes = (System.nanoTime() - start) / 60e9;
    String load1 = loadAverage();
    System.out.printf(Locale.ROOT, "# took %.1f min; load average before %s, after %s%n", minutes, load0, load1);
    String out = opts.get("out");
    if (out != null) {
      Path path = Path.of(out);
      if (path.getParent() != null) {
        Files.createDirectories(path.getParent());
      }
      String command = "java " + String.join(" ", ManagementFactory.getRuntimeMXBean().getInputArguments())
          + " -cp jmh-benchmarks/target/benchmarks.jar " + ValueSeparationBenchmark.class.getName() + " " + String.join(" ", args);
      Files.writeString(
          path,
          ValueSeparationReport.markdown(
              rows, all, command, budget, data, readSeconds, scaled, repetitions, minutes, load0, load1));
      System.out.println("wrote " + path);
    }
  }

  static String loadAverage() {
    try {
      return Files.readString(Path.of("/proc/loadavg")).trim();
    } catch (IOException e) {
      return String.format(Locale.ROOT, "%.2f", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
    }
  }

  static String today() {
    return LocalDate.now().toString();
  }
}
