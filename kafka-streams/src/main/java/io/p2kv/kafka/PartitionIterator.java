package io.p2kv.kafka;

import io.p2kv.KvIterator;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;

/**
 * Not thread-safe: a p2kv iterator over one (store, partition) key range as Kafka's iterator, user
 * keys without the range's prefix. Closing it closes the p2kv iterator.
 */
final class PartitionIterator extends LookaheadIterator {
  private final KvIterator committed;
  private final StoreKeys keys;

  PartitionIterator(KvIterator committed, StoreKeys keys) {
    this.committed = committed;
    this.keys = keys;
  }

  @Override
  KeyValue<Bytes, byte[]> advance() {
    if (!committed.hasNext()) {
      return null;
    }
    io.p2kv.KeyValue kv = committed.next();
    return KeyValue.pair(Bytes.wrap(keys.userKey(kv.key())), kv.value());
  }

  @Override
  void release() {
    committed.close();
  }
}
