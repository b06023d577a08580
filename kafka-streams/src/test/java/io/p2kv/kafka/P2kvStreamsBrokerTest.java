package io.p2kv.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.LongDeserializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.query.KeyQuery;
import org.apache.kafka.streams.query.QueryResult;
import org.apache.kafka.streams.query.RangeQuery;
import org.apache.kafka.streams.query.StateQueryRequest;
import org.apache.kafka.streams.query.StateQueryResult;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.ValueAndTimestamp;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Against a real single-node KRaft broker (Kafka's KafkaClusterTestKit, in this JVM, on
 * localhost): {@link SumApp}, exactly once, with its store on p2kv. Every test produces amounts
 * to keys, keeps the model of the sums and waits (bounded) until the committed output shows exactly
 * the model: a sum above the model (a double count) fails at once.
 */
class P2kvStreamsBrokerTest {
  private static final int PARTITIONS = 4;
  private static final int KEYS = 40;
  private static final Duration DEADLINE = Duration.ofSeconds(120);

  private static KafkaClusterTestKit cluster;
  private static String bootstrap;
  private static KafkaProducer<String, Long> producer;
  private static int round;
  private int children;

  @TempDir Path tmp;
  private final Map<String, Long> model = new TreeMap<>();
  private Random random;
  private String in;
  private String out;

  @BeforeAll
  static void startBroker() throws Exception {
    cluster = TestBroker.start();
    bootstrap = cluster.bootstrapServers();
    // Not idempotent: on this test kit's single broker, idempotent producers were refused with
    // OUT_OF_ORDER_SEQUENCE_NUMBER for their first write to a new topic and retried for minutes.
    // One request in flight, so a retry cannot reorder; a duplicate from a retried write would fail
    // the tests ("counted twice"), never pass them.
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.ACKS_CONFIG, "all");
    p.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false);
    p.put(ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION, 1);
    p.put(ProducerConfig.LINGER_MS_CONFIG, 5);
    producer = new KafkaProducer<>(p, new StringSerializer(), new LongSerializer());
  }

  @AfterAll
  static void stopBroker() throws Exception {
    if (producer != null) {
      producer.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  @BeforeEach
  void topics() throws Exception {
    long seed = Long.getLong("p2kv.seed", System.nanoTime());
    System.out.println("P2kvStreamsBrokerTest seed: -Dp2kv.seed=" + seed);
    random = new Random(seed);
    // Each test has its own application (topics, group, transactional ids), so tests do not meet.
    round++;
    in = SumApp.IN + "-" + round;
    out = SumApp.OUT + "-" + round;
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrap))) {
      admin.createTopics(List.of(new NewTopic(in, PARTITIONS, (short) 1), new NewTopic(out, PARTITIONS, (short) 1)))
          .all().get();
    }
  }

  private Properties props(Path stateDir) {
    Properties p = SumApp.props(bootstrap, stateDir);
    p.put("application.id", SumApp.APP_ID + "-" + round);
    return p;
  }

  private KafkaStreams start(Path stateDir) throws InterruptedException {
    KafkaStreams s = new KafkaStreams(SumApp.topology(in, out), props(stateDir));
    CountDownLatch running = new CountDownLatch(1);
    s.setStateListener((now, before) -> {
      if (now == KafkaStreams.State.RUNNING) {
        running.countDown();
      }
    });
    s.start();
    assertTrue(running.await(DEADLINE.toSeconds(), TimeUnit.SECONDS), "application did not reach RUNNING");
    return s;
  }

  /** Produces {@code n} random amounts (acknowledged) and adds them to the model. */
  private void produce(int n) {
    for (int i = 0; i < n; i++) {
      String key = "key-" + random.nextInt(KEYS);
      long amount = 1 + random.nextInt(1000);
      producer.send(new ProducerRecord<>(in, key, amount));
      model.merge(key, amount, Long::sum);
    }
    producer.flush();
  }

  /**
   * Reads the committed output from the start until the latest sum of every key equals the model;
   * fails at once on a sum above the model, and after the deadline if it never gets there.
   */
  private void awaitOutputMatchesModel() {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    p.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
    p.put(ConsumerConfig.GROUP_ID_CONFIG, "checker-" + System.nanoTime());
    Map<String, Long> latest = new HashMap<>();
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    try (KafkaConsumer<String, Long> c = new KafkaConsumer<>(p, new StringDeserializer(), new LongDeserializer())) {
      c.subscribe(List.of(out));
      while (!latest.equals(model)) {
        if (System.nanoTime() > deadline) {
          fail("output never matched the model: " + diff(latest));
        }
        for (ConsumerRecord<String, Long> r : c.poll(Duration.ofMillis(200))) {
          latest.put(r.key(), r.value());
          long expected = model.getOrDefault(r.key(), 0L);
          if (r.value() > expected) {
            fail("sum of " + r.key() + " is " + r.value() + ", above the model's " + expected + " (counted twice)");
          }
        }
      }
    }
  }

  private String diff(Map<String, Long> latest) {
    StringBuilder b = new StringBuilder();
    model.forEach((k, v) -> {
      if (!v.equals(latest.get(k))) {
        b.append(k).append(": ").append(latest.get(k)).append(" != ").append(v).append("; ");
      }
    });
    return b.toString();
  }

  /** IQv2: a key query per key and one range query over all keys, against the model. */
  private void assertQueriesMatchModel(KafkaStreams streams) {
    for (Map.Entry<String, Long> e : model.entrySet()) {
      StateQueryResult<Object> r = streams.query(
          StateQueryRequest.inStore(SumApp.STORE).withQuery(KeyQuery.<String, Object>withKey(e.getKey())));
      QueryResult<Object> only = r.getOnlyPartitionResult();
      assertTrue(only != null && only.isSuccess(), "key query for " + e.getKey() + ": " + r);
      assertEquals(e.getValue(), unwrap(only.getResult()), "key query for " + e.getKey());
    }
    StateQueryResult<KeyValueIterator<String, Object>> range = streams.query(
        StateQueryRequest.inStore(SumApp.STORE).withQuery(RangeQuery.<String, Object>withNoBounds()));
    Map<String, Long> seen = new TreeMap<>();
    range.getPartitionResults().forEach((partition, result) -> {
      assertTrue(result.isSuccess(), "range query on partition " + partition + ": " + result);
      try (KeyValueIterator<String, Object> it = result.getResult()) {
        it.forEachRemaining(kv -> assertEquals(null, seen.put(kv.key, unwrap(kv.value)), "key twice: " + kv.key));
      }
    });
    assertEquals(model, seen, "range query");
  }

  private static Long unwrap(Object v) {
    return v instanceof ValueAndTimestamp<?> vt ? (Long) vt.value() : (Long) v;
  }

  @Test
  void shouldSumExactlyOnceAndAnswerQueriesLikeTheModel() throws Exception {
    try (KafkaStreams streams = start(tmp.resolve("a"))) {
      produce(5_000);
      awaitOutputMatchesModel();
      assertQueriesMatchModel(streams);
      // SumApp's p2kv settings reached the shared store through KafkaStreams' configuration
      SharedStore shared = SharedStore.find(tmp.resolve("a/" + SumApp.APP_ID + "-" + round + "/p2kv"));
      assertTrue(shared != null, "the application's shared p2kv store is open");
      assertEquals(2, shared.store().shardCount(), "p2kv.shards");
      assertEquals(64L << 20, shared.config().memoryBudgetBytes(), "p2kv.memory.budget.bytes");
    }
  }

  @Test
  void shouldTakeOverAndRestoreTheTasksOfAStoppedInstance() throws Exception {
    KafkaStreams a = start(tmp.resolve("a"));
    KafkaStreams b = start(tmp.resolve("b"));
    try {
      produce(3_000);
      awaitOutputMatchesModel();
      assertTrue(activeTasks(b) > 0, "b got no tasks to hand over");
      b.close(Duration.ofSeconds(60));
      produce(3_000);
      awaitOutputMatchesModel();
      assertEquals(PARTITIONS, activeTasks(a), "a runs every task once b is gone");
      assertQueriesMatchModel(a);
    } finally {
      b.close(Duration.ofSeconds(60));
      a.close(Duration.ofSeconds(60));
    }
  }

  private static int activeTasks(KafkaStreams s) {
    return s.metadataForLocalThreads().stream().mapToInt(t -> t.activeTasks().size()).sum();
  }

  @Test
  void shouldBeExactAfterSigkillWithTheStateDirectoryKept() throws Exception {
    sigkillAndRestart(false, false);
  }

  @Test
  void shouldBeExactAfterSigkillWithTheStateDirectoryWiped() throws Exception {
    sigkillAndRestart(true, false);
  }

  /**
   * Kafka 4.4's {@code enable.transactional.statestores} (KIP-892): under exactly-once Kafka then
   * commits every store at each commit and no longer wipes a task's directory after a crash,
   * trusting its stores to keep uncommitted writes off their disk. p2kv's store is then
   * transactional: its writes reach p2kv only at commits, so after the SIGKILL it keeps its
   * partitions (no drop, unlike without the setting) and the restore replays only what came after
   * the last commit; the sums must be exact.
   */
  @Test
  void shouldBeExactAfterSigkillWithTransactionalStateStoresOn() throws Exception {
    sigkillAndRestart(false, true);
  }

  /**
   * A task error under exactly-once with Kafka 4.4's {@code enable.transactional.statestores}: the
   * child throws once while processing, its stream thread is replaced, and Kafka closes the
   * thread's tasks dirty and runs them again without wiping them. Their transactional p2kv stores
   * drop the aborted transaction's writes at the close, which never reached p2kv, and keep the
   * partition. A store that wrote them at the close, as a store without transactions does, counts
   * the aborted amounts twice (checked: "sum of key-22 is 108247, above the model's 107670").
   */
  @Test
  void shouldBeExactAfterATaskErrorWithTransactionalStateStoresOn() throws Exception {
    Process child = startChild(tmp.resolve("child"), "transactional", "failonce");
    try {
      produce(4_000);
      producer.send(new ProducerRecord<>(in, "key-0", SumApp.POISON));
      model.merge("key-0", SumApp.POISON, Long::sum);
      produce(4_000);
      try {
        awaitOutputMatchesModel();
      } catch (AssertionError e) {
        throw new AssertionError(e.getMessage() + "\n" + childProblems(), e);
      }
      String log = Files.readString(tmp.resolve("child-1.log"));
      assertTrue(log.contains("injected failure"), "the child failed once");
      assertTrue(log.contains("uncommitted writes; dropped them (transactional)"), "a store was closed dirty");
      assertFalse(log.contains("was not closed (the process died)"), "no partition was dropped");
    } finally {
      child.destroyForcibly().waitFor();
    }
  }

  /**
   * A first child is fed and stopped cleanly (SIGTERM: its stores commit their offsets and close);
   * a second, on the same state, is killed with SIGKILL while it is fed; a third, on the state kept
   * or wiped, must end at exactly the model. With {@code transactional}, every child runs with
   * Kafka's {@code enable.transactional.statestores}. The stores of the second child, which
   * started after a clean stop, keep their data; those of the third, on the state kept, drop their
   * crashed partitions (their log says so), unless transactional: those hold only committed writes
   * and are kept. In this test the restore from the changelog alone would hide a missing drop: it
   * rewrites the keys the killed transaction touched.
   */
  private void sigkillAndRestart(boolean wipe, boolean transactional) throws Exception {
    Path state = tmp.resolve("child");
    String option = transactional ? "transactional" : "-";
    Process first = startChild(state, option);
    produce(3_000);
    awaitOutputMatchesModel();
    first.destroy();
    assertEquals(143, first.waitFor(), "the first child did not stop on SIGTERM"); // 128 + SIGTERM
    Process child = startChild(state, option);
    killWhileProcessing(child);
    assertTrue(Files.isDirectory(state.resolve(SumApp.APP_ID + "-" + round + "/p2kv")), "the child used p2kv");
    if (wipe) {
      deleteTree(state);
    }
    produce(2_000);
    Process again = startChild(state, option);
    try {
      awaitOutputMatchesModel();
    } catch (AssertionError e) {
      throw new AssertionError(e.getMessage() + "\n" + childProblems(), e);
    } finally {
      again.destroyForcibly().waitFor();
    }
    // A full restore reads at least the first child's 3,000 committed amounts again; a kept
    // transactional store, only what Kafka committed after the store's last commit.
    long restored = restoredRecords(3);
    if (transactional && !wipe) {
      assertTrue(restored < 3_000, "the transactional stores restored " + restored + " records after the SIGKILL");
    } else {
      assertTrue(restored >= 3_000, "a full restore read " + restored + " records");
    }
    String dropped = "was not closed (the process died)";
    assertFalse(Files.readString(tmp.resolve("child-2.log")).contains(dropped), "a clean stop drops nothing");
    assertEquals(!wipe && !transactional, Files.readString(tmp.resolve("child-3.log")).contains(dropped),
        wipe ? "a wiped state has nothing to drop"
            : transactional ? "transactional stores keep their partitions" : "the crashed partitions are dropped");
  }

  /** The records child {@code n}'s stores restored, from SumApp's restore listener. */
  private long restoredRecords(int n) throws java.io.IOException {
    return java.util.regex.Pattern.compile("restored (\\d+) records of")
        .matcher(Files.readString(tmp.resolve("child-" + n + ".log")))
        .results()
        .mapToLong(m -> Long.parseLong(m.group(1)))
        .sum();
  }

  /**
   * Feeds the child in chunks until it has committed output of its own, then 8,000 more amounts, and kills it
   * with SIGKILL (no commit, no close) while it is still being fed: unless transactional, its
   * store's write buffer has then gone to p2kv mid-transaction (the child commits every 2 s), so
   * p2kv holds writes of a transaction that never commits.
   */
  private void killWhileProcessing(Process child) throws InterruptedException {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    try (KafkaConsumer<String, Long> c = new KafkaConsumer<>(p, new StringDeserializer(), new LongDeserializer())) {
      List<TopicPartition> parts = new ArrayList<>();
      for (int i = 0; i < PARTITIONS; i++) {
        parts.add(new TopicPartition(out, i));
      }
      c.assign(parts);
      c.seekToEnd(parts); // past the output of earlier children
      parts.forEach(c::position);
      while (c.poll(Duration.ofMillis(10)).isEmpty()) {
        assertTrue(System.nanoTime() < deadline, "the child produced no output");
        produce(200);
      }
    }
    for (int i = 0; i < 40; i++) { // 2,000 per partition: more than a store's write buffer holds
      produce(200);
    }
    child.destroyForcibly().waitFor();
  }

  /**
   * Starts {@link SumApp} in a child JVM with SumApp's {@code options}, its output in {@code
   * child-N.log} under the test's directory.
   */
  private Process startChild(Path state, String... options) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    Path log = tmp.resolve("child-" + (++children) + ".log");
    List<String> command = new ArrayList<>(List.of(
        java, "-Xmx256m", "-cp", System.getProperty("java.class.path"), SumApp.class.getName(),
        bootstrap, state.toString(), in, out, SumApp.APP_ID + "-" + round));
    command.addAll(List.of(options));
    Process p = new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    long deadline = System.nanoTime() + DEADLINE.toNanos();
    while (!Files.readString(log).contains("RUNNING")) {
      assertTrue(p.isAlive(), "the child exited before running: " + Files.readString(log));
      if (System.nanoTime() >= deadline) {
        throw new AssertionError("child " + children + " did not reach RUNNING\n" + childProblems());
      }
      Thread.onSpinWait();
      p.waitFor(50, TimeUnit.MILLISECONDS); // polls the log; the child cannot signal otherwise
    }
    return p;
  }

  /** The child's log lines at WARN and above, for a failure message. */
  private String childProblems() throws java.io.IOException {
    StringBuilder b = new StringBuilder();
    for (int i = 1; i <= children; i++) {
      for (String l : Files.readAllLines(tmp.resolve("child-" + i + ".log"))) {
        if (l.contains("ERROR") || l.contains("WARN") || l.contains("Exception")) {
          b.append("child ").append(i).append(": ").append(l).append('\n');
        }
      }
    }
    return b.toString();
  }

  private static void deleteTree(Path dir) throws Exception {
    try (Stream<Path> s = Files.walk(dir)) {
      s.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
    }
    assertTrue(!Files.exists(dir), "state directory not wiped");
  }
}
