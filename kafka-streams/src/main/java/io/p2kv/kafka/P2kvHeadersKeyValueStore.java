package io.p2kv.kafka;

import org.apache.kafka.streams.state.HeadersBytesStore;

/**
 * Thread-safe as {@link P2kvKeyValueStore}: the same store, marked as holding Kafka's values with
 * headers and timestamps (the DSL's {@code HEADERS} store format).
 */
final class P2kvHeadersKeyValueStore extends P2kvTimestampedKeyValueStore implements HeadersBytesStore {
  P2kvHeadersKeyValueStore(String name) {
    super(name);
  }
}
