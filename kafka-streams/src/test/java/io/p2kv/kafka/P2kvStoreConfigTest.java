package io.p2kv.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Properties;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The p2kv settings of a Streams configuration reach the instance's shared p2kv store, and a wrong
 * one fails with a message naming it (P2kvStreamsBrokerTest checks the same through a real
 * KafkaStreams against a broker).
 */
class P2kvStoreConfigTest {
  @TempDir Path tmp;

  private Properties props(String app) {
    Properties p = new Properties();
    p.put(StreamsConfig.APPLICATION_ID_CONFIG, app);
    p.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    p.put(StreamsConfig.STATE_DIR_CONFIG, tmp.resolve("state").toString());
    return p;
  }

  private static Topology countTopology(Materialized<String, Long, org.apache.kafka.streams.state.KeyValueStore<org.apache.kafka.common.utils.Bytes, byte[]>> m) {
    StreamsBuilder b = new StreamsBuilder();
    b.stream("in", Consumed.with(Serdes.String(), Serdes.String())).groupByKey().count(m);
    return b.build();
  }

  @Test
  void shouldOpenTheSharedStoreWithTheShardsAndBudgetOfTheDslConfiguration() {
    Properties p = props("dsl");
    p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, P2kvDslStoreSuppliers.class);
    p.put(P2kvStores.SHARDS_CONFIG, 3);
    p.put(P2kvStores.MEMORY_BUDGET_BYTES_CONFIG, 48L << 20);
    try (TopologyTestDriver d = new TopologyTestDriver(countTopology(Materialized.as("counts")), p)) {
      SharedStore shared = SharedStore.find(tmp.resolve("state/dsl/p2kv"));
      assertNotNull(shared, "the count store opened the shared p2kv store");
      assertEquals(3, shared.store().shardCount(), "p2kv.shards");
      assertEquals(48L << 20, shared.config().memoryBudgetBytes(), "p2kv.memory.budget.bytes");
    }
    assertNull(SharedStore.find(tmp.resolve("state/dsl/p2kv")), "closed with its last store");
  }

  /**
   * What each shard's RocksDB was opened with, as RocksDB recorded it in the shard's OPTIONS file:
   * the module's memtable filter, LZ4 at the bottom level and level 0's compaction trigger
   * (P2kvStoreConfig.tune), not the core's defaults (a 2 % filter, ZSTD, 4 files).
   */
  @Test
  void shouldOpenEveryShardWithTheModulesRocksDbSettings() throws Exception {
    Properties p = props("opts");
    p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, P2kvDslStoreSuppliers.class);
    p.put(P2kvStores.SHARDS_CONFIG, 2);
    try (TopologyTestDriver d = new TopologyTestDriver(countTopology(Materialized.as("counts")), p)) {
      assertNotNull(SharedStore.find(tmp.resolve("state/opts/p2kv")));
    }
    org.rocksdb.RocksDB.loadLibrary();
    for (String shard : new String[] {"shard-000", "shard-001"}) {
      java.util.List<org.rocksdb.ColumnFamilyDescriptor> cfs = new java.util.ArrayList<>();
      try (org.rocksdb.ConfigOptions config = new org.rocksdb.ConfigOptions();
          org.rocksdb.DBOptions db = new org.rocksdb.DBOptions()) {
        org.rocksdb.OptionsUtil.loadLatestOptions(config, tmp.resolve("state/opts/p2kv/" + shard).toString(), db, cfs);
        org.rocksdb.ColumnFamilyOptions data = cfs.get(0).getOptions();
        assertEquals("default", new String(cfs.get(0).getName(), java.nio.charset.StandardCharsets.UTF_8));
        assertEquals(org.rocksdb.CompressionType.LZ4_COMPRESSION, data.bottommostCompressionType(), shard);
        assertEquals(org.rocksdb.CompressionType.LZ4_COMPRESSION, data.compressionType(), shard);
        assertEquals(P2kvStoreConfig.MEMTABLE_BLOOM_RATIO, data.memtablePrefixBloomSizeRatio(), 1e-9, shard);
        assertTrue(data.memtableWholeKeyFiltering(), shard);
        assertEquals(P2kvStoreConfig.LEVEL0_COMPACTION_TRIGGER, data.level0FileNumCompactionTrigger(), shard);
        for (org.rocksdb.ColumnFamilyDescriptor cf : cfs) {
          cf.getOptions().close();
        }
      }
    }
  }

  @Test
  void shouldReadSettingsGivenAsStringsForASingleStore() {
    Properties p = props("single");
    p.put(P2kvStores.SHARDS_CONFIG, "2");
    p.put(P2kvStores.MEMORY_BUDGET_BYTES_CONFIG, " 33554432 ");
    try (TopologyTestDriver d = new TopologyTestDriver(
        countTopology(Materialized.as(P2kvStores.timestampedKeyValueStore("counts"))), p)) {
      SharedStore shared = SharedStore.find(tmp.resolve("state/single/p2kv"));
      assertNotNull(shared);
      assertEquals(2, shared.store().shardCount());
      assertEquals(32L << 20, shared.config().memoryBudgetBytes());
    }
  }

  @Test
  void shouldUseTheDefaultsWhenNothingIsSet() {
    try (TopologyTestDriver d = new TopologyTestDriver(
        countTopology(Materialized.as(P2kvStores.timestampedKeyValueStore("counts"))), props("defaults"))) {
      SharedStore shared = SharedStore.find(tmp.resolve("state/defaults/p2kv"));
      assertEquals(new P2kvStoreConfig(0, P2kvStoreConfig.DEFAULT_MEMORY_BUDGET_BYTES), shared.config());
      assertEquals(io.p2kv.internal.StoreConfig.defaultShards(), shared.store().shardCount());
    }
  }

  /** A wrong value fails when the application is created, naming the key, the value and the rule. */
  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "p2kv.shards | 0 | must be at least 1",
      "p2kv.shards | -2 | must be at least 1",
      "p2kv.shards | two | must be a whole number",
      "p2kv.shards | 5000 | shards must be between 1 and 1024",
      "p2kv.memory.budget.bytes | 1048576 | memoryBudgetBytes must be at least 16 MiB",
      "p2kv.memory.budget.bytes | 1.5 | must be a whole number",
      "p2kv.shard | 2 | unknown p2kv settings [p2kv.shard]",
  })
  void shouldRefuseAWrongSettingWhenTheApplicationIsCreated(String key, String value, String rule) {
    Properties p = props("wrong");
    p.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, P2kvDslStoreSuppliers.class);
    p.put(key, value);
    Topology t = countTopology(Materialized.as("counts"));
    ConfigException e = assertThrows(ConfigException.class, () -> new KafkaStreams(t, p).close());
    assertTrue(e.getMessage().contains(key) && e.getMessage().contains(value) && e.getMessage().contains(rule),
        "message names the key, the value and the rule: " + e.getMessage());
  }

  /** Without the DSL supplier, the first store to open refuses it, with the same message. */
  @Test
  void shouldRefuseAWrongSettingWhenASingleStoreOpens() {
    Properties p = props("wrong-single");
    p.put(P2kvStores.MEMORY_BUDGET_BYTES_CONFIG, "1024");
    Topology t = countTopology(Materialized.as(P2kvStores.timestampedKeyValueStore("counts")));
    Throwable e = assertThrows(Exception.class, () -> new TopologyTestDriver(t, p).close());
    while (!(e instanceof ConfigException) && e.getCause() != null) {
      e = e.getCause();
    }
    assertTrue(e instanceof ConfigException && e.getMessage().contains(P2kvStores.MEMORY_BUDGET_BYTES_CONFIG)
        && e.getMessage().contains("1024"), "a ConfigException naming the key: " + e);
    assertNull(SharedStore.find(tmp.resolve("state/wrong-single/p2kv")), "no store left open");
  }
}
