package io.p2kv.kafka.bench;

import io.p2kv.kafka.P2kvStores;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * The state-store part of {@link StreamsBenchmark}'s aggregation without Kafka: 32 tasks' stores
 * (Kafka's default timestamped RocksDB store, or p2kv's), two threads each owning 16 of them, and
 * per record what the DSL's reduce asks of its store: a get of the key, then a put of its new
 * 16-byte value (timestamp and sum). Keys are {@code key-%08d}, uniform over {@code keys},
 * partitioned as Kafka's default partitioner does; each store is flushed at the end. Prints
 * records per second, process CPU per record (RocksDB's background threads included) and the same
 * for the second half of the records alone (the JIT warm), then the CPU per record by thread
 * group ({@link ThreadCpu}). Each record's key is a new object, as a deserializer makes it. An
 * optional fifth argument {@code get} measures the gets alone, after every key has been written
 * once (untimed); {@code put} the puts alone; {@code update} (the default) both.
 *
 * <p>Run (docs/benchmarks/KAFKA-STREAMS.md): {@code java -Xmx1g -cp "$(cat
 * kafka-streams/target/test-cp.txt):kafka-streams/target/test-classes:kafka-streams/target/classes"
 * io.p2kv.kafka.bench.StoreOpsMeasure p2kv|rocksdb 2000000 1000000 DIR [update|get|put]}
 */
public final class StoreOpsMeasure {
  private static final int TASKS = 32;
  /** Keys {@code key-%08d} there are room for: {@link #key} writes 8 digits. */
  private static final int MAX_KEYS = 100_000_000;

  private StoreOpsMeasure() {}

  public static void main(String[] args) throws Exception {
    String kind = args[0];
    int records = Integer.parseInt(args[1]);
    int keyCount = Integer.parseInt(args[2]);
    if (keyCount < 1 || keyCount > MAX_KEYS) {
      throw new IllegalArgumentException("keys: 1 to " + MAX_KEYS + " (key-%08d has 8 digits), not " + keyCount);
    }
    Path dir = Files.createDirectories(Path.of(args[3]));
    String mode = args.length > 4 ? args[4] : "update";
    if (!List.of("update", "get", "put").contains(mode)) {
      throw new IllegalArgumentException("mode: update, get or put, not " + mode);
    }
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, "ops");
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    props.put(StreamsConfig.STATE_DIR_CONFIG, dir.toString());
    List<KeyValueStore<Bytes, byte[]>> stores = new ArrayList<>();
    for (int p = 0; p < TASKS; p++) {
      Path taskDir = Files.createDirectories(dir.resolve("ops/0_" + p));
      MockProcessorContext<Object, Object> ctx = new MockProcessorContext<>(props, new TaskId(0, p), taskDir.toFile());
      KeyValueStore<Bytes, byte[]> store = switch (kind) {
        case "p2kv" -> P2kvStores.timestampedKeyValueStore(StreamsBenchmark.STORE).get();
        case "rocksdb" -> Stores.persistentTimestampedKeyValueStore(StreamsBenchmark.STORE).get();
        default -> throw new IllegalArgumentException("kind: p2kv or rocksdb, not " + kind);
      };
      store.init(ctx.getStateStoreContext(), store);
      stores.add(store);
    }
    // Each record's key is made when it is used, as a deserializer makes it: holding keyCount key
    // objects for the whole run (some 700 MB of a 1 GiB heap at 12 M keys, by object sizes) made
    // the heap's collections costly, and p2kv, which allocates more per record, paid 2.0 us per
    // record of GC for it against 0.2 for Kafka's stores (KAFKA-STREAMS.md, stop 57).
    int[] partition = new int[keyCount];
    for (int k = 0; k < keyCount; k++) {
      partition[k] = Utils.toPositive(Utils.murmur2(key(k).get())) % TASKS;
    }
    Random r = new Random(42);
    int[][] perThread = new int[2][records];
    int[] counts = new int[2];
    for (int i = 0; i < records; i++) {
      int k = r.nextInt(keyCount);
      int t = partition[k] % 2;
      perThread[t][counts[t]++] = k;
    }
    boolean reads = !mode.equals("put");
    boolean writes = !mode.equals("get");
    if (!writes) { // the gets find every key: write each once first, untimed
      for (int k = 0; k < keyCount; k++) {
        stores.get(partition[k]).put(key(k), value(k, 1));
      }
      flushAll(stores);
    }
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long[] halfNanos = new long[2];
    long[] halfCpu = new long[2];
    Map<String, Long> threads0 = ThreadCpu.snapshot();
    long cpu0 = os.getProcessCpuTime();
    long t0 = System.nanoTime();
    Thread[] threads = new Thread[2];
    for (int t = 0; t < 2; t++) {
      int[] mine = perThread[t];
      int n = counts[t];
      int me = t;
      threads[t] = new Thread(() -> {
        for (int i = 0; i < n; i++) {
          if (i == n / 2) {
            halfNanos[me] = System.nanoTime();
            halfCpu[me] = os.getProcessCpuTime();
          }
          int k = mine[i];
          KeyValueStore<Bytes, byte[]> store = stores.get(partition[k]);
          Bytes key = key(k);
          byte[] old = reads ? store.get(key) : null;
          if (writes) {
            long sum = (old == null ? 0 : ByteBuffer.wrap(old, 8, 8).getLong()) + 1;
            store.put(key, value(i, sum));
          }
        }
      }, "stream-" + t);
      threads[t].start();
    }
    for (Thread t : threads) {
      t.join();
    }
    flushAll(stores);
    long end = System.nanoTime();
    long cpuEnd = os.getProcessCpuTime();
    Map<String, Long> threads1 = ThreadCpu.snapshot();
    long wall = end - t0;
    long cpu = cpuEnd - cpu0;
    // The second half: from when the later thread reached the middle of its records.
    long secondWall = end - Math.max(halfNanos[0], halfNanos[1]);
    long secondCpu = cpuEnd - Math.max(halfCpu[0], halfCpu[1]);
    System.out.printf("%s %s records=%d keys=%d: %.0f records/s, %.2f us CPU/record; second half %.0f records/s, %.2f us CPU/record%n",
        kind, mode, records, keyCount, records / (wall / 1e9), cpu / 1e3 / records,
        records / 2 / (secondWall / 1e9), secondCpu / 1e3 / (records / 2.0));
    // CPU by thread group: p2kv's worker (p2kvWorker), RocksDB's background threads, GC, JIT; the
    // two measuring threads have ended, so theirs is what the groups leave ("other").
    System.out.println("per record:" + ThreadCpu.perRecord("", threads0, threads1, records));
    for (KeyValueStore<Bytes, byte[]> s : stores) {
      s.close();
    }
  }

  /** Key {@code k} (below {@link #MAX_KEYS}): {@code key-%08d} in ASCII, a new object each call. */
  static Bytes key(int k) {
    byte[] b = {'k', 'e', 'y', '-', '0', '0', '0', '0', '0', '0', '0', '0'};
    for (int i = b.length - 1, v = k; v > 0 && i >= 4; i--, v /= 10) {
      b[i] = (byte) ('0' + v % 10);
    }
    return Bytes.wrap(b);
  }

  /** The reduce's 16-byte value: a timestamp, then the sum. */
  private static byte[] value(long timestamp, long sum) {
    return ByteBuffer.allocate(16).putLong(timestamp).putLong(sum).array();
  }

  private static void flushAll(List<KeyValueStore<Bytes, byte[]>> stores) {
    for (KeyValueStore<Bytes, byte[]> s : stores) {
      s.flush();
    }
  }
}
