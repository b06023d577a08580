package io.p2kv.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.processor.StateRestoreCallback;
import org.apache.kafka.streams.processor.StateStoreContext;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A process killed (SIGKILL) while its store restores keeps no changelog offset beyond the data it
 * kept: a child JVM restores batches of changelog records without end, committing offsets every
 * few batches and reporting each commit; the test kills it after several commits, reopens the store
 * and checks that an offset was committed (a commit during a restore records the records already
 * loaded, and the child's records outgrow the store's restore buffer several times) and that every
 * record up to it is in the store (each key holds the value of its last record up to the offset, or
 * of a later record of that key).
 */
class RestoreCrashTest {
  private static final TopicPartition CHANGELOG = new TopicPartition("app-kv-changelog", 3);
  private static final int KEYS = 5_000;
  private static final int BATCH = 1_000;
  /** Bytes of each record's value: its offset, then zeros; 16 batches fill a task's restore buffer. */
  private static final int VALUE_BYTES = 1_024;

  @TempDir Path tmp;

  /** The key of the changelog record at {@code offset}: deterministic, repeating, unordered. */
  static byte[] keyAt(long offset) {
    return ByteBuffer.allocate(4).putInt((int) ((offset * 7_919) % KEYS)).array();
  }

  static Properties props(Path state) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "app");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    p.put(StreamsConfig.STATE_DIR_CONFIG, state.toString());
    p.put(P2kvStores.MEMORY_BUDGET_BYTES_CONFIG, 32L << 20);
    // Two shards: each restore batch is split into one write per shard, and a commit writes the
    // offsets only after every shard's part of the data (one shard is the same with one part).
    p.put(P2kvStores.SHARDS_CONFIG, 2);
    return p;
  }

  static MockProcessorContext<Object, Object> context(Path state) throws Exception {
    Path taskDir = Files.createDirectories(state.resolve("app/0_" + CHANGELOG.partition()));
    return new MockProcessorContext<>(props(state), new TaskId(0, CHANGELOG.partition()), taskDir.toFile());
  }

  /** The child: restores and commits until it is killed. args: state directory. */
  public static void main(String[] args) throws Exception {
    StateStoreContext real = context(Path.of(args[0])).getStateStoreContext();
    List<StateRestoreCallback> callback = new ArrayList<>();
    StateStoreContext capturing = (StateStoreContext) java.lang.reflect.Proxy.newProxyInstance(
        RestoreCrashTest.class.getClassLoader(), new Class<?>[] {StateStoreContext.class}, (proxy, method, a) -> {
          if (method.getName().equals("register")) {
            callback.add((StateRestoreCallback) a[1]);
            return null;
          }
          return method.invoke(real, a);
        });
    P2kvKeyValueStore store = new P2kvKeyValueStore("kv");
    store.init(capturing, store);
    RecordBatchingStateRestoreCallback restore = (RecordBatchingStateRestoreCallback) callback.get(0);
    long offset = 0;
    for (int b = 1; ; b++) {
      List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
      for (int i = 0; i < BATCH; i++, offset++) {
        batch.add(new ConsumerRecord<>(CHANGELOG.topic(), CHANGELOG.partition(), offset, keyAt(offset),
            ByteBuffer.allocate(VALUE_BYTES).putLong(offset).array()));
      }
      restore.restoreBatch(batch);
      if (b % 5 == 0) {
        store.commit(Map.of(CHANGELOG, offset - 1)); // the last record restored, as Kafka records it
        System.out.println("committed " + (offset - 1));
        System.out.flush();
      }
    }
  }

  @Test
  void aKillDuringARestoreKeepsNoOffsetBeyondTheDataKept() throws Exception {
    Path state = tmp.resolve("state");
    Process child = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
            "-cp", System.getProperty("java.class.path"), RestoreCrashTest.class.getName(), state.toString())
        .redirectErrorStream(true)
        .start();
    long lastReported = -1;
    List<String> output = new ArrayList<>();
    try (BufferedReader in = child.inputReader()) {
      String line;
      int commits = 0;
      while (commits < 12 && (line = in.readLine()) != null) {
        output.add(line);
        if (line.startsWith("committed ")) {
          lastReported = Long.parseLong(line.substring("committed ".length()));
          commits++;
        }
      }
      child.destroyForcibly(); // SIGKILL, while the child goes on restoring
      assertTrue(child.waitFor(1, TimeUnit.MINUTES), "the child did not die");
    }
    assertTrue(lastReported > 0, "the child reported no commit: " + output);

    P2kvKeyValueStore store = new P2kvKeyValueStore("kv");
    store.init(context(state).getStateStoreContext(), store);
    try {
      Long committed = store.committedOffset(CHANGELOG);
      assertNotNull(committed, "no offset committed after " + lastReported + " records restored");
      // For each key, its last record up to the committed offset: the store holds it or a later one.
      long[] lastBefore = new long[KEYS];
      java.util.Arrays.fill(lastBefore, -1);
      for (long o = 0; o <= committed; o++) {
        lastBefore[ByteBuffer.wrap(keyAt(o)).getInt()] = o;
      }
      for (int k = 0; k < KEYS; k++) {
        byte[] key = ByteBuffer.allocate(4).putInt(k).array();
        byte[] v = store.get(Bytes.wrap(key));
        if (lastBefore[k] < 0) {
          continue;
        }
        assertNotNull(v, "key " + k + ": lost its record at offset " + lastBefore[k] + " (committed " + committed + ")");
        long held = ByteBuffer.wrap(v).getLong();
        assertTrue(held >= lastBefore[k], "key " + k + ": holds offset " + held + ", its record at "
            + lastBefore[k] + " is before the committed offset " + committed);
        assertEquals(k, ByteBuffer.wrap(keyAt(held)).getInt(), "key " + k + " holds another key's record " + held);
      }
    } finally {
      store.close();
    }
  }
}
