package io.p2kv.kafka;

import io.p2kv.KvIterator;
import java.util.Comparator;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * Not thread-safe: a store's range as Kafka sees it, the p2kv store's committed pairs merged with
 * the writes not yet committed (the overlay), which win on equal keys; an overlay tombstone hides
 * the key. Forward or reverse, as both sources are.
 */
final class MergedIterator implements KeyValueIterator<Bytes, byte[]> {
  private final Iterator<Map.Entry<Bytes, byte[]>> overlay;
  private final KvIterator committed;
  private final StoreKeys keys;
  private final Comparator<Bytes> order;
  private final Runnable onClose;

  private Map.Entry<Bytes, byte[]> nextOverlay;
  private KeyValue<Bytes, byte[]> nextCommitted;
  private KeyValue<Bytes, byte[]> next;
  private boolean closed;

  MergedIterator(
      Iterator<Map.Entry<Bytes, byte[]>> overlay, KvIterator committed, StoreKeys keys, boolean reverse, Runnable onClose) {
    this.overlay = overlay;
    this.committed = committed;
    this.keys = keys;
    this.order = reverse ? Comparator.<Bytes>reverseOrder() : Comparator.<Bytes>naturalOrder();
    this.onClose = onClose;
    nextOverlay = overlay.hasNext() ? overlay.next() : null;
    nextCommitted = pullCommitted();
  }

  private KeyValue<Bytes, byte[]> pullCommitted() {
    if (!committed.hasNext()) {
      return null;
    }
    io.p2kv.KeyValue kv = committed.next();
    return KeyValue.pair(Bytes.wrap(keys.userKey(kv.key())), kv.value());
  }

  /** Moves to the next visible pair, or null. */
  private KeyValue<Bytes, byte[]> advance() {
    while (nextOverlay != null || nextCommitted != null) {
      int c =
          nextOverlay == null ? 1 : nextCommitted == null ? -1 : order.compare(nextOverlay.getKey(), nextCommitted.key);
      if (c > 0) {
        KeyValue<Bytes, byte[]> r = nextCommitted;
        nextCommitted = pullCommitted();
        return r;
      }
      Map.Entry<Bytes, byte[]> o = nextOverlay;
      nextOverlay = overlay.hasNext() ? overlay.next() : null;
      if (c == 0) {
        nextCommitted = pullCommitted(); // the overlay's write replaces the committed pair
      }
      if (!Overlay.isTombstone(o.getValue())) {
        return KeyValue.pair(o.getKey(), o.getValue());
      }
    }
    return null;
  }

  @Override
  public boolean hasNext() {
    if (closed) {
      throw new IllegalStateException("iterator is closed");
    }
    if (next == null) {
      next = advance();
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
      onClose.run();
    }
  }
}
