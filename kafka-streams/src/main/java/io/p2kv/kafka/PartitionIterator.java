package io.p2kv.kafka;

import io.p2kv.KvIterator;
import java.util.NoSuchElementException;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * Not thread-safe: a p2kv iterator over one (store, partition) key range as Kafka's iterator, user
 * keys without the range's prefix. Closing it closes the p2kv iterator.
 */
final class PartitionIterator implements KeyValueIterator<Bytes, byte[]> {
  private final KvIterator committed;
  private final StoreKeys keys;
  private KeyValue<Bytes, byte[]> next;
  private boolean closed;

  PartitionIterator(KvIterator committed, StoreKeys keys) {
    this.committed = committed;
    this.keys = keys;
  }

  @Override
  public boolean hasNext() {
    if (closed) {
      throw new IllegalStateException("iterator is closed");
    }
    if (next == null && committed.hasNext()) {
      io.p2kv.KeyValue kv = committed.next();
      next = KeyValue.pair(Bytes.wrap(keys.userKey(kv.key())), kv.value());
    }
    return next != null;
  }

  @Override
  public KeyValue<Bytes, byte[]> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    KeyValue<Bytes, byte[]> r = next;
    next = null;
    return r;
  }

  @Override
  public Bytes peekNextKey() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return next.key;
  }

  @Override
  public void close() {
    if (!closed) {
      closed = true;
      committed.close();
    }
  }
}
