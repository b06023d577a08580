package io.p2kv.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.KGroupedStream;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.SessionWindows;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.RocksDBConfigSetter;
import org.apache.kafka.streams.state.Stores;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;

/**
 * Kafka Streams 4.4.0 asks for rocksdbjni 10.1.3; one JVM has one rocksdbjni, and with p2kv it is
 * 11.8.1. This proves what works on it: Kafka's own RocksDB key-value, window and session stores
 * beside p2kv stores in one topology, and what does not: a {@link RocksDBConfigSetter} that calls
 * one of the four option methods rocksdbjni removed after 10.1 (Kafka's options adapter still
 * calls them).
 */
class RocksDbCompatibilityTest {
  @TempDir Path tmp;

  private Properties props() {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, "compat");
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    p.put(StreamsConfig.STATE_DIR_CONFIG, tmp.toString());
    p.put(P2kvStores.MEMORY_BUDGET_BYTES_CONFIG, 32L << 20);
    return p;
  }

  private static StreamsBuilder topology() {
    StreamsBuilder b = new StreamsBuilder();
    KGroupedStream<String, String> g =
        b.stream("in", Consumed.with(Serdes.String(), Serdes.String())).groupByKey();
    g.count(Materialized.as(P2kvStores.timestampedKeyValueStore("p2kv-counts")));
    g.count(Materialized.as(Stores.persistentTimestampedKeyValueStore("rocksdb-counts")));
    g.windowedBy(TimeWindows.ofSizeWithNoGrace(Duration.ofSeconds(10))).count(Materialized.as("window-counts"));
    g.windowedBy(SessionWindows.ofInactivityGapWithNoGrace(Duration.ofSeconds(5))).count(Materialized.as("session-counts"));
    return b;
  }

  @Test
  void shouldRunKafkasRocksDbStoresBesideP2kvOnP2kvsRocksDb() {
    RocksDB.loadLibrary();
    assertEquals("11.8.1", RocksDB.rocksdbVersion().toString(), "the rocksdbjni on the class path");
    try (TopologyTestDriver d = new TopologyTestDriver(topology().build(), props())) {
      TestInputTopic<String, String> in = d.createInputTopic("in", Serdes.String().serializer(), Serdes.String().serializer());
      for (long t : new long[] {1_000, 2_000, 3_000, 21_000}) {
        in.pipeInput("k", "v", t);
      }
      assertEquals(4L, d.<String, Long>getKeyValueStore("p2kv-counts").get("k"));
      assertEquals(4L, d.<String, Long>getKeyValueStore("rocksdb-counts").get("k"));
      assertEquals(3L, d.<String, Long>getWindowStore("window-counts").fetch("k", 0L));
      try (KeyValueIterator<Windowed<String>, Long> s = d.<String, Long>getSessionStore("session-counts").fetch("k")) {
        assertEquals(3L, s.next().value, "session 1-3 s");
        assertEquals(1L, s.next().value, "session at 21 s");
      }
    }
  }

  /**
   * Calls an option method that rocksdbjni 10.2 removed, as a setter compiled against 10.1.3 would:
   * the call lands in Kafka's options adapter (the {@code Options} it passes), whose method calls
   * the removed one. (Compiled against 11.8.1 the method does not exist, hence reflection.)
   */
  public static final class RemovedOptionSetter implements RocksDBConfigSetter {
    @Override
    public void setConfig(String storeName, Options options, Map<String, Object> configs) {
      try {
        options.getClass().getMethod("setMaxWriteBufferNumberToMaintain", int.class).invoke(options, 2);
      } catch (java.lang.reflect.InvocationTargetException e) {
        throw new IllegalStateException(e.getCause());
      } catch (ReflectiveOperationException e) {
        throw new AssertionError("Kafka's options adapter no longer has the method", e);
      }
    }

    @Override
    public void close(String storeName, Options options) {}
  }

  @Test
  void shouldFailKafkasRocksDbStoreWhoseConfigSetterCallsARemovedOption() {
    Properties p = props();
    p.put(StreamsConfig.ROCKSDB_CONFIG_SETTER_CLASS_CONFIG, RemovedOptionSetter.class);
    Throwable e = assertThrows(Throwable.class, () -> new TopologyTestDriver(topology().build(), p).close());
    Throwable root = e;
    while (root.getCause() != null) {
      root = root.getCause();
    }
    assertInstanceOf(NoSuchMethodError.class, root, "what a removed option costs: " + e);
  }
}
