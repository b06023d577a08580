package io.p2kv.kafka.bench;

import io.p2kv.kafka.P2kvStores;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.Stores;

/**
 * What it costs to drop one task's state of {@code keys} keys (issue 18: "a task's state is
 * dropped with a range delete on migration"), p2kv against Kafka's default RocksDB store, in one
 * run. Kafka drops a task's RocksDB store by deleting its task directory. The p2kv store lives in
 * the instance's shared store, so it deletes the partition's keys when it opens without its marker
 * file (with {@code P2kv.deleteRange}: one range tombstone per shard): timed is that {@code init}, with another task's store holding
 * the shared store open (as on a running instance), then a scan of the dropped range (which reads
 * past the range tombstones) and a put-and-get of another partition afterwards.
 *
 * <p>Run: see docs/benchmarks/KAFKA-STREAMS.md; {@code PartitionDropMeasure <keys> <rounds> <dir>}.
 */
public final class PartitionDropMeasure {
  private PartitionDropMeasure() {}

  public static void main(String[] args) throws Exception {
    int keys = Integer.parseInt(args[0]);
    int rounds = Integer.parseInt(args[1]);
    Path dir = Files.createDirectories(Path.of(args[2]));
    for (int round = 1; round <= rounds; round++) {
      Path root = dir.resolve("round-" + round);
      System.out.printf("round %d: %s; %s%n", round, p2kv(root.resolve("p2kv"), keys), rocksdb(root.resolve("rocksdb"), keys));
      Utils.delete(root.toFile());
    }
  }

  private static Properties props(Path state) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "app");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    p.put(StreamsConfig.STATE_DIR_CONFIG, state.toString());
    return p;
  }

  private static MockProcessorContext<Object, Object> context(Path state, int partition) throws Exception {
    Path taskDir = Files.createDirectories(state.resolve("app/0_" + partition));
    return new MockProcessorContext<>(props(state), new TaskId(0, partition), taskDir.toFile());
  }

  /** Fills the store with {@code keys} keys of 8 bytes and 16-byte values, 1,000 per putAll. */
  private static void fill(KeyValueStore<Bytes, byte[]> store, int keys) {
    List<KeyValue<Bytes, byte[]>> batch = new ArrayList<>();
    for (int i = 0; i < keys; i++) {
      batch.add(KeyValue.pair(Bytes.wrap(ByteBuffer.allocate(8).putLong(i * 2654435761L).array()), new byte[16]));
      if (batch.size() == 1000) {
        store.putAll(batch);
        batch.clear();
      }
    }
    store.putAll(batch);
  }

  private static String p2kv(Path state, int keys) throws Exception {
    MockProcessorContext<Object, Object> bystanderCtx = context(state, 1);
    KeyValueStore<Bytes, byte[]> bystander = P2kvStores.keyValueStore("kv").get();
    bystander.init(bystanderCtx.getStateStoreContext(), bystander); // keeps the shared store open
    MockProcessorContext<Object, Object> ctx = context(state, 0);
    KeyValueStore<Bytes, byte[]> store = P2kvStores.keyValueStore("kv").get();
    store.init(ctx.getStateStoreContext(), store);
    fill(store, keys);
    store.commit(Map.of(new TopicPartition("app-kv-changelog", 0), (long) keys));
    store.close();
    Files.delete(state.resolve("app/0_0/p2kv-kv")); // as when Kafka wipes the task directory

    KeyValueStore<Bytes, byte[]> dropped = P2kvStores.keyValueStore("kv").get();
    long t0 = System.nanoTime();
    dropped.init(ctx.getStateStoreContext(), dropped);
    long t1 = System.nanoTime();
    long left = dropped.approximateNumEntries();
    long t2 = System.nanoTime();
    bystander.put(Bytes.wrap(new byte[] {1}), new byte[] {1});
    bystander.get(Bytes.wrap(new byte[] {1}));
    long t3 = System.nanoTime();
    if (left != 0) {
      throw new IllegalStateException(left + " keys left after the drop");
    }
    dropped.close();
    bystander.close();
    return String.format("p2kv drop of %d keys %.0f ms, then a scan of the dropped range %.0f ms, a put and get elsewhere %.2f ms",
        keys, (t1 - t0) / 1e6, (t2 - t1) / 1e6, (t3 - t2) / 1e6);
  }

  private static String rocksdb(Path state, int keys) throws Exception {
    MockProcessorContext<Object, Object> ctx = context(state, 0);
    KeyValueStore<Bytes, byte[]> store = Stores.persistentKeyValueStore("kv").get();
    store.init(ctx.getStateStoreContext(), store);
    fill(store, keys);
    store.flush();
    store.close();
    long t0 = System.nanoTime();
    Utils.delete(state.resolve("app/0_0").toFile()); // what Kafka's cleaner and a wipe do
    long t1 = System.nanoTime();
    return String.format("Kafka RocksDB store: task directory deleted in %.0f ms", (t1 - t0) / 1e6);
  }
}
