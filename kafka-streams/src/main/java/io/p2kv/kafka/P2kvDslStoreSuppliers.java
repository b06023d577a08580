package io.p2kv.kafka;

import java.util.Map;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.apache.kafka.streams.state.DslKeyValueParams;
import org.apache.kafka.streams.state.DslSessionParams;
import org.apache.kafka.streams.state.DslStoreSuppliers;
import org.apache.kafka.streams.state.DslWindowParams;
import org.apache.kafka.streams.state.KeyValueBytesStoreSupplier;
import org.apache.kafka.streams.state.SessionBytesStoreSupplier;
import org.apache.kafka.streams.state.WindowBytesStoreSupplier;

/**
 * Thread-safe: puts every key-value store of the DSL on p2kv; window and session stores stay on
 * Kafka's own RocksDB stores (they run on p2kv's rocksdbjni, see the module's README). Configure
 * it with {@code dsl.store.suppliers.class}:
 *
 * <pre>{@code
 * props.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, P2kvDslStoreSuppliers.class);
 * }</pre>
 */
public final class P2kvDslStoreSuppliers implements DslStoreSuppliers {
  private final DslStoreSuppliers kafka = new BuiltInDslStoreSuppliers.RocksDBDslStoreSuppliers();

  /** A supplier for {@code dsl.store.suppliers.class}. */
  public P2kvDslStoreSuppliers() {}

  /**
   * Checks the p2kv settings of the Streams configuration ({@link P2kvStores#SHARDS_CONFIG},
   * {@link P2kvStores#MEMORY_BUDGET_BYTES_CONFIG}), so a wrong one fails when the application is
   * built rather than in a stream thread when its first store opens.
   *
   * @throws org.apache.kafka.common.config.ConfigException naming the wrong key and value
   */
  @Override
  public void configure(Map<String, ?> configs) {
    P2kvStoreConfig.from(configs);
  }

  @Override
  public KeyValueBytesStoreSupplier keyValueStore(DslKeyValueParams params) {
    return switch (params.dslStoreFormat()) {
      case PLAIN -> P2kvStores.keyValueStore(params.name());
      case TIMESTAMPED -> P2kvStores.timestampedKeyValueStore(params.name());
      case HEADERS -> P2kvStores.timestampedKeyValueStoreWithHeaders(params.name());
    };
  }

  @Override
  public WindowBytesStoreSupplier windowStore(DslWindowParams params) {
    return kafka.windowStore(params);
  }

  @Override
  public SessionBytesStoreSupplier sessionStore(DslSessionParams params) {
    return kafka.sessionStore(params);
  }
}
