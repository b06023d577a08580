package io.p2kv.kafka;

import org.apache.kafka.streams.state.TimestampedBytesStore;

/**
 * Thread-safe as {@link P2kvKeyValueStore}: the same store, marked as holding Kafka's
 * timestamped values (timestamp and value in one byte array), so the DSL stores them as they are
 * instead of through an adapter that drops the timestamps.
 */
class P2kvTimestampedKeyValueStore extends P2kvKeyValueStore implements TimestampedBytesStore {
  P2kvTimestampedKeyValueStore(String name) {
    super(name);
  }
}
