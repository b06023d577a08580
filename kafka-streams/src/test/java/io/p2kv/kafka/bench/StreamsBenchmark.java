package io.p2kv.kafka.bench;

import io.p2kv.kafka.P2kvDslStoreSuppliers;
import io.p2kv.kafka.P2kvStores;
import io.p2kv.kafka.TestBroker;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.streams.CloseOptions;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.processor.StateRestoreListener;

/**
 * Kafka Streams on p2kv against Kafka's default RocksDB stores, same broker, same run (issue 18):
 * a per-key sum over an input topic of {@value #PARTITIONS} partitions (so {@value #PARTITIONS}
 * tasks), its store either on Kafka's default RocksDB store (one RocksDB instance per task) or on
 * p2kv ({@link P2kvDslStoreSuppliers}: one shared p2kv store for the instance).
 *
 * <p>The driver (this JVM) starts a single-node KRaft broker (KafkaClusterTestKit, in process, on
 * loopback) and produces {@code records} amounts over {@code keys} keys once. Then, per round and
 * per store (the order alternates between rounds), it runs the application in a child JVM (so its
 * resident memory is the application's alone, not the broker's):
 *
 * <ol>
 *   <li><b>process</b>: a new application id and an empty state directory; the application sums
 *       every input record (record cache off by default, so each record reaches the store and
 *       its changelog: the changelog gets exactly {@code records} records). Throughput: records /
 *       time from the first record out of the aggregation to the last (with a cache, {@link
 *       #CACHE}: into it). Resident memory (VmRSS, VmHWM) read at the end, before the application
 *       closes.
 *   <li><b>restore</b>: the same application id on an empty state directory: every task restores
 *       its store from the changelog. Rate: records restored / time from the first restore start to
 *       the last restore end (Kafka's restore listener).
 * </ol>
 *
 * Each phase also reports the CPU the broker's JVM (this one) used meanwhile, and how much of it
 * its JIT's compiler threads took ({@code BrokerCpuSeconds}, {@code BrokerJitSeconds}): the
 * broker shares the 2 cores with the application, and compiles most while the first store runs.
 *
 * Usage (see docs/benchmarks/KAFKA-STREAMS.md): {@code StreamsBenchmark <records> <keys> <rounds>
 * <work dir> [child JVM options...]}, rounds as {@code N} (1 to N) or {@code A-B};
 * {@code -Dbench.modes=p2kv} (or {@code rocksdb}) runs one store alone, without ratios; {@code
 * -Dbench.shards=N} among the child JVM options gives p2kv's shared store N shards, {@code
 * -Dbench.budget.bytes=B} its memory budget; {@code -Dbench.guarantee=exactly_once_v2} runs both
 * stores under exactly-once, and {@code -Dbench.transactional=true} with Kafka's {@code
 * enable.transactional.statestores} (KIP-892); {@code -Dbench.cache.bytes=B} gives both Kafka's
 * record cache of B bytes (Kafka's default is 10 MiB; the benchmark's is none, see {@link #CACHE});
 * {@code -Dbench.pause.seconds=N} (a driver property) waits N seconds before each child phase and
 * says how busy the machine was meanwhile; {@code -Dbench.memdetail=true} (with {@code
 * -XX:NativeMemoryTracking=summary}) adds where the resident memory goes ({@link
 * MemoryBreakdown}).
 */
public final class StreamsBenchmark {
  static final int PARTITIONS = 32;
  static final String INPUT = "bench-amounts";
  static final String STORE = "sums";
  /** System property: the stores to run, in order (for profiling one of them), instead of both. */
  static final String MODES = "bench.modes";
  /** System property of the child JVMs: p2kv's shard count instead of the module's default. */
  static final String SHARDS = "bench.shards";
  /** System property of the child JVMs: p2kv's memory budget in bytes instead of the default. */
  static final String BUDGET = "bench.budget.bytes";
  /** System property of the child JVMs: the processing guarantee instead of at-least-once. */
  static final String GUARANTEE = "bench.guarantee";
  /** System property of the child JVMs: Kafka's enable.transactional.statestores, for both stores. */
  static final String TRANSACTIONAL = "bench.transactional";
  /**
   * System property of the child JVMs: Kafka's record cache in bytes for both stores (Kafka's
   * default is 10 MiB) instead of none. With a cache the store sees only what the cache evicts or
   * flushes, and the aggregation forwards fewer records, so processing is timed from the first
   * input record into the aggregation to the last, and a restore is checked against the
   * changelog's length instead of the input's.
   */
  static final String CACHE = "bench.cache.bytes";
  /**
   * System property of the driver: seconds to wait before each child phase, reporting how busy the
   * machine's CPUs were meanwhile and how much dirty page cache was waiting for the disk (what a
   * phase may leave behind for the next one to compete with).
   */
  static final String PAUSE = "bench.pause.seconds";
  private static final Duration DEADLINE = Duration.ofMinutes(8);

  private StreamsBenchmark() {}

  public static void main(String[] args) throws Exception {
    if (args.length > 0 && args[0].equals("child")) {
      child(args);
      return;
    }
    if (args.length < 4) {
      System.err.println("usage: StreamsBenchmark <records> <keys> <N|A-B rounds> <work dir> [child JVM options...]");
      System.exit(2);
    }
    long records = Long.parseLong(args[0]);
    int keys = Integer.parseInt(args[1]);
    // "3" runs rounds 1 to 3; "2-2" runs round 2 alone (its number picks the order of the stores)
    String[] span = args[2].split("-");
    int firstRound = span.length == 2 ? Integer.parseInt(span[0]) : 1;
    int lastRound = Integer.parseInt(span[span.length - 1]);
    Path work = Files.createDirectories(Path.of(args[3]));
    List<String> jvmOptions = List.of(args).subList(4, args.length);
    KafkaClusterTestKit cluster = TestBroker.start();
    try {
      String bootstrap = cluster.bootstrapServers();
      produceInput(bootstrap, records, keys);
      List<String> lines = new ArrayList<>();
      for (int round = firstRound; round <= lastRound; round++) {
        List<String> modes = round % 2 == 1 ? List.of("rocksdb", "p2kv") : List.of("p2kv", "rocksdb");
        if (System.getProperty(MODES) != null) {
          modes = List.of(System.getProperty(MODES).split(","));
        }
        Map<String, Map<String, String>> results = new LinkedHashMap<>();
        for (String mode : modes) {
          String appId = "bench-" + mode + "-" + round + "-" + System.nanoTime();
          Path state = work.resolve(appId);
          Map<String, String> r = new LinkedHashMap<>();
          r.putAll(runChild(jvmOptions, "process", bootstrap, state.resolve("process"), appId, mode, records));
          r.putAll(runChild(jvmOptions, "restore", bootstrap, state.resolve("restore"), appId, mode, records));
          deleteTree(state);
          results.put(mode, r);
        }
        if (results.size() == 2) {
          lines.addAll(summary(round, results));
        }
      }
      System.out.println();
      System.out.println("# records=" + records + " keys=" + keys + " partitions=" + PARTITIONS + " child JVM options=" + jvmOptions);
      lines.forEach(System.out::println);
    } finally {
      cluster.close();
    }
  }

  private static List<String> summary(int round, Map<String, Map<String, String>> results) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, Map<String, String>> e : results.entrySet()) {
      out.add("round " + round + " " + e.getKey() + ": " + e.getValue());
    }
    Map<String, String> p = results.get("p2kv");
    Map<String, String> k = results.get("rocksdb");
    out.add(String.format("round %d p2kv/rocksdb: process %.2fx (second half %.2fx), restore %.2fx, RSS after process %.2fx, peak RSS %.2fx, "
            + "RSS after restore %.2fx",
        round,
        ratio(p, k, "processRecordsPerSec"), ratio(p, k, "processSecondHalfRecordsPerSec"), ratio(p, k, "restoreRecordsPerSec"),
        ratio(p, k, "processRssKb"), ratio(p, k, "processHwmKb"), ratio(p, k, "restoreRssKb")));
    return out;
  }

  private static double ratio(Map<String, String> a, Map<String, String> b, String key) {
    return Double.parseDouble(a.get(key)) / Double.parseDouble(b.get(key));
  }

  private static void produceInput(String bootstrap, long records, int keys) throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
      admin.createTopics(List.of(new NewTopic(INPUT, PARTITIONS, (short) 1))).all().get();
    }
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    // Not idempotent: the test kit's broker refused idempotent producers (see P2kvStreamsBrokerTest).
    // A retried (duplicated) record would make the count check below fail, not pass.
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
    p.put(ProducerConfig.LINGER_MS_CONFIG, 20);
    p.put(ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
    long t0 = System.nanoTime();
    Random random = new Random(42);
    try (KafkaProducer<String, Long> producer = new KafkaProducer<>(p, new StringSerializer(), new LongSerializer())) {
      AtomicLong failed = new AtomicLong();
      for (long i = 0; i < records; i++) {
        String key = String.format("key-%08d", random.nextInt(keys));
        producer.send(new ProducerRecord<>(INPUT, key, 1L + random.nextInt(100)), (md, e) -> {
          if (e != null) {
            failed.incrementAndGet();
          }
        });
      }
      producer.flush();
      if (failed.get() > 0) {
        throw new IllegalStateException(failed.get() + " input records failed to be produced");
      }
    }
    System.out.printf("produced %d records over %d keys into %d partitions in %.1f s%n",
        records, keys, PARTITIONS, (System.nanoTime() - t0) / 1e9);
  }

  /** Waits {@link #PAUSE} seconds, if set, and says how busy the machine was meanwhile. */
  private static void pause(String before) throws IOException, InterruptedException {
    long seconds = Long.getLong(PAUSE, 0);
    if (seconds <= 0) {
      return;
    }
    String dirtyKb = procFields("/proc/meminfo").get("Dirty");
    long[] cpu0 = cpuTicks();
    Thread.sleep(seconds * 1000);
    long[] cpu1 = cpuTicks();
    double busy = (double) (cpu1[0] - cpu0[0]) / Math.max(1, cpu1[1] - cpu0[1]);
    System.out.printf("pause before %s: %d s, CPUs %.1f %% busy, %s KiB dirty at its start, %s at its end%n",
        before, seconds, 100 * busy, dirtyKb, procFields("/proc/meminfo").get("Dirty"));
  }

  /** Busy and total ticks of all CPUs, from /proc/stat (busy: all but idle and iowait). */
  private static long[] cpuTicks() throws IOException {
    String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
    long total = 0;
    for (int i = 1; i < f.length; i++) {
      total += Long.parseLong(f[i]);
    }
    long idle = Long.parseLong(f[4]) + Long.parseLong(f[5]);
    return new long[] {total - idle, total};
  }

  /** Runs one child phase and returns its RESULT line's fields. */
  private static Map<String, String> runChild(List<String> jvmOptions, String phase, String bootstrap, Path state,
      String appId, String mode, long records) throws Exception {
    List<String> cmd = new ArrayList<>();
    pause(mode + " " + phase);
    long[] vm0 = pageCacheCounters();
    Map<String, Long> broker0 = ThreadCpu.snapshot();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), StreamsBenchmark.class.getName(),
        "child", phase, bootstrap, state.toString(), appId, mode, Long.toString(records)));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    Map<String, String> result = null;
    List<String> tail = new ArrayList<>();
    try (var reader = p.inputReader()) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.startsWith("RESULT ")) {
          System.out.println(mode + " " + line);
          result = new LinkedHashMap<>();
          for (String field : line.substring("RESULT ".length()).split(" ")) {
            String[] kv = field.split("=", 2);
            result.put(kv[0], kv[1]);
          }
        } else {
          tail.add(line);
          if (tail.size() > 40) {
            tail.remove(0);
          }
        }
      }
    }
    if (!p.waitFor(1, TimeUnit.MINUTES) || p.exitValue() != 0 || result == null) {
      p.destroyForcibly();
      throw new IllegalStateException(mode + " " + phase + " failed; its last lines:\n" + String.join("\n", tail));
    }
    // The driver is the broker's JVM: while a child runs, the driver itself only reads its output.
    Map<String, Long> broker1 = ThreadCpu.snapshot();
    result.put(phase + "BrokerCpuSeconds", String.format("%.1f", (broker1.get("total") - broker0.get("total")) / 1e9));
    result.put(phase + "BrokerJitSeconds",
        String.format("%.1f", (broker1.getOrDefault("jit", 0L) - broker0.getOrDefault("jit", 0L)) / 1e9));
    System.out.printf("%s %s: the broker's JVM (the driver) used %s s of CPU, %s s of it in the JIT's compiler threads%n",
        mode, phase, result.get(phase + "BrokerCpuSeconds"), result.get(phase + "BrokerJitSeconds"));
    long[] vm1 = pageCacheCounters();
    if (vm0 != null && vm1 != null) {
      long refaultedMiB = (vm1[0] - vm0[0]) * 4 / 1024;
      long diskReadMiB = (vm1[1] - vm0[1]) / 1024;
      result.put(phase + "RefaultedMiB", Long.toString(refaultedMiB));
      result.put(phase + "DiskReadMiB", Long.toString(diskReadMiB));
      System.out.printf("%s %s: %d MiB of evicted file pages read again, %d MiB read from disk (machine-wide)%n",
          mode, phase, refaultedMiB, diskReadMiB);
    }
    return result;
  }

  /**
   * Machine-wide counters from /proc/vmstat: file pages read again after the kernel evicted them
   * ({@code workingset_refault_file}, 4 KiB pages) and KiB read from disk ({@code pgpgin}); null
   * where /proc/vmstat is missing. A host that reclaims idle page cache (this one runs DAMON's
   * proactive pageout) makes a phase read again from disk what an earlier phase left cached.
   */
  private static long[] pageCacheCounters() {
    long refault = -1;
    long pgpgin = -1;
    try {
      for (String line : Files.readAllLines(Path.of("/proc/vmstat"))) {
        String[] f = line.split(" ");
        if (f[0].equals("workingset_refault_file")) {
          refault = Long.parseLong(f[1]);
        } else if (f[0].equals("pgpgin")) {
          pgpgin = Long.parseLong(f[1]);
        }
      }
    } catch (IOException | RuntimeException e) {
      return null;
    }
    return refault < 0 || pgpgin < 0 ? null : new long[] {refault, pgpgin};
  }

  // ------------------------------------------------------------------ the application (child JVM)

  static Topology topology(AtomicLong out, CountDownLatch firstOut, AtomicLong firstOutNanos, AtomicLong halfOutNanos,
      AtomicLong lastOutNanos, CountDownLatch done, long expected, boolean countInput) {
    StreamsBuilder b = new StreamsBuilder();
    KStream<String, Long> input = b.stream(INPUT, Consumed.with(Serdes.String(), Serdes.Long()));
    KStream<String, Long> counted = input
        .groupByKey(Grouped.with(Serdes.String(), Serdes.Long()))
        .reduce(Long::sum, Materialized.as(STORE))
        .toStream();
    // Without a record cache every input record comes out of the aggregation; with one, a record
    // is counted as it goes in (peek runs just before the aggregation, on the same thread).
    (countInput ? input : counted)
        .peek((k, v) -> {
          long n = out.incrementAndGet();
          if (n == 1) {
            firstOutNanos.set(System.nanoTime());
            firstOut.countDown();
          }
          if (n == expected / 2) {
            halfOutNanos.set(System.nanoTime());
          }
          if (n == expected) {
            lastOutNanos.set(System.nanoTime());
            done.countDown();
          }
        });
    return b.build();
  }

  static Properties props(String bootstrap, Path state, String appId, String mode) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, appId);
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(StreamsConfig.STATE_DIR_CONFIG, state.toString());
    p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 2); // one per core
    // Every record reaches the store and the changelog (with the cache, the store sees only what
    // the cache evicts or flushes at commit, and the changelog holds fewer records).
    p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, cacheBytes());
    p.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
    if (System.getProperty(GUARANTEE) != null) {
      p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, System.getProperty(GUARANTEE));
    }
    if (System.getProperty(TRANSACTIONAL) != null) {
      p.put(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, System.getProperty(TRANSACTIONAL));
    }
    switch (mode) {
      case "p2kv" -> {
        p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, P2kvDslStoreSuppliers.class);
        if (System.getProperty(SHARDS) != null) {
          p.put(P2kvStores.SHARDS_CONFIG, System.getProperty(SHARDS));
        }
        if (System.getProperty(BUDGET) != null) {
          p.put(P2kvStores.MEMORY_BUDGET_BYTES_CONFIG, System.getProperty(BUDGET));
        }
      }
      case "rocksdb" -> { } // Kafka's default: one RocksDB store per task
      default -> throw new IllegalArgumentException("mode must be p2kv or rocksdb: " + mode);
    }
    return p;
  }

  /** Kafka's record cache for the application: {@value #CACHE}, or none. */
  static long cacheBytes() {
    return Long.getLong(CACHE, 0L);
  }

  /** args: child, phase (process|restore), bootstrap, state dir, application id, mode, records. */
  private static void child(String[] args) throws Exception {
    String phase = args[1];
    Path state = Path.of(args[3]);
    String mode = args[5];
    long records = Long.parseLong(args[6]);
    AtomicLong out = new AtomicLong();
    CountDownLatch firstOut = new CountDownLatch(1);
    AtomicLong firstOutNanos = new AtomicLong();
    AtomicLong halfOutNanos = new AtomicLong();
    AtomicLong lastOutNanos = new AtomicLong();
    CountDownLatch done = new CountDownLatch(1);
    RestoreTimes restore = new RestoreTimes();
    KafkaStreams streams = new KafkaStreams(
        topology(out, firstOut, firstOutNanos, halfOutNanos, lastOutNanos, done, records, cacheBytes() > 0), props(args[2], state, args[4], mode));
    streams.setGlobalStateRestoreListener(restore);
    CountDownLatch running = new CountDownLatch(1);
    streams.setStateListener((now, before) -> {
      if (now == KafkaStreams.State.RUNNING) {
        running.countDown();
      }
    });
    streams.setUncaughtExceptionHandler(e -> {
      e.printStackTrace();
      System.exit(3);
      return null;
    });
    streams.start();
    try {
      StringBuilder result = new StringBuilder("RESULT");
      if (phase.equals("process")) {
        await(firstOut, "the first record counted (out of the aggregation, or into it with a cache)");
        Map<String, Long> cpuAtFirst = ThreadCpu.snapshot();
        await(done, "processing " + records + " records (processed " + out + ")");
        Map<String, Long> cpuAtLast = ThreadCpu.snapshot();
        double seconds = (lastOutNanos.get() - firstOutNanos.get()) / 1e9;
        result.append(String.format(" processRecords=%d processSeconds=%.2f processRecordsPerSec=%.0f",
            out.get(), seconds, records / seconds));
        // The second half alone: past the JIT's warm-up of Kafka's code and the store's.
        double secondHalf = (lastOutNanos.get() - halfOutNanos.get()) / 1e9;
        result.append(String.format(" processSecondHalfRecordsPerSec=%.0f", (records - records / 2) / secondHalf));
        result.append(memory("process"));
        // CPU per record from the first record counted to the last, by thread group
        result.append(ThreadCpu.perRecord("process", cpuAtFirst, cpuAtLast, records));
      } else {
        await(restore.done, "restoring " + PARTITIONS + " partitions (" + restore.ended + " done)");
        long endNanos = restore.lastEnd.get();
        long readyNanos = awaitEveryPartitionServes(streams);
        double seconds = (readyNanos - restore.firstStart.get()) / 1e9;
        double toLastEnd = (endNanos - restore.firstStart.get()) / 1e9;
        // Without a cache the changelog holds one record per input record; with one, fewer
        long expected = cacheBytes() > 0 ? restore.toRestore.get() : records;
        if (restore.restored.get() != expected) {
          throw new IllegalStateException("restored " + restore.restored + " records, expected " + expected);
        }
        // Restore time ends when every partition's store answers an interactive query: Kafka calls
        // onRestoreEnd when a changelog is read to its end, before the task commits its store,
        // and a store may still be writing what it restored then (restoreEndSeconds, the older measure).
        result.append(String.format(" restoreRecords=%d restoreSeconds=%.2f restoreRecordsPerSec=%.0f restoreEndSeconds=%.2f",
            restore.restored.get(), seconds, restore.restored.get() / seconds, toLastEnd));
        result.append(memory("restore"));
      }
      System.out.println(result);
    } finally {
      // Leaving the group lets the next phase's member get every task at once instead of after
      // the session timeout (Kafka Streams stays in the group on close by default).
      streams.close(CloseOptions.groupMembershipOperation(CloseOptions.GroupMembershipOperation.LEAVE_GROUP)
          .withTimeout(Duration.ofMinutes(1)));
    }
  }

  /**
   * Polls each partition's store with an active-only key query until every one answers (its task
   * is running: restored and committed); returns {@link System#nanoTime()} then.
   */
  private static long awaitEveryPartitionServes(KafkaStreams streams) throws InterruptedException {
    java.util.Set<Integer> waiting = new java.util.HashSet<>();
    for (int p = 0; p < PARTITIONS; p++) {
      waiting.add(p);
    }
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!waiting.isEmpty()) {
      org.apache.kafka.streams.query.StateQueryResult<Long> answer = streams.query(
          org.apache.kafka.streams.query.StateQueryRequest.inStore(STORE)
              .withQuery(org.apache.kafka.streams.query.KeyQuery.<String, Long>withKey("key-00000000"))
              .withPartitions(java.util.Set.copyOf(waiting))
              .requireActive());
      answer.getPartitionResults().forEach((partition, r) -> {
        if (r.isSuccess()) {
          waiting.remove(partition);
        }
      });
      if (!waiting.isEmpty()) {
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException("partitions " + waiting + " never served after their restore");
        }
        Thread.sleep(1);
      }
    }
    return System.nanoTime();
  }

  private static void await(CountDownLatch latch, String what) throws InterruptedException {
    if (!latch.await(DEADLINE.toSeconds(), TimeUnit.SECONDS)) {
      throw new IllegalStateException("timed out " + what);
    }
  }

  /**
   * The fields of a {@code /proc} file of {@code Name:   value [kB]} lines (status, meminfo), by
   * name, values without the {@code kB}.
   */
  private static Map<String, String> procFields(String file) throws IOException {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String l : Files.readAllLines(Path.of(file))) {
      String[] kv = l.split(":\\s+", 2);
      if (kv.length == 2) {
        fields.put(kv[0], kv[1].replace(" kB", "").trim());
      }
    }
    return fields;
  }

  /** The process's resident memory now and at its peak, its committed heap, its threads. */
  private static String memory(String phase) throws IOException {
    Map<String, String> status = procFields("/proc/self/status");
    var heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage();
    String figures = String.format(" %sRssKb=%s %sHwmKb=%s %sHeapCommittedKb=%d %sThreads=%d",
        phase, status.get("VmRSS"), phase, status.get("VmHWM"), phase, heap.getCommitted() >> 10,
        phase, ManagementFactory.getThreadMXBean().getThreadCount());
    return figures + MemoryBreakdown.of(phase); // last: it may trim malloc's heap
  }

  /** Times and counts every task's restore. */
  private static final class RestoreTimes implements StateRestoreListener {
    final AtomicLong firstStart = new AtomicLong();
    final AtomicLong lastEnd = new AtomicLong();
    final AtomicLong restored = new AtomicLong();
    /** The changelog records the restores start to read: ending minus starting offsets. */
    final AtomicLong toRestore = new AtomicLong();
    final AtomicInteger ended = new AtomicInteger();
    final CountDownLatch done = new CountDownLatch(1);

    @Override
    public void onRestoreStart(TopicPartition partition, String storeName, long startingOffset, long endingOffset) {
      firstStart.compareAndSet(0, System.nanoTime());
      toRestore.addAndGet(endingOffset - startingOffset);
    }

    @Override
    public void onBatchRestored(TopicPartition partition, String storeName, long batchEndOffset, long numRestored) {
      restored.addAndGet(numRestored);
    }

    @Override
    public void onRestoreEnd(TopicPartition partition, String storeName, long totalRestored) {
      lastEnd.set(System.nanoTime());
      if (ended.incrementAndGet() == PARTITIONS) {
        done.countDown();
      }
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path p : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(p);
      }
    }
  }
}
