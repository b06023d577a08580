package io.p2kv.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.Durability;
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
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A process killed (SIGKILL) while its store restores or processes keeps no changelog offset
 * beyond the data it kept, and a store closed cleanly before the kill keeps its last commit. A child JVM writes changelog records without end, either restoring
 * them (the restore callback) or processing them (puts), and commits offsets every few batches,
 * reporting each commit. On one shard, whose writes skip the write-ahead log ({@link
 * SharedStore#writeDurability}), it also flushes the shared store after every third commit, as its
 * memtables' own flushes would, and reports the commit that flush persisted. The test kills it
 * after several commits, reopens the store and checks that an offset is committed, that when
 * processing it is at least the last one reported persisted (the last one reported at all on two
 * shards, whose writes are logged), and that every record up to it is in the store: each key holds
 * the value of its last record up to the offset, or of a later record of that key. In the third
 * mode the child closes the store after a few commits while another task's store keeps the shared
 * store open, and the store must hold exactly that last commit.
 */
class StoreCrashTest {
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

  static Properties props(Path state, int shards) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "app");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    p.put(StreamsConfig.STATE_DIR_CONFIG, state.toString());
    p.put(P2kvStores.MEMORY_BUDGET_BYTES_CONFIG, 32L << 20);
    // On two shards each batch is split into one write per shard, and a commit writes the offsets
    // only after every shard's part of the data.
    p.put(P2kvStores.SHARDS_CONFIG, shards);
    return p;
  }

  static MockProcessorContext<Object, Object> context(Path state, int shards) throws Exception {
    return context(state, shards, CHANGELOG.partition());
  }

  static MockProcessorContext<Object, Object> context(Path state, int shards, int partition) throws Exception {
    Path taskDir = Files.createDirectories(state.resolve("app/0_" + partition));
    return new MockProcessorContext<>(props(state, shards), new TaskId(0, partition), taskDir.toFile());
  }

  /**
   * The child: restores or processes, and commits, until it is killed; or ("close") processes and
   * commits 30 batches, closes the store, reports it and waits, while another task's store keeps
   * the shared store open. args: mode, shards, state directory.
   */
  public static void main(String[] args) throws Exception {
    boolean restoring = args[0].equals("restore");
    boolean closing = args[0].equals("close");
    int shards = Integer.parseInt(args[1]);
    Path state = Path.of(args[2]);
    if (closing) {
      P2kvKeyValueStore other = new P2kvKeyValueStore("kv");
      other.init(context(state, shards, CHANGELOG.partition() + 1).getStateStoreContext(), other);
    }
    StateStoreContext real = context(state, shards).getStateStoreContext();
    List<StateRestoreCallback> callback = new ArrayList<>();
    StateStoreContext capturing = (StateStoreContext) java.lang.reflect.Proxy.newProxyInstance(
        StoreCrashTest.class.getClassLoader(), new Class<?>[] {StateStoreContext.class}, (proxy, method, a) -> {
          if (method.getName().equals("register")) {
            callback.add((StateRestoreCallback) a[1]);
            return null;
          }
          return method.invoke(real, a);
        });
    P2kvKeyValueStore store = new P2kvKeyValueStore("kv");
    store.init(capturing, store);
    SharedStore shared = SharedStore.find(state.resolve("app/p2kv"));
    RecordBatchingStateRestoreCallback restore = (RecordBatchingStateRestoreCallback) callback.get(0);
    long offset = 0;
    for (int b = 1; ; b++) {
      List<ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
      for (int i = 0; i < BATCH; i++, offset++) {
        byte[] value = ByteBuffer.allocate(VALUE_BYTES).putLong(offset).array();
        if (restoring) {
          batch.add(new ConsumerRecord<>(CHANGELOG.topic(), CHANGELOG.partition(), offset, keyAt(offset), value));
        } else {
          store.put(Bytes.wrap(keyAt(offset)), value);
        }
      }
      if (restoring) {
        restore.restoreBatch(batch);
      }
      if (b % 5 == 0) {
        store.commit(Map.of(CHANGELOG, offset - 1)); // the last record written, as Kafka records it
        System.out.println("committed " + (offset - 1));
        if (!closing && shared.writeDurability() == Durability.NO_WAL && b % 15 == 0) {
          shared.store().flush();
          System.out.println("persisted " + (offset - 1));
        }
        System.out.flush();
      }
      if (closing && b == 30) {
        store.close();
        System.out.println("closed " + (offset - 1));
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
      }
    }
  }

  @ParameterizedTest(name = "{0} on {1} shard(s)")
  @CsvSource({"restore, 1", "restore, 2", "process, 1", "process, 2", "close, 1", "close, 2"})
  void aKillKeepsNoOffsetBeyondTheDataKept(String mode, int shards) throws Exception {
    Path state = tmp.resolve("state");
    Process child = new ProcessBuilder(
            Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
            "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
            "-cp", System.getProperty("java.class.path"), StoreCrashTest.class.getName(), mode, "" + shards, state.toString())
        .redirectErrorStream(true)
        .start();
    long lastCommitted = -1;
    long lastPersisted = -1;
    List<String> output = new ArrayList<>();
    try (BufferedReader in = child.inputReader()) {
      String line;
      int commits = 0;
      while (commits < 12 && (line = in.readLine()) != null) {
        output.add(line);
        if (line.startsWith("closed ")) {
          lastPersisted = lastCommitted = Long.parseLong(line.substring("closed ".length()));
          break;
        } else if (line.startsWith("committed ")) {
          lastCommitted = Long.parseLong(line.substring("committed ".length()));
          commits++;
        } else if (line.startsWith("persisted ")) {
          lastPersisted = Long.parseLong(line.substring("persisted ".length()));
        }
      }
      child.destroyForcibly(); // SIGKILL, while the child goes on writing
      assertTrue(child.waitFor(1, TimeUnit.MINUTES), "the child did not die");
    }
    assertTrue(lastCommitted > 0, "the child reported no commit: " + output);
    // Processing: a commit is kept once reported if logged (two shards), once a flush persisted it
    // if not (one shard). A commit during a restore records only the records already loaded, so
    // there the offset kept may be earlier than the one reported.
    long kept = mode.equals("restore") ? 0 : shards == 1 ? lastPersisted : lastCommitted;
    assertTrue(shards > 1 || lastPersisted > 0, "the child reported no flush: " + output);

    P2kvKeyValueStore store = new P2kvKeyValueStore("kv");
    store.init(context(state, shards).getStateStoreContext(), store);
    try {
      assertEquals(shards == 1 ? Durability.NO_WAL : Durability.WAL,
          SharedStore.find(state.resolve("app/p2kv")).writeDurability());
      Long committed = store.committedOffset(CHANGELOG);
      assertNotNull(committed, "no offset committed after " + lastCommitted + " records");
      if (mode.equals("close")) {
        assertEquals(kept, committed, "a store closed cleanly lost its last commit");
      }
      assertTrue(committed >= kept, "committed offset " + committed + " is before " + kept + ", which the child reported kept");
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
