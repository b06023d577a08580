package io.p2kv.kafka;

import java.util.Objects;
import java.util.function.Function;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.KeyValueStore;
import org.apache.kafka.common.utils.Bytes;

/**
 * Thread-safe: factories of p2kv key-value store suppliers, for {@code Stores.keyValueStoreBuilder}
 * and {@code Materialized.as}. To put every DSL key-value store on p2kv, configure {@link
 * P2kvDslStoreSuppliers} instead.
 *
 * <pre>{@code
 * builder.table("words", Materialized.<String, Long>as(P2kvStores.timestampedKeyValueStore("counts")));
 * }</pre>
 *
 * All p2kv stores of an application instance share one p2kv store in {@code
 * <state.dir>/<application.id>/p2kv}, configured by the Streams properties {@value #SHARDS_CONFIG}
 * and {@value #MEMORY_BUDGET_BYTES_CONFIG}. A wrong value, or an unknown key starting with {@code
 * p2kv.}, fails with a {@link org.apache.kafka.common.config.ConfigException} naming it: when the
 * application is created if {@link P2kvDslStoreSuppliers} is configured, else when the first
 * store opens.
 *
 * <p>Durability: on a shared store of one shard the stores write without p2kv's write-ahead log,
 * as Kafka's RocksDB stores do. After a crash they hold their writes, and the changelog offsets
 * that cover them, as of the store's last memtable flush, and Kafka restores the rest from the
 * changelog; a task's store closed cleanly flushes first. On more shards they write through the
 * log, since shards flush apart.
 */
public final class P2kvStores {
  /**
   * Streams configuration key: shards of the instance's shared p2kv store, at least 1 (default:
   * p2kv's, 1 shard up to 3 cores). One shard writes without the write-ahead log, more write
   * through it (see the class comment).
   */
  public static final String SHARDS_CONFIG = "p2kv.shards";

  /**
   * Streams configuration key: memory budget (block cache and memtables) of the instance's shared
   * p2kv store, in bytes, at least 16 MiB (default 256 MiB).
   */
  public static final String MEMORY_BUDGET_BYTES_CONFIG = "p2kv.memory.budget.bytes";

  private P2kvStores() {}

  /**
   * A supplier of plain key-value stores.
   *
   * @param name the store's name
   * @return the supplier
   */
  public static KeyValueBytesStoreSupplier keyValueStore(String name) {
    return new Supplier(name, P2kvKeyValueStore::new);
  }

  /**
   * A supplier of key-value stores that keep the DSL's timestamped values (what the DSL's tables
   * and aggregations use).
   *
   * @param name the store's name
   * @return the supplier
   */
  public static KeyValueBytesStoreSupplier timestampedKeyValueStore(String name) {
    return new Supplier(name, P2kvTimestampedKeyValueStore::new);
  }

  /**
   * A supplier of key-value stores that keep the DSL's values with headers and timestamps.
   *
   * @param name the store's name
   * @return the supplier
   */
  public static KeyValueBytesStoreSupplier timestampedKeyValueStoreWithHeaders(String name) {
    return new Supplier(name, P2kvHeadersKeyValueStore::new);
  }

  /** The names Kafka's DSL accepts ({@code Named}); a store's name is part of its files' names. */
  private static final java.util.regex.Pattern LEGAL_NAME = java.util.regex.Pattern.compile("[a-zA-Z0-9._-]{1,249}");

  private record Supplier(String name, Function<String, P2kvKeyValueStore> factory)
      implements KeyValueBytesStoreSupplier {
    Supplier {
      Objects.requireNonNull(name, "store name cannot be null");
      if (!LEGAL_NAME.matcher(name).matches()) {
        throw new IllegalArgumentException("store name \"" + name + "\" is illegal: it must be 1 to 249 of the"
            + " characters Kafka allows in names (ASCII letters, digits, '.', '_' and '-'); it names files in the"
            + " task's state directory");
      }
    }

    @Override
    public KeyValueStore<Bytes, byte[]> get() {
      return factory.apply(name);
    }

    @Override
    public String metricsScope() {
      return "p2kv";
    }
  }
}
