package io.p2kv.kafka;

import io.p2kv.P2kv;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.config.ConfigException;

/**
 * Immutable: the shared store's options, read from the Streams configuration (every key is
 * optional). The first store of an instance to open the shared store decides them.
 *
 * <ul>
 *   <li>{@value P2kvStores#SHARDS_CONFIG}: shards of the shared store (default: p2kv's, 1 shard up to 3
 *       cores)
 *   <li>{@value P2kvStores#MEMORY_BUDGET_BYTES_CONFIG}: its memory budget for block cache and
 *       memtables (default 256 MiB for the whole instance; Kafka's default RocksDB store takes up
 *       to about 100 MiB per store and task)
 * </ul>
 *
 * A value p2kv refuses, a value that is not a whole number, or an unknown key starting with
 * {@code p2kv.} (a misspelt setting would otherwise be silently ignored) is a {@link
 * ConfigException} naming the key and the value.
 *
 * @param shards the shard count, or 0 when the configuration does not set it
 * @param memoryBudgetBytes the memory budget
 */
record P2kvStoreConfig(int shards, long memoryBudgetBytes) {
  static final String SHARDS = P2kvStores.SHARDS_CONFIG;
  static final String MEMORY_BUDGET_BYTES = P2kvStores.MEMORY_BUDGET_BYTES_CONFIG;
  static final long DEFAULT_MEMORY_BUDGET_BYTES = 256L << 20;
  private static final Set<String> KEYS = Set.of(SHARDS, MEMORY_BUDGET_BYTES);

  /** Reads and validates the p2kv keys of a Streams configuration. */
  static P2kvStoreConfig from(Map<String, ?> appConfigs) {
    Set<String> unknown = new TreeSet<>();
    for (String key : appConfigs.keySet()) {
      if (key.startsWith("p2kv.") && !KEYS.contains(key)) {
        unknown.add(key);
      }
    }
    if (!unknown.isEmpty()) {
      throw new ConfigException("unknown p2kv settings " + unknown + "; the p2kv settings are " + new TreeSet<>(KEYS));
    }
    long shards = number(appConfigs, SHARDS, 0);
    if (appConfigs.get(SHARDS) != null && (shards < 1 || shards > Integer.MAX_VALUE)) {
      throw new ConfigException(SHARDS, appConfigs.get(SHARDS), "must be at least 1 (leave it out for p2kv's default)");
    }
    P2kvStoreConfig c = new P2kvStoreConfig((int) shards, number(appConfigs, MEMORY_BUDGET_BYTES, DEFAULT_MEMORY_BUDGET_BYTES));
    c.builder(); // p2kv's own checks, reported against the Streams key
    return c;
  }

  /** Share of a memtable's size given to its bloom filter of whole keys (see {@link #tune}). */
  static final double MEMTABLE_BLOOM_RATIO = 0.05;

  /**
   * A bloom filter of whole keys in each memtable: every task's point read before its update
   * (an aggregation's get, then put) searches the shared store's memtables, which hold every
   * task's recent writes, and for a key a memtable lacks the filter answers without searching its
   * skip list. Kafka's RocksDB stores search 32 small memtables instead of a shared large one.
   * Measured in docs/benchmarks/KAFKA-STREAMS.md ("Where a restore spends its time"). p2kv's
   * shards carry such a filter by default (2 % of the memtable); this hook raises it to the 5 %
   * the Kafka Streams measurements were made with (2 % measured the same: stop 48).
   *
   * <p>And LZ4 at the LSM-tree's bottom level too, instead of the core's ZSTD: a state store is
   * rebuilt from its changelog rather than kept for its bytes, and Kafka's own RocksDB stores
   * compress nothing. With a state of 12 M keys, where the shared store compacts into its bottom
   * level while the aggregation runs, RocksDB's background threads spent a median 0.73 us per
   * record with ZSTD and 0.65 with LZ4 (4 rounds each; Kafka's stores 0.25; KAFKA-STREAMS.md, stop
   * 48).
   *
   * <p>And level 0 compacts at {@link #LEVEL0_COMPACTION_TRIGGER} files instead of RocksDB's 4.
   */
  static void tune(int shard, org.rocksdb.Options options) {
    options.setMemtablePrefixBloomSizeRatio(MEMTABLE_BLOOM_RATIO).setMemtableWholeKeyFiltering(true);
    options.setBottommostCompressionType(org.rocksdb.CompressionType.LZ4_COMPRESSION);
    options.setLevel0FileNumCompactionTrigger(LEVEL0_COMPACTION_TRIGGER);
  }

  /**
   * Level-0 files that start a compaction into the level below. An aggregation's keys are spread
   * over the whole key space, so every level-0 file overlaps all of the level it compacts into, and
   * each such compaction rewrites that whole level: starting one at 8 files instead of 4 halves
   * how often it is rewritten, at the cost of up to 8 files' filters to probe for a get that
   * misses the memtables. The store alone (StoreOpsMeasure, 32 tasks, 12 M updates over 12 M
   * keys, 3 alternating rounds, KAFKA-STREAMS.md stop 54): 1.1-3.2 % more updates per second,
   * 5.8-8.0 % more in the second half, where the state and its compactions are largest.
   */
  static final int LEVEL0_COMPACTION_TRIGGER = 8;

  private static long number(Map<String, ?> configs, String key, long dflt) {
    Object v = configs.get(key);
    if (v == null) {
      return dflt;
    }
    try {
      return v instanceof Number n ? n.longValue() : Long.parseLong(v.toString().trim());
    } catch (NumberFormatException e) {
      throw new ConfigException(key, v, "must be a whole number");
    }
  }

  /** A builder with these options; a value p2kv refuses is a {@link ConfigException} naming its key. */
  P2kv.Builder builder() {
    P2kv.Builder b = P2kv.builder();
    try {
      b.memoryBudgetBytes(memoryBudgetBytes);
    } catch (IllegalArgumentException e) {
      throw new ConfigException(MEMORY_BUDGET_BYTES, memoryBudgetBytes, e.getMessage());
    }
    b.rocksDbConfigurer(P2kvStoreConfig::tune);
    if (shards > 0) {
      try {
        b.shards(shards);
      } catch (IllegalArgumentException e) {
        throw new ConfigException(SHARDS, shards, e.getMessage());
      }
    }
    return b;
  }
}
