package io.p2kv.kafka;

import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.ForeachAction;
import org.apache.kafka.streams.kstream.Grouped;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.Produced;

/**
 * The tests' application: sums the amounts of topic {@value #IN} per key into the store {@value
 * #STORE} (a DSL key-value store, so on p2kv through {@link P2kvDslStoreSuppliers}), exactly once,
 * and writes each new sum to {@value #OUT}. {@link #main} runs it in a child JVM that the tests
 * kill with SIGKILL.
 */
final class SumApp {
  static final String IN = "amounts";
  static final String OUT = "sums";
  static final String STORE = "sums-store";
  static final String APP_ID = "p2kv-sum";
  /** An amount that makes the first task to process it throw, once per JVM (option {@code failonce}). */
  static final long POISON = 1_000_000;

  private SumApp() {}

  static Topology topology(String in, String out) {
    return topology(in, out, null);
  }

  /** The topology, with {@code beforeSum} (if not null) called on each amount before it is summed. */
  static Topology topology(String in, String out, ForeachAction<String, Long> beforeSum) {
    StreamsBuilder b = new StreamsBuilder();
    KStream<String, Long> amounts = b.stream(in, Consumed.with(Serdes.String(), Serdes.Long()));
    if (beforeSum != null) {
      amounts = amounts.peek(beforeSum);
    }
    amounts
        .groupByKey(Grouped.with(Serdes.String(), Serdes.Long()))
        .reduce(Long::sum, Materialized.as(STORE))
        .toStream()
        .to(out, Produced.with(Serdes.String(), Serdes.Long()));
    return b.build();
  }

  static Properties props(String bootstrap, Path stateDir) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, APP_ID);
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(StreamsConfig.STATE_DIR_CONFIG, stateDir.toString());
    p.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
    p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, P2kvDslStoreSuppliers.class);
    p.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 2);
    p.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 100);
    // No record cache: every record reaches the store between commits, so a crash always leaves
    // uncommitted writes for the store to keep off its disk (with the cache they reach it only
    // during the commit).
    p.put(StreamsConfig.STATESTORE_CACHE_MAX_BYTES_CONFIG, 0);
    p.put(StreamsConfig.consumerPrefix("max.poll.records"), 200);
    p.put(StreamsConfig.consumerPrefix("session.timeout.ms"), 6000);
    p.put(StreamsConfig.consumerPrefix("heartbeat.interval.ms"), 1000);
    p.put(P2kvStores.MEMORY_BUDGET_BYTES_CONFIG, 64L << 20);
    p.put(P2kvStores.SHARDS_CONFIG, 2); // more than this machine's default, so a test sees it arrive
    return p;
  }

  /**
   * args: bootstrap servers, state directory, input topic, output topic, application id, then
   * options: {@code transactional} for Kafka's {@code enable.transactional.statestores}; {@code
   * failonce} to throw in the first task that processes {@link #POISON}, once, with the stream
   * thread replaced (Kafka closes that thread's tasks dirty and runs them again). Prints RUNNING
   * once the application runs.
   */
  public static void main(String[] args) throws InterruptedException {
    Properties props = props(args[0], Path.of(args[1]));
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, args[4]);
    // Transactions longer than a store's write buffer (1,000 writes), so a SIGKILL leaves
    // uncommitted writes in p2kv, not only in the buffer that dies with the process.
    props.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 2000);
    java.util.List<String> options = java.util.Arrays.asList(args).subList(5, args.length);
    if (options.contains("transactional")) {
      props.put(StreamsConfig.TRANSACTIONAL_STATE_STORES_CONFIG, true);
    }
    ForeachAction<String, Long> beforeSum = null;
    if (options.contains("failonce")) {
      java.util.concurrent.atomic.AtomicBoolean failed = new java.util.concurrent.atomic.AtomicBoolean();
      beforeSum = (k, v) -> {
        if (v == POISON && failed.compareAndSet(false, true)) {
          throw new IllegalStateException("injected failure at amount " + v);
        }
      };
    }
    KafkaStreams streams = new KafkaStreams(topology(args[2], args[3], beforeSum), props);
    streams.setUncaughtExceptionHandler(
        e -> org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse.REPLACE_THREAD);
    CountDownLatch running = new CountDownLatch(1);
    streams.setStateListener((now, before) -> {
      if (now == KafkaStreams.State.RUNNING) {
        running.countDown();
      }
    });
    streams.setGlobalStateRestoreListener(new org.apache.kafka.streams.processor.StateRestoreListener() {
      @Override
      public void onRestoreStart(org.apache.kafka.common.TopicPartition partition, String store, long start, long end) {}

      @Override
      public void onBatchRestored(org.apache.kafka.common.TopicPartition partition, String store, long batchEnd, long n) {}

      @Override
      public void onRestoreEnd(org.apache.kafka.common.TopicPartition partition, String store, long total) {
        System.out.println("restored " + total + " records of " + partition); // read by P2kvStreamsBrokerTest
      }
    });
    // SIGTERM closes the application cleanly (the tests' clean stop); SIGKILL skips this.
    Runtime.getRuntime().addShutdownHook(new Thread(() -> streams.close(java.time.Duration.ofSeconds(60))));
    streams.start();
    running.await();
    System.out.println("RUNNING");
    System.out.flush();
    new CountDownLatch(1).await(); // until killed
  }
}
