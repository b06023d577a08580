package io.p2kv.kafka;

import io.p2kv.P2kv;
import java.util.Map;

/**
 * Immutable: the shared store's options, read from the Streams configuration (every key is
 * optional). The first store of an instance to open the shared store decides them.
 *
 * <ul>
 *   <li>{@value #SHARDS}: shards of the shared store (default: p2kv's, one per two cores)
 *   <li>{@value #MEMORY_BUDGET_BYTES}: its memory budget for block cache and memtables (default
 *       256 MiB for the whole instance; Kafka's default RocksDB store takes up to about 100 MiB per
 *       store and task)
 * </ul>
 */
record P2kvStoreConfig(int shards, long memoryBudgetBytes) {
  /** Streams configuration key: shards of the instance's shared p2kv store. */
  static final String SHARDS = "p2kv.shards";

  /** Streams configuration key: memory budget of the instance's shared p2kv store, in bytes. */
  static final String MEMORY_BUDGET_BYTES = "p2kv.memory.budget.bytes";

  static P2kvStoreConfig from(Map<String, Object> appConfigs) {
    return new P2kvStoreConfig(
        (int) number(appConfigs, SHARDS, 0), number(appConfigs, MEMORY_BUDGET_BYTES, 256L << 20));
  }

  private static long number(Map<String, Object> configs, String key, long dflt) {
    Object v = configs.get(key);
    if (v == null) {
      return dflt;
    }
    try {
      return v instanceof Number n ? n.longValue() : Long.parseLong(v.toString().trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(key + " must be a whole number: " + v, e);
    }
  }

  P2kv.Builder builder() {
    P2kv.Builder b = P2kv.builder().memoryBudgetBytes(memoryBudgetBytes);
    return shards > 0 ? b.shards(shards) : b;
  }
}
