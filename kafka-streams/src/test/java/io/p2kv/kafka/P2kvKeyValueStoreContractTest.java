package io.p2kv.kafka;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.errors.ProcessorStateException;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.processor.TaskId;
import org.apache.kafka.streams.processor.api.MockProcessorContext;
import org.apache.kafka.streams.query.Position;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;
import org.apache.kafka.streams.state.Stores;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store contract, against a TreeMap model in unsigned byte order: every method Kafka's wrappers
 * call, through the real wrappers (TopologyTestDriver: metered, change-logging and caching layers)
 * and on the bare store (commits, crash, restore). Seeded: {@code -Dp2kv.seed=...} replays a run.
 */
class P2kvKeyValueStoreContractTest {
  @TempDir Path tmp;

  private static long seed() {
    long seed = Long.getLong("p2kv.seed", System.nanoTime());
    System.out.println("P2kvKeyValueStoreContractTest seed: -Dp2kv.seed=" + seed);
    return seed;
  }

  private Properties props(String app) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, app);
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    p.put(StreamsConfig.STATE_DIR_CONFIG, tmp.resolve("state").toString());
    p.put(P2kvStores.MEMORY_BUDGET_BYTES_CONFIG, 32L << 20);
    return p;
  }

  /** Keys from a small alphabet that includes 0x00 and 0xFF, so prefixes and successors matter. */
  private static Bytes randomKey(Random r) {
    byte[] alphabet = {0x00, 0x01, 0x7F, (byte) 0x80, (byte) 0xFF};
    byte[] k = new byte[r.nextInt(4)];
    for (int i = 0; i < k.length; i++) {
      k[i] = alphabet[r.nextInt(alphabet.length)];
    }
    return Bytes.wrap(k);
  }

  private static List<String> drain(KeyValueIterator<Bytes, byte[]> it) {
    List<String> out = new ArrayList<>();
    try (it) {
      while (it.hasNext()) {
        Bytes peek = it.peekNextKey();
        KeyValue<Bytes, byte[]> kv = it.next();
        assertEquals(peek, kv.key);
        out.add(kv.key + "=" + Arrays.toString(kv.value));
      }
    }
    return out;
  }

  private static List<String> render(Map<Bytes, byte[]> m) {
    List<String> out = new ArrayList<>();
    m.forEach((k, v) -> out.add(k + "=" + Arrays.toString(v)));
    return out;
  }

  /** One random operation on the store and the model, checked. */
  private static void step(KeyValueStore<Bytes, byte[]> store, NavigableMap<Bytes, byte[]> model, Random r, String where) {
    Bytes k = randomKey(r);
    Bytes k2 = randomKey(r);
    byte[] v = new byte[] {(byte) r.nextInt(256), (byte) r.nextInt(3)};
    Bytes lo = k.compareTo(k2) <= 0 ? k : k2;
    Bytes hi = k.compareTo(k2) <= 0 ? k2 : k;
    switch (r.nextInt(12)) {
      case 0, 1, 2 -> {
        store.put(k, v);
        model.put(k, v);
      }
      case 3 -> assertArrayEquals(model.putIfAbsent(k, v), store.putIfAbsent(k, v), where);
      case 4 -> {
        store.putAll(List.of(KeyValue.pair(k, v), KeyValue.pair(k2, null)));
        model.put(k, v);
        model.remove(k2);
      }
      case 5 -> assertArrayEquals(model.remove(k), store.delete(k), where);
      case 6 -> assertArrayEquals(model.get(k), store.get(k), where);
      case 7 -> assertEquals(render(model.subMap(lo, true, hi, true)), drain(store.range(lo, hi)), where + " range");
      case 8 -> assertEquals(
          render(model.subMap(lo, true, hi, true).descendingMap()), drain(store.reverseRange(lo, hi)), where + " reverseRange");
      case 9 -> {
        assertEquals(render(model), drain(store.all()), where + " all");
        assertEquals(render(model.descendingMap()), drain(store.reverseAll()), where + " reverseAll");
      }
      case 10 -> {
        // Kafka's caching layer cannot take an empty or all-0xFF prefix (BytesUtils.increment throws)
        byte[] p = StoreKeys.successorOfPrefix(k.get()) == null ? new byte[] {0x7F} : k.get();
        NavigableMap<Bytes, byte[]> expected = new TreeMap<>();
        model.forEach((key, val) -> {
          if (key.get().length >= p.length && Arrays.equals(key.get(), 0, p.length, p, 0, p.length)) {
            expected.put(key, val);
          }
        });
        assertEquals(render(expected), drain(store.prefixScan(Bytes.wrap(p), Serdes.Bytes().serializer())), where + " prefixScan");
      }
      default -> {
        assertEquals(render(model.tailMap(lo, true)), drain(store.range(lo, null)), where + " open range");
        assertEquals(render(model.headMap(hi, true).descendingMap()), drain(store.reverseRange(null, hi)), where + " open reverse");
      }
    }
  }

  @ParameterizedTest(name = "transactional={0}")
  @ValueSource(booleans = {false, true})
  void shouldMatchTheModelThroughKafkasWrappersAcrossCommits(boolean transactional) {
    Random r = new Random(seed());
    NavigableMap<Bytes, byte[]> model = new TreeMap<>();
    // TopologyTestDriver wipes its task directories when it closes, so restarts are tested on the
    // bare store (below) and against a broker (P2kvStreamsIT).
    StreamsBuilder b = new StreamsBuilder();
    b.addStateStore(Stores.keyValueStoreBuilder(P2kvStores.keyValueStore("kv"), Serdes.Bytes(), Serdes.ByteArray())
        // Caching off: Kafka's caching layer returns deleted keys with null values from reverse
        // ranges (4.3.1, 4.4.0) and a key past the prefix from prefixScan (4.4.0); its own
        // in-memory store fails this test the same way with caching on (checked at the same seeds).
        .withCachingDisabled());
    b.stream("tick", Consumed.with(Serdes.String(), Serdes.String())).process(NoOp::new, "kv");
    Properties p = props("contract");
    p.put(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, transactional);
    try (TopologyTestDriver d = new TopologyTestDriver(b.build(), p)) {
      KeyValueStore<Bytes, byte[]> store = d.getKeyValueStore("kv");
      TestInputTopic<String, String> tick = d.createInputTopic("tick", Serdes.String().serializer(), Serdes.String().serializer());
      for (int i = 0; i < 6000; i++) {
        step(store, model, r, "op " + i);
        if (i % 100 == 99) {
          tick.pipeInput("t", "t"); // the driver commits the task after each record
          assertEquals(model.size(), store.approximateNumEntries(), "count at op " + i);
        }
      }
      tick.pipeInput("t", "t");
    }
  }

  /** Puts into the model, a null value removing the key, as the store does. */
  private static void put(NavigableMap<Bytes, byte[]> model, Bytes k, byte[] v) {
    if (v == null) {
      model.remove(k);
    } else {
      model.put(k, v);
    }
  }

  /** A context for task 0_{@code partition} of application "app", its directory created. */
  private MockProcessorContext<Object, Object> taskContext(Properties props, int partition) throws java.io.IOException {
    Path taskDir = Files.createDirectories(tmp.resolve("state/app/0_" + partition));
    return new MockProcessorContext<>(props, new TaskId(0, partition), taskDir.toFile());
  }

  /** A bare store "kv", opened in {@code ctx}. */
  private static P2kvKeyValueStore open(MockProcessorContext<Object, Object> ctx) {
    P2kvKeyValueStore store = new P2kvKeyValueStore("kv");
    store.init(ctx.getStateStoreContext(), store);
    return store;
  }

  /** Does nothing: the topology only needs a processor to connect the store and tick commits. */
  private static final class NoOp implements org.apache.kafka.streams.processor.api.Processor<String, String, Void, Void> {
    @Override
    public void process(org.apache.kafka.streams.processor.api.Record<String, String> rec) {}
  }

  @Test
  void shouldKeepDataAndOffsetsAcrossReopensAndDropThemWithTheTaskDirectory() throws Exception {
    TopicPartition changelog = new TopicPartition("app-kv-changelog", 0);
    MockProcessorContext<Object, Object> ctx = taskContext(props("app"), 0);
    P2kvKeyValueStore store = open(ctx);
    assertNull(store.committedOffset(changelog));
    store.put(Bytes.wrap(new byte[] {1}), new byte[] {10});
    store.commit(Map.of(changelog, 41L));
    store.close();

    P2kvKeyValueStore reopened = open(ctx);
    assertEquals(41L, reopened.committedOffset(changelog));
    assertArrayEquals(new byte[] {10}, reopened.get(Bytes.wrap(new byte[] {1})));
    reopened.commit(Map.of());
    assertNull(reopened.committedOffset(changelog), "an empty commit clears the offsets");
    reopened.commit(Map.of(changelog, 42L));
    reopened.close();

    // Kafka wipes the task directory (corruption, or the task moved away): the data goes with it.
    Files.delete(ctx.getStateStoreContext().stateDir().toPath().resolve("p2kv-kv"));
    P2kvKeyValueStore wiped = open(ctx);
    assertNull(wiped.get(Bytes.wrap(new byte[] {1})));
    assertNull(wiped.committedOffset(changelog));
    wiped.close();
  }

  /**
   * A task on a new state directory finds nothing of its partition: dropping it must write no
   * tombstones (each would stay in the shared store's memtable and files, passed by reads, until
   * compaction); a partition that holds keys is dropped whole, and only it.
   */
  @Test
  void shouldDropOnlyWhatAPartitionHoldsAndWriteNothingForAnEmptyOne() throws Exception {
    try (io.p2kv.P2kv p2kv = io.p2kv.P2kv.builder().shards(2).open(tmp.resolve("drop"))) {
      StoreKeys empty = new StoreKeys("kv", 0);
      StoreKeys full = new StoreKeys("kv", 1);
      for (int i = 0; i < 50; i++) {
        p2kv.put(full.data(new byte[] {(byte) i}), new byte[] {(byte) i});
      }
      p2kv.put(full.status(), new byte[] {1});
      byte[] other = new StoreKeys("kv", 2).data(new byte[] {7});
      p2kv.put(other, new byte[] {7});
      long writes = p2kv.stats().writeOps();

      assertTrue(!P2kvKeyValueStore.deleteRangeIfAny(p2kv, empty.dataStart(), empty.dataEnd()));
      assertTrue(!P2kvKeyValueStore.deleteIfPresent(p2kv, empty.status()));
      assertEquals(writes, p2kv.stats().writeOps(), "an empty partition's drop writes nothing");

      assertTrue(P2kvKeyValueStore.deleteRangeIfAny(p2kv, full.dataStart(), full.dataEnd()));
      assertTrue(P2kvKeyValueStore.deleteIfPresent(p2kv, full.status()));
      assertTrue(p2kv.range(full.dataStart(), full.dataEnd()).isEmpty());
      assertNull(p2kv.get(full.status()));
      assertArrayEquals(new byte[] {7}, p2kv.get(other), "the next partition keeps its keys");
    }
  }

  @Test
  void shouldKeepTheQueryPositionAcrossReopensAndDropItWithTheTaskDirectory() throws Exception {
    TopicPartition changelog = new TopicPartition("app-kv-changelog", 2);
    MockProcessorContext<Object, Object> ctx = taskContext(props("app"), 2);
    P2kvKeyValueStore store = open(ctx);
    ctx.setRecordMetadata("in", 2, 7L);
    store.put(Bytes.wrap(new byte[] {1}), new byte[] {10});
    ctx.setRecordMetadata("in", 2, 9L);
    store.putAll(List.of(KeyValue.pair(Bytes.wrap(new byte[] {2}), new byte[] {20})));
    Position expected = Position.emptyPosition().withComponent("in", 2, 9L);
    assertEquals(expected, store.getPosition());
    store.commit(Map.of(changelog, 2L));
    store.close();

    P2kvKeyValueStore reopened = open(ctx);
    assertEquals(expected, reopened.getPosition(), "the committed position is read back");
    ctx.setRecordMetadata("other", 0, 3L);
    reopened.put(Bytes.wrap(new byte[] {3}), new byte[] {30});
    reopened.close(); // no commit: the position written last time stays
    P2kvKeyValueStore again = open(ctx);
    assertEquals(expected, again.getPosition(), "only a commit writes the position");
    again.close();

    Files.delete(ctx.getStateStoreContext().stateDir().toPath().resolve("p2kv-kv"));
    P2kvKeyValueStore wiped = open(ctx);
    assertEquals(Position.emptyPosition(), wiped.getPosition(), "a wiped task starts from an empty position");
    wiped.close();
  }

  /**
   * The write buffer, against a model: random puts, deletes and putAlls over more keys than the
   * buffer holds, with no commit, so it fills and goes to p2kv many times. Every get (from this
   * thread and from another, as an interactive query) sees the model, and after each flush p2kv
   * itself holds exactly the model.
   */
  @Test
  void shouldServeBufferedWritesAndWriteThemToP2kvWhenFull() throws Exception {
    Random r = new Random(seed());
    P2kvKeyValueStore store = open(taskContext(props("app"), 3));
    io.p2kv.P2kv p2kv = SharedStore.find(tmp.resolve("state/app/p2kv")).store();
    StoreKeys keys = new StoreKeys("kv", 3);
    NavigableMap<Bytes, byte[]> model = new TreeMap<>();
    java.util.concurrent.ExecutorService reader = java.util.concurrent.Executors.newSingleThreadExecutor();
    try {
      int writes = 0;
      boolean sawBufferedWriteMissingFromP2kv = false;
      for (int i = 0; i < 20_000; i++) {
        Bytes k = Bytes.wrap(java.nio.ByteBuffer.allocate(4).putInt(r.nextInt(3_000)).array());
        byte[] v = r.nextInt(5) == 0 ? null : new byte[] {(byte) i, (byte) (i >> 8)};
        if (r.nextInt(10) == 0) {
          Bytes k2 = Bytes.wrap(java.nio.ByteBuffer.allocate(4).putInt(r.nextInt(3_000)).array());
          store.putAll(List.of(KeyValue.pair(k, v), KeyValue.pair(k2, null)));
          put(model, k, v);
          model.remove(k2); // after k: k2 may be k
          writes += 2;
        } else {
          store.put(k, v);
          put(model, k, v);
          writes++;
        }
        assertArrayEquals(model.get(k), store.get(k), "get after op " + i);
        Bytes probe = Bytes.wrap(java.nio.ByteBuffer.allocate(4).putInt(r.nextInt(3_000)).array());
        assertArrayEquals(model.get(probe), reader.submit(() -> store.get(probe)).get(), "query thread's get after op " + i);
        if (writes < P2kvKeyValueStore.WRITE_BUFFER_RECORDS && v != null && p2kv.get(keys.data(k.get())) == null) {
          sawBufferedWriteMissingFromP2kv = true; // the write is served from the buffer
        }
        if (i % 2_500 == 2_499) {
          assertEquals(render(model), drain(store.all()), "all after op " + i); // flushes the buffer
          List<String> inP2kv = new ArrayList<>();
          try (io.p2kv.KvIterator it = p2kv.iterator(keys.dataStart(), keys.dataEnd())) {
            it.forEachRemaining(kv -> inP2kv.add(Bytes.wrap(keys.userKey(kv.key())) + "=" + Arrays.toString(kv.value())));
          }
          assertEquals(render(model), inP2kv, "p2kv after the flush at op " + i);
        }
      }
      assertEquals(true, sawBufferedWriteMissingFromP2kv, "writes were buffered, not written through");
    } finally {
      reader.shutdownNow();
      store.close();
    }
  }

  /**
   * The buffer goes to p2kv as the last write of each key: keys written many times between two
   * flushes are one put or delete each in p2kv, and they count once toward the buffer's size
   * ({@value P2kvKeyValueStore#WRITE_BUFFER_RECORDS} keys), however often they are written.
   */
  @Test
  void shouldWriteTheLastWriteOfEachBufferedKeyOnce() throws Exception {
    P2kvKeyValueStore store = open(taskContext(props("app"), 3));
    io.p2kv.P2kv p2kv = SharedStore.find(tmp.resolve("state/app/p2kv")).store();
    StoreKeys keys = new StoreKeys("kv", 3);
    try {
      Bytes a = Bytes.wrap(new byte[] {'a'});
      Bytes b = Bytes.wrap(new byte[] {'b'});
      long ops = p2kv.stats().writeOps();
      long batches = stat(p2kv, io.p2kv.ShardStats::batches);
      int writes = 10 * P2kvKeyValueStore.WRITE_BUFFER_RECORDS;
      for (int i = 0; i < writes; i++) {
        store.put(a, new byte[] {(byte) i});
        store.put(b, new byte[] {(byte) i});
      }
      store.put(a, new byte[] {42});
      assertArrayEquals(new byte[] {(byte) (writes - 1)}, store.delete(b));
      assertArrayEquals(new byte[] {42}, store.get(a));
      assertArrayEquals(null, store.get(b));
      assertArrayEquals(null, p2kv.get(keys.data(a.get())), "still buffered after " + (2 * writes + 2) + " writes of 2 keys");
      assertEquals(ops, p2kv.stats().writeOps(), "nothing written yet");
      store.flush();
      assertArrayEquals(new byte[] {42}, p2kv.get(keys.data(a.get())), "a's last write");
      assertArrayEquals(null, p2kv.get(keys.data(b.get())), "and b's, a delete");
      assertEquals(batches + 1, stat(p2kv, io.p2kv.ShardStats::batches), "one batch");
      assertEquals(ops + 2, p2kv.stats().writeOps(), "of two writes");
    } finally {
      store.close();
    }
  }

  /** A per-shard statistic summed over {@code p2kv}'s shards (for those StoreStats does not total). */
  private static long stat(io.p2kv.P2kv p2kv, java.util.function.ToLongFunction<io.p2kv.ShardStats> stat) {
    return p2kv.stats().shards().stream().mapToLong(stat).sum();
  }

  /**
   * Restores through the callback the store registers, against a model: batches of changelog
   * records (puts and deletes, keys repeating across batches); right after the last batch returns
   * (its records may still be buffered, or loading) every get and a full scan see the model. With
   * 64-byte values the records outgrow the store's restore buffer ({@value
   * P2kvKeyValueStore#RESTORE_BUFFER_BYTES} bytes), so a load starts in the background while later
   * batches come, and must land before them.
   */
  @ParameterizedTest(name = "shards={0}, batches of {1}, values of {2} bytes, {3} keys")
  @org.junit.jupiter.params.provider.CsvSource({"1, 1000, 8, 5000", "2, 1000, 8, 5000", "1, 20000, 64, 200000", "2, 20000, 64, 200000"})
  void shouldRestoreBatchesOfChangelogRecordsInOrder(int shards, int batchSize, int valueBytes, int keySpace) throws Exception {
    Random r = new Random(seed());
    Properties p = props("app");
    p.put(P2kvStores.SHARDS_CONFIG, shards); // with 2, each batch is split into one write per shard
    MockProcessorContext<Object, Object> ctx = taskContext(p, 4);
    java.nio.file.Path taskDir = ctx.getStateStoreContext().stateDir().toPath();
    Files.write(taskDir.resolve("p2kv-kv~restore-7"), new byte[] {0, 0, 0, 9}); // a dead process's
    P2kvKeyValueStore store = new P2kvKeyValueStore("kv");
    var restore = initCapturingRestore(store, ctx);
    assertEquals(List.of(), restoreFiles(taskDir), "init deletes the restore files a dead process left");
    NavigableMap<Bytes, byte[]> model = new TreeMap<>();
    long offset = 0;
    for (int b = 0; b < 20; b++) {
      List<org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
      for (int i = 0; i < batchSize; i++) {
        byte[] k = java.nio.ByteBuffer.allocate(4).putInt(r.nextInt(keySpace)).array();
        byte[] v = r.nextInt(4) == 0 ? null : java.nio.ByteBuffer.allocate(valueBytes).putLong(offset).array();
        batch.add(new org.apache.kafka.clients.consumer.ConsumerRecord<>("app-kv-changelog", 4, offset++, k, v));
        put(model, Bytes.wrap(k), v);
      }
      restore.restoreBatch(batch);
      // Records handed to a write (a load may still run) leave the instance's count at once: only
      // this store's current buffer is in it.
      long counted = SharedStore.find(tmp.resolve("state/app/p2kv")).restoreBytes();
      assertTrue(counted < P2kvKeyValueStore.RESTORE_BUFFER_BYTES, counted + " bytes counted after batch " + b);
    }
    assertFalse(restoreFiles(taskDir).isEmpty(), "the records not loaded yet wait in a file, not on the heap");
    for (int k = 0; k < keySpace; k++) {
      Bytes key = Bytes.wrap(java.nio.ByteBuffer.allocate(4).putInt(k).array());
      assertArrayEquals(model.get(key), store.get(key), "key " + k);
    }
    assertEquals(render(model), drain(store.all()));
    assertEquals(List.of(), restoreFiles(taskDir), "a load deletes its file");
    assertEquals(0, SharedStore.find(tmp.resolve("state/app/p2kv")).restoreBytes(), "nothing waits");
    // Restored records are in p2kv (loaded, or written through its log) before the commit that
    // records their offsets writes them, which need not flush (StoreCrashTest checks that a kill
    // keeps no offset beyond the data).
    io.p2kv.P2kv p2kv = SharedStore.find(tmp.resolve("state/app/p2kv")).store();
    long flushedBefore = flushedBytes(p2kv);
    TopicPartition changelog = new TopicPartition("app-kv-changelog", 4);
    store.commit(Map.of(changelog, offset));
    assertEquals(flushedBefore, flushedBytes(p2kv), "the commit after a restore does not flush");
    assertEquals(offset, store.committedOffset(changelog));
    store.put(Bytes.wrap(new byte[] {1}), new byte[] {1});
    store.commit(Map.of(changelog, offset + 1));
    assertEquals(flushedBefore, flushedBytes(p2kv), "a commit after processing does not flush");
    store.close();
  }

  /**
   * An init that fails leaves nothing open: when Kafka refuses the registration, the store leaves
   * the shared p2kv store (the last user closes it, so its directory is not held locked); when the
   * shared store cannot be opened (here its directory is a file), Kafka gets a {@link
   * ProcessorStateException} naming the store.
   */
  @Test
  void shouldLeaveNothingOpenWhenInitFails() throws Exception {
    MockProcessorContext<Object, Object> ctx = taskContext(props("app"), 3);
    org.apache.kafka.streams.processor.StateStoreContext real = ctx.getStateStoreContext();
    org.apache.kafka.streams.processor.StateStoreContext refusing = (org.apache.kafka.streams.processor.StateStoreContext)
        java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {org.apache.kafka.streams.processor.StateStoreContext.class}, (proxy, method, args) -> {
              if (method.getName().equals("register")) {
                throw new IllegalArgumentException("store kv has already been registered");
              }
              return method.invoke(real, args);
            });
    P2kvKeyValueStore store = new P2kvKeyValueStore("kv");
    assertThrows(IllegalArgumentException.class, () -> store.init(refusing, store));
    assertNull(SharedStore.find(tmp.resolve("state/app/p2kv")), "the last user left the shared store, which closed");
    P2kvKeyValueStore again = open(ctx); // and it opens again, in this JVM
    again.put(Bytes.wrap(new byte[] {1}), new byte[] {2});
    assertArrayEquals(new byte[] {2}, again.get(Bytes.wrap(new byte[] {1})));
    again.close();

    Path otherTask = Files.createDirectories(tmp.resolve("state/other/0_3"));
    MockProcessorContext<Object, Object> elsewhere = new MockProcessorContext<>(props("other"), new TaskId(0, 3), otherTask.toFile());
    Path sharedDir = otherTask.getParent().resolve("p2kv");
    Files.writeString(sharedDir, "not a directory");
    ProcessorStateException e = assertThrows(ProcessorStateException.class, () -> open(elsewhere));
    assertTrue(e.getMessage().contains("kv") && e.getMessage().contains(sharedDir.toString()), e.getMessage());
  }

  /**
   * A store's restore files never take the name of another store's marker in the same task: store
   * "x" restoring while store "x.restore-0" lives beside it leaves the latter's marker, so the
   * latter keeps its data when it opens again. Names that could break that, or name no file, are
   * refused by the suppliers.
   */
  @Test
  void shouldKeepEachStoresFilesApartWhateverTheirNames() throws Exception {
    MockProcessorContext<Object, Object> ctx = taskContext(props("app"), 6);
    P2kvKeyValueStore other = new P2kvKeyValueStore("x.restore-0");
    other.init(ctx.getStateStoreContext(), other);
    other.put(Bytes.wrap(new byte[] {7}), new byte[] {7});
    other.commit(Map.of(new TopicPartition("app-x.restore-0-changelog", 6), 0L));
    other.close();
    P2kvKeyValueStore x = new P2kvKeyValueStore("x");
    var restore = initCapturingRestore(x, ctx);
    restoreRecords(restore, 6, 0, 1000, new Random(seed()), new TreeMap<>()); // they wait in a file
    x.close(); // which its load reads and deletes
    other = new P2kvKeyValueStore("x.restore-0");
    other.init(ctx.getStateStoreContext(), other);
    assertArrayEquals(new byte[] {7}, other.get(Bytes.wrap(new byte[] {7})), "the store beside x kept its data");
    other.close();

    for (String bad : List.of("", "a/b", "x~restore-0", "caf\u00e9", "a".repeat(250))) {
      assertThrows(IllegalArgumentException.class, () -> P2kvStores.keyValueStore(bad), bad);
      assertThrows(IllegalArgumentException.class, () -> P2kvStores.timestampedKeyValueStore(bad), bad);
    }
    assertEquals("x.restore-0", P2kvStores.keyValueStore("x.restore-0").name());
    assertEquals("a".repeat(249), P2kvStores.keyValueStore("a".repeat(249)).name());
  }

  /**
   * Closing the store closes the iterators it handed out, as Kafka's RocksDB stores do: using one
   * afterwards throws {@link org.apache.kafka.streams.errors.InvalidStateStoreException} (the
   * partition may be dropped and its task moved), and closing it is still harmless.
   */
  @ParameterizedTest(name = "transactional={0}")
  @ValueSource(booleans = {false, true})
  void shouldCloseItsIteratorsWhenItCloses(boolean transactional) throws Exception {
    P2kvKeyValueStore store = open(transactional ? transactionalContext(9) : taskContext(props("app"), 9));
    for (int i = 0; i < 10; i++) {
      store.put(Bytes.wrap(new byte[] {(byte) i}), new byte[] {(byte) i});
    }
    KeyValueIterator<Bytes, byte[]> left = store.all();
    assertEquals(Bytes.wrap(new byte[] {0}), left.next().key);
    KeyValueIterator<Bytes, byte[]> reversed = store.reverseRange(Bytes.wrap(new byte[] {2}), Bytes.wrap(new byte[] {5}));
    assertEquals(Bytes.wrap(new byte[] {5}), reversed.peekNextKey());
    try (KeyValueIterator<Bytes, byte[]> closed = store.range(Bytes.wrap(new byte[] {1}), Bytes.wrap(new byte[] {3}))) {
      assertEquals(3, drain(closed).size());
    }
    store.close();
    for (KeyValueIterator<Bytes, byte[]> it : List.of(left, reversed)) {
      assertThrows(org.apache.kafka.streams.errors.InvalidStateStoreException.class, it::hasNext);
      assertThrows(org.apache.kafka.streams.errors.InvalidStateStoreException.class, it::next);
      assertThrows(org.apache.kafka.streams.errors.InvalidStateStoreException.class, it::peekNextKey);
      it.close();
    }
    assertThrows(org.apache.kafka.streams.errors.InvalidStateStoreException.class, store::all);
  }

  /** Opens {@code store} in {@code ctx} and returns the restore callback it registers. */
  private org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback initCapturingRestore(
      P2kvKeyValueStore store, MockProcessorContext<Object, Object> ctx) {
    org.apache.kafka.streams.processor.StateStoreContext real = ctx.getStateStoreContext();
    List<org.apache.kafka.streams.processor.StateRestoreCallback> callback = new ArrayList<>();
    org.apache.kafka.streams.processor.StateStoreContext capturing = (org.apache.kafka.streams.processor.StateStoreContext)
        java.lang.reflect.Proxy.newProxyInstance(getClass().getClassLoader(),
            new Class<?>[] {org.apache.kafka.streams.processor.StateStoreContext.class}, (proxy, method, args) -> {
              if (method.getName().equals("register")) {
                callback.add((org.apache.kafka.streams.processor.StateRestoreCallback) args[1]);
                return null;
              }
              return method.invoke(real, args);
            });
    store.init(capturing, store);
    return (org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback) callback.get(0);
  }

  /** Restores {@code n} records from {@code offset} on: random keys of 0..499, each value its offset. */
  private static void restoreRecords(org.apache.kafka.streams.processor.internals.RecordBatchingStateRestoreCallback restore,
      int partition, long offset, int n, Random r, NavigableMap<Bytes, byte[]> model) {
    List<org.apache.kafka.clients.consumer.ConsumerRecord<byte[], byte[]>> batch = new ArrayList<>();
    for (long o = offset; o < offset + n; o++) {
      byte[] k = java.nio.ByteBuffer.allocate(4).putInt(r.nextInt(500)).array();
      byte[] v = java.nio.ByteBuffer.allocate(8).putLong(o).array();
      batch.add(new org.apache.kafka.clients.consumer.ConsumerRecord<>("app-kv-changelog", partition, o, k, v));
      model.put(Bytes.wrap(k), v);
    }
    restore.restoreBatch(batch);
  }

  /**
   * Kafka commits a restoring store often (every 100 ms under exactly-once). Such a commit does not
   * write the restored records still waiting (each would be a small load), and records the offset
   * of those already in p2kv only; a commit with no changelog records since the last one writes them all.
   */
  @Test
  void shouldCommitOnlyRestoredRecordsAlreadyInP2kvWhileARestoreGoesOn() throws Exception {
    Random r = new Random(seed());
    TopicPartition changelog = new TopicPartition("app-kv-changelog", 7);
    P2kvKeyValueStore store = new P2kvKeyValueStore("kv");
    var restore = initCapturingRestore(store, taskContext(props("app"), 7));
    NavigableMap<Bytes, byte[]> model = new TreeMap<>();
    restoreRecords(restore, 7, 0, 1000, r, model);
    store.commit(Map.of(changelog, 999L));
    assertEquals(0, inP2kv(7).size(), "a commit during a restore does not write the waiting records");
    assertNull(store.committedOffset(changelog), "nor their offsets");
    Bytes probe = model.firstKey();
    assertArrayEquals(model.get(probe), store.get(probe), "a read writes them first");
    NavigableMap<Bytes, byte[]> written = new TreeMap<>(model);
    restoreRecords(restore, 7, 1000, 1000, r, model);
    store.commit(Map.of(changelog, 1999L));
    assertEquals(999L, store.committedOffset(changelog), "the commit records the offset of the records written");
    assertEquals(render(written), inP2kv(7));
    store.commit(Map.of(changelog, 1999L)); // no changelog records since the last commit: the restore is over
    assertEquals(1999L, store.committedOffset(changelog));
    assertEquals(render(model), inP2kv(7));
    store.close();
  }

  /**
   * Restored records that fail to reach p2kv (here their file cannot be read back) are lost to the
   * store. The failure must reach the restoring thread even when an interactive query's read met it
   * first: until the store is opened again, restores, commits and reads fail, so that no commit
   * records offsets past the lost records. Opened again, the store restores from its committed
   * offsets.
   */
  @Test
  void shouldFailEveryRestoreAndCommitAfterRestoredRecordsWereLostToAQuery() throws Exception {
    Random r = new Random(seed());
    TopicPartition changelog = new TopicPartition("app-kv-changelog", 7);
    MockProcessorContext<Object, Object> ctx = taskContext(props("app"), 7);
    java.nio.file.Path taskDir = ctx.getStateStoreContext().stateDir().toPath();
    P2kvKeyValueStore store = new P2kvKeyValueStore("kv");
    var restore = initCapturingRestore(store, ctx);
    NavigableMap<Bytes, byte[]> model = new TreeMap<>();
    restoreRecords(restore, 7, 0, 1000, r, model);
    List<String> waiting = restoreFiles(taskDir);
    assertFalse(waiting.isEmpty(), "the restored records wait in a file");
    for (String f : waiting) {
      Files.delete(taskDir.resolve(f));
    }
    Bytes probe = model.firstKey();
    assertThrows(ProcessorStateException.class, () -> store.get(probe), "the query's read meets the failure");
    var restoring = restore;
    ProcessorStateException later = assertThrows(ProcessorStateException.class,
        () -> restoreRecords(restoring, 7, 1000, 1000, r, new TreeMap<>()), "the restoring thread meets it too");
    assertTrue(later.getMessage().contains("lost"), later.getMessage());
    assertThrows(ProcessorStateException.class, () -> store.commit(Map.of(changelog, 1999L)));
    assertThrows(ProcessorStateException.class, () -> store.get(probe));
    assertNull(store.committedOffset(changelog), "no offset past the lost records was committed");
    assertThrows(ProcessorStateException.class, store::close); // dirty: Kafka restores the task again
    restore = initCapturingRestore(store, ctx);
    assertNull(store.committedOffset(changelog));
    model.clear();
    restoreRecords(restore, 7, 0, 2000, r, model);
    store.commit(Map.of(changelog, 1999L));
    store.commit(Map.of(changelog, 1999L)); // the restore is over: everything written
    assertEquals(1999L, store.committedOffset(changelog));
    assertEquals(render(model), inP2kv(7));
    store.close();
  }

  /**
   * Kafka may open the same store object again (a task revived after it was closed dirty), after
   * wiping its directory: nothing of the store's last life may leak into the new one, neither the
   * offsets of restored records it wrote nor its query position.
   */
  @Test
  void shouldStartAfreshWhenTheSameStoreIsOpenedOnAWipedDirectory() throws Exception {
    Random r = new Random(seed());
    TopicPartition changelog = new TopicPartition("app-kv-changelog", 8);
    MockProcessorContext<Object, Object> ctx = taskContext(props("app"), 8);
    P2kvKeyValueStore store = new P2kvKeyValueStore("kv");
    var restore = initCapturingRestore(store, ctx);
    restoreRecords(restore, 8, 0, 1000, r, new TreeMap<>());
    ctx.setRecordMetadata("in", 8, 5L);
    store.put(Bytes.wrap(new byte[] {1}), new byte[] {1}); // writes the restored records first
    store.close(); // without a commit
    Files.delete(ctx.getStateStoreContext().stateDir().toPath().resolve("p2kv-kv")); // Kafka wipes the task

    NavigableMap<Bytes, byte[]> model = new TreeMap<>();
    restore = initCapturingRestore(store, ctx);
    assertEquals(Position.emptyPosition(), store.getPosition(), "the position of the last life");
    restoreRecords(restore, 8, 0, 100, r, model);
    store.commit(Map.of(changelog, 99L)); // during the restore: records only what is in p2kv
    assertNull(store.committedOffset(changelog), "an offset of the last life's records");
    store.commit(Map.of(changelog, 99L));
    assertEquals(99L, store.committedOffset(changelog));
    assertEquals(render(model), inP2kv(8));
    store.close();
  }

  /** The files restored records of store "kv" wait in. */
  private static List<String> restoreFiles(java.nio.file.Path taskDir) throws java.io.IOException {
    try (java.util.stream.Stream<java.nio.file.Path> files = Files.list(taskDir)) {
      return files.map(f -> f.getFileName().toString()).filter(n -> n.startsWith("p2kv-kv~restore-")).sorted().toList();
    }
  }

  private static long flushedBytes(io.p2kv.P2kv p2kv) {
    return stat(p2kv, io.p2kv.ShardStats::flushWriteBytes);
  }

  /** Task {@code partition}'s context in application "app" under exactly-once. */
  private MockProcessorContext<Object, Object> exactlyOnceContext(int partition) throws java.io.IOException {
    return exactlyOnceContext(partition, false);
  }

  private MockProcessorContext<Object, Object> exactlyOnceContext(int partition, boolean transactional) throws java.io.IOException {
    Properties eos = props("app");
    eos.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    if (transactional) {
      eos.put(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, "true");
    }
    return taskContext(eos, partition);
  }

  @Test
  void shouldDropACrashedPartitionUnderExactlyOnceAndKeepItUnderAtLeastOnce() throws Exception {
    TopicPartition changelog = new TopicPartition("app-kv-changelog", 1);
    MockProcessorContext<Object, Object> ctx = exactlyOnceContext(1);
    P2kvKeyValueStore crashed = open(ctx);
    crashed.put(Bytes.wrap(new byte[] {1}), new byte[] {10});
    crashed.commit(Map.of(changelog, 7L)); // committed: data and offsets
    crashed.put(Bytes.wrap(new byte[] {2}), new byte[] {20}); // never committed, never closed: the process died
    crashed.flush(); // as Kafka does before each commit: the write is in p2kv, the partition still open

    // Under exactly-once the partition may hold a transaction that never committed: it is dropped,
    // offsets included, so Kafka restores it from the changelog's start; the store is usable.
    P2kvKeyValueStore next = open(ctx);
    assertNull(next.get(Bytes.wrap(new byte[] {1})), "committed data dropped with the rest");
    assertNull(next.get(Bytes.wrap(new byte[] {2})), "uncommitted data dropped");
    assertNull(next.committedOffset(changelog), "no offset: the restore starts at the changelog's start");
    assertEquals(0, next.approximateNumEntries());
    assertTrue(Files.exists(tmp.resolve("state/app/0_1/p2kv-kv")), "the marker is written again");
    next.put(Bytes.wrap(new byte[] {3}), new byte[] {30});
    next.commit(Map.of(changelog, 3L));
    next.close();
    // Closed cleanly, it is kept.
    P2kvKeyValueStore reopened = open(ctx);
    assertArrayEquals(new byte[] {30}, reopened.get(Bytes.wrap(new byte[] {3})));
    assertEquals(3L, reopened.committedOffset(changelog));
    reopened.close();

    // At-least-once keeps a crashed partition's writes: a restore from the committed offset replays the rest.
    MockProcessorContext<Object, Object> alo = taskContext(props("app"), 2);
    P2kvKeyValueStore crashedAlo = open(alo);
    crashedAlo.put(Bytes.wrap(new byte[] {1}), new byte[] {11});
    crashedAlo.flush();
    P2kvKeyValueStore atLeastOnce = open(alo);
    assertArrayEquals(new byte[] {11}, atLeastOnce.get(Bytes.wrap(new byte[] {1})));
    atLeastOnce.close();
    crashedAlo.close();
    crashed.close();
  }

  /**
   * A dirty close (a task error: Kafka closes the store without committing it first) under
   * exactly-once: the writes since the last commit may belong to a transaction that aborts, and
   * Kafka 4.4 with enable.transactional.statestores does not wipe the task. The partition stays
   * marked open, so the next open drops it; a close after a commit keeps it.
   */
  @Test
  void shouldDropAPartitionClosedWithUncommittedWritesUnderExactlyOnce() throws Exception {
    TopicPartition changelog = new TopicPartition("app-kv-changelog", 3);
    MockProcessorContext<Object, Object> ctx = exactlyOnceContext(3);
    P2kvKeyValueStore clean = open(ctx);
    clean.put(Bytes.wrap(new byte[] {1}), new byte[] {10});
    clean.commit(Map.of(changelog, 5L));
    clean.close(); // clean: committed, then closed
    P2kvKeyValueStore dirty = open(ctx);
    assertArrayEquals(new byte[] {10}, dirty.get(Bytes.wrap(new byte[] {1})), "a clean close keeps the partition");
    assertEquals(5L, dirty.committedOffset(changelog));
    dirty.put(Bytes.wrap(new byte[] {2}), new byte[] {20});
    dirty.close(); // dirty: written, not committed
    P2kvKeyValueStore next = open(ctx);
    assertNull(next.get(Bytes.wrap(new byte[] {1})), "dropped after a dirty close");
    assertNull(next.get(Bytes.wrap(new byte[] {2})), "the uncommitted write too");
    assertNull(next.committedOffset(changelog), "restored from the changelog's start");
    next.close(); // nothing written since it opened: a clean close
    P2kvKeyValueStore again = open(ctx);
    assertNull(again.committedOffset(changelog));
    again.close();
  }

  /** Every read of {@code store} against {@code model}: gets, scans both ways, prefixes, the count. */
  private static void assertReads(ReadOnlyKeyValueStore<Bytes, byte[]> store, NavigableMap<Bytes, byte[]> model, Random r, String where) {
    assertEquals(render(model), drain(store.all()), where + " all");
    assertEquals(render(model.descendingMap()), drain(store.reverseAll()), where + " reverseAll");
    assertEquals(model.size(), store.approximateNumEntries(), where + " count");
    for (int i = 0; i < 20; i++) {
      Bytes k = randomKey(r);
      Bytes k2 = randomKey(r);
      Bytes lo = k.compareTo(k2) <= 0 ? k : k2;
      Bytes hi = k.compareTo(k2) <= 0 ? k2 : k;
      assertArrayEquals(model.get(k), store.get(k), where + " get " + k);
      assertEquals(render(model.subMap(lo, true, hi, true)), drain(store.range(lo, hi)), where + " range");
      assertEquals(render(model.subMap(lo, true, hi, true).descendingMap()), drain(store.reverseRange(lo, hi)), where + " reverseRange");
      NavigableMap<Bytes, byte[]> prefixed = new TreeMap<>();
      model.forEach((key, val) -> {
        if (key.get().length >= k.get().length && Arrays.equals(key.get(), 0, k.get().length, k.get(), 0, k.get().length)) {
          prefixed.put(key, val);
        }
      });
      assertEquals(render(prefixed), drain(store.prefixScan(k, Serdes.Bytes().serializer())), where + " prefixScan " + k);
    }
  }

  /** Task {@code partition}'s context in application "app" under exactly-once, with Kafka's enable.transactional.statestores. */
  private MockProcessorContext<Object, Object> transactionalContext(int partition) throws java.io.IOException {
    return exactlyOnceContext(partition, true);
  }

  /** What p2kv itself holds of partition {@code partition} of store "kv", rendered. */
  private List<String> inP2kv(int partition) {
    StoreKeys keys = new StoreKeys("kv", partition);
    List<String> out = new ArrayList<>();
    try (io.p2kv.KvIterator it = SharedStore.find(tmp.resolve("state/app/p2kv")).store().iterator(keys.dataStart(), keys.dataEnd())) {
      it.forEachRemaining(kv -> out.add(Bytes.wrap(keys.userKey(kv.key())) + "=" + Arrays.toString(kv.value())));
    }
    return out;
  }

  /**
   * A transactional store counts the bytes of its uncommitted writes once per key (Kafka commits
   * early past a limit on them): overwriting a key replaces its bytes, deleting it drops its value's.
   */
  @Test
  void shouldCountEachKeysLastUncommittedWriteOnce() throws Exception {
    P2kvKeyValueStore store = open(transactionalContext(5));
    Bytes key = Bytes.wrap(new byte[] {1, 2, 3});
    byte[] value = new byte[100];
    store.put(key, value);
    long once = store.approximateNumUncommittedBytes();
    assertTrue(once >= value.length, "the write's value is counted: " + once);
    for (int i = 0; i < 1000; i++) {
      store.put(key, value);
    }
    assertEquals(once, store.approximateNumUncommittedBytes(), "1,001 writes of one key hold one write's bytes");
    store.delete(key);
    assertEquals(once - value.length, store.approximateNumUncommittedBytes(), "a delete holds the key only");
    store.put(Bytes.wrap(new byte[] {4, 5, 6}), value);
    assertEquals(2 * once - value.length, store.approximateNumUncommittedBytes(), "a second key adds its own");
    store.commit(Map.of(new TopicPartition("app-kv-changelog", 5), 1L));
    assertEquals(0, store.approximateNumUncommittedBytes());
    store.close();
  }

  /**
   * A transactional store (KIP-892) against two models: what the task has written (its own reads
   * see that, merged over p2kv in every scan) and what it has committed (p2kv holds exactly that,
   * and so does the read-committed view, from the task's thread and from another). Random writes,
   * commits, crashes (a new store opened over one never closed) and dirty closes; after each crash
   * or dirty close under exactly-once, the partition keeps its last commit, offsets included,
   * rather than being dropped.
   */
  @Test
  void shouldKeepUncommittedWritesOutOfP2kvInATransactionalStore() throws Exception {
    Random r = new Random(seed());
    TopicPartition changelog = new TopicPartition("app-kv-changelog", 4);
    MockProcessorContext<Object, Object> ctx = transactionalContext(4);
    List<P2kvKeyValueStore> crashed = new ArrayList<>();
    P2kvKeyValueStore store = open(ctx);
    NavigableMap<Bytes, byte[]> written = new TreeMap<>();
    NavigableMap<Bytes, byte[]> committed = new TreeMap<>();
    java.util.concurrent.ExecutorService reader = java.util.concurrent.Executors.newSingleThreadExecutor();
    long offset = 0;
    int crashes = 0;
    int dirtyCloses = 0;
    try {
      for (int i = 0; i < 3000; i++) {
        String where = "op " + i;
        step(store, written, r, where);
        switch (r.nextInt(60)) {
          case 0, 1, 2, 3 -> {
            store.commit(Map.of(changelog, ++offset));
            committed = new TreeMap<>(written);
            assertEquals(0, store.approximateNumUncommittedBytes(), where + ": nothing uncommitted after a commit");
          }
          case 4 -> {
            crashed.add(store); // the process died: no commit, no close
            store = open(ctx);
            written = new TreeMap<>(committed);
            crashes++;
          }
          case 5 -> {
            store.close(); // a task error: Kafka closes the store without committing it
            store = open(ctx);
            written = new TreeMap<>(committed);
            dirtyCloses++;
          }
          case 6, 7 -> {
            ReadOnlyKeyValueStore<Bytes, byte[]> view = store.readOnly(org.apache.kafka.common.IsolationLevel.READ_COMMITTED);
            assertReads(view, committed, r, where + " read-committed");
            NavigableMap<Bytes, byte[]> c = committed;
            long s = r.nextLong();
            reader.submit(() -> {
              assertReads(view, c, new Random(s), where + " read-committed, query thread");
              return null;
            }).get();
            assertReads(store.readOnly(org.apache.kafka.common.IsolationLevel.READ_UNCOMMITTED), written, r, where + " read-uncommitted");
          }
          default -> { }
        }
        assertEquals(render(committed), inP2kv(4), where + ": p2kv holds the last commit");
        assertEquals(offset == 0 ? null : offset, store.committedOffset(changelog), where + " offset");
      }
      assertTrue(crashes > 10 && dirtyCloses > 10, "crashes " + crashes + ", dirty closes " + dirtyCloses);
      // More uncommitted writes than a store without transactions buffers: still none in p2kv.
      for (int i = 0; i < 3 * P2kvKeyValueStore.WRITE_BUFFER_RECORDS; i++) {
        Bytes k = Bytes.wrap(java.nio.ByteBuffer.allocate(5).put((byte) 0x42).putInt(i).array());
        store.put(k, new byte[] {(byte) i});
        written.put(k, new byte[] {(byte) i});
      }
      assertTrue(store.approximateNumUncommittedBytes() >= 3 * P2kvKeyValueStore.WRITE_BUFFER_RECORDS * 6L,
          "uncommitted bytes: " + store.approximateNumUncommittedBytes());
      assertEquals(render(committed), inP2kv(4), "p2kv holds the last commit after many uncommitted writes");
      assertReads(store, written, r, "after many uncommitted writes");
      store.commit(Map.of(changelog, ++offset));
      assertEquals(render(written), inP2kv(4), "p2kv holds the commit");
    } finally {
      reader.shutdownNow();
      store.close();
      for (P2kvKeyValueStore c : crashed) {
        c.close();
      }
    }
  }

  /**
   * IQv2 on a transactional store: a read-committed query sees the last commit and its position, a
   * read-uncommitted one the task's writes since; a reopened store has the committed position.
   */
  @Test
  void shouldAnswerQueriesAtTheirIsolationLevelInATransactionalStore() throws Exception {
    TopicPartition changelog = new TopicPartition("app-kv-changelog", 5);
    MockProcessorContext<Object, Object> ctx = transactionalContext(5);
    P2kvKeyValueStore store = open(ctx);
    Bytes k = Bytes.wrap(new byte[] {1});
    ctx.setRecordMetadata("in", 5, 7L);
    store.put(k, new byte[] {10});
    store.commit(Map.of(changelog, 1L));
    ctx.setRecordMetadata("in", 5, 8L);
    store.put(k, new byte[] {11});
    Position atCommit = Position.emptyPosition().withComponent("in", 5, 7L);
    Position now = Position.emptyPosition().withComponent("in", 5, 8L);
    assertEquals(now, store.getPosition());

    var query = org.apache.kafka.streams.query.KeyQuery.<Bytes, byte[]>withKey(k);
    var unbounded = org.apache.kafka.streams.query.PositionBound.unbounded();
    var committedResult = store.query(query, unbounded, new org.apache.kafka.streams.query.QueryConfig(false, org.apache.kafka.common.IsolationLevel.READ_COMMITTED));
    assertArrayEquals(new byte[] {10}, committedResult.getResult());
    assertEquals(atCommit, committedResult.getPosition());
    var uncommittedResult = store.query(query, unbounded, new org.apache.kafka.streams.query.QueryConfig(false, org.apache.kafka.common.IsolationLevel.READ_UNCOMMITTED));
    assertArrayEquals(new byte[] {11}, uncommittedResult.getResult());
    assertEquals(now, uncommittedResult.getPosition());
    var rangeResult = store.query(org.apache.kafka.streams.query.RangeQuery.<Bytes, byte[]>withNoBounds(), unbounded,
        new org.apache.kafka.streams.query.QueryConfig(false, org.apache.kafka.common.IsolationLevel.READ_COMMITTED));
    assertEquals(List.of(k + "=" + Arrays.toString(new byte[] {10})), drain(rangeResult.getResult()));

    store.close(); // dirty: the write at offset 8 and its position go
    store.init(ctx.getStateStoreContext(), store); // Kafka may open the same store object again
    assertEquals(atCommit, store.getPosition());
    assertArrayEquals(new byte[] {10}, store.get(k));
    store.close();
    P2kvKeyValueStore reopened = open(ctx);
    assertEquals(atCommit, reopened.getPosition());
    assertArrayEquals(new byte[] {10}, reopened.get(k));
    reopened.close();
  }

  /**
   * A store that ran without transactions under exactly-once and died leaves its partition open:
   * opened as a transactional store it is still dropped, since it may hold uncommitted writes.
   */
  @Test
  void shouldDropACrashedNonTransactionalPartitionWhenReopenedAsTransactional() throws Exception {
    TopicPartition changelog = new TopicPartition("app-kv-changelog", 6);
    P2kvKeyValueStore crashed = open(exactlyOnceContext(6));
    crashed.put(Bytes.wrap(new byte[] {1}), new byte[] {10});
    crashed.commit(Map.of(changelog, 3L));
    crashed.put(Bytes.wrap(new byte[] {2}), new byte[] {20});
    crashed.flush(); // in p2kv, never committed
    P2kvKeyValueStore next = open(transactionalContext(6));
    assertNull(next.get(Bytes.wrap(new byte[] {2})), "uncommitted data dropped");
    assertNull(next.committedOffset(changelog), "restored from the changelog's start");
    next.close();
    crashed.close();
  }

  @Test
  void shouldKeepTimestampsOfDslAggregations() {
    StreamsBuilder b = new StreamsBuilder();
    b.stream("in", Consumed.with(Serdes.String(), Serdes.String()))
        .groupByKey()
        .count(Materialized.as(P2kvStores.timestampedKeyValueStore("counts")));
    try (TopologyTestDriver d = new TopologyTestDriver(b.build(), props("ts"))) {
      TestInputTopic<String, String> in = d.createInputTopic("in", Serdes.String().serializer(), Serdes.String().serializer());
      in.pipeInput("a", "x", 1000L);
      in.pipeInput("a", "y", 2000L);
      ValueAndTimestamp<Long> a = d.<String, Long>getTimestampedKeyValueStore("counts").get("a");
      assertEquals(ValueAndTimestamp.make(2L, 2000L), a);
    }
  }

  @ParameterizedTest(name = "format={0}")
  @ValueSource(strings = {StreamsConfig.DSL_STORE_FORMAT_DEFAULT, StreamsConfig.DSL_STORE_FORMAT_HEADERS})
  void shouldServeEveryDslKeyValueStoreThroughTheDslSupplier(String format) {
    Properties p = props("dsl");
    p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, P2kvDslStoreSuppliers.class);
    p.put(StreamsConfig.DSL_STORE_FORMAT_CONFIG, format);
    StreamsBuilder b = new StreamsBuilder();
    b.stream("in", Consumed.with(Serdes.String(), Serdes.String())).groupByKey().count(Materialized.as("counts"));
    try (TopologyTestDriver d = new TopologyTestDriver(b.build(), p)) {
      TestInputTopic<String, String> in = d.createInputTopic("in", Serdes.String().serializer(), Serdes.String().serializer());
      in.pipeInput("a", "x");
      in.pipeInput("b", "x");
      in.pipeInput("a", "y");
      assertEquals(2L, d.<String, Long>getKeyValueStore("counts").get("a"));
      assertEquals(1L, d.<String, Long>getKeyValueStore("counts").get("b"));
    }
    assertEquals(true, Files.isDirectory(tmp.resolve("state/dsl/p2kv")), "the counts live in the shared p2kv store");
  }

}
