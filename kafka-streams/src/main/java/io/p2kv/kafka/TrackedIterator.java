package io.p2kv.kafka;

import java.util.Set;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * An iterator the store hands out, registered with it while open, so that closing the store closes
 * it too: as with Kafka's RocksDB stores, an iterator of a closed store throws {@link
 * InvalidStateStoreException} instead of reading on (the partition may be dropped and its task
 * moved). Its close and the store's may come from different threads: the p2kv iterator beneath is
 * safe to close from any thread, and a step that loses the race reports the closed store.
 */
final class TrackedIterator implements KeyValueIterator<Bytes, byte[]> {
  private final KeyValueIterator<Bytes, byte[]> delegate;
  private final String storeName;
  private final Set<TrackedIterator> open;
  private volatile boolean storeClosed;

  /**
   * Registers a new iterator in {@code open}.
   *
   * @param delegate the store's iterator
   * @param storeName for messages
   * @param open the store's open iterators
   */
  TrackedIterator(KeyValueIterator<Bytes, byte[]> delegate, String storeName, Set<TrackedIterator> open) {
    this.delegate = delegate;
    this.storeName = storeName;
    this.open = open;
    open.add(this);
  }

  @Override
  public boolean hasNext() {
    checkStoreOpen();
    try {
      return delegate.hasNext();
    } catch (RuntimeException e) {
      throw closedOr(e);
    }
  }

  @Override
  public KeyValue<Bytes, byte[]> next() {
    checkStoreOpen();
    try {
      return delegate.next();
    } catch (RuntimeException e) {
      throw closedOr(e);
    }
  }

  @Override
  public Bytes peekNextKey() {
    checkStoreOpen();
    try {
      return delegate.peekNextKey();
    } catch (RuntimeException e) {
      throw closedOr(e);
    }
  }

  @Override
  public void close() {
    open.remove(this);
    delegate.close();
  }

  /** The store closed: from now on this iterator throws; frees what it holds. */
  void closeWithStore() {
    storeClosed = true;
    open.remove(this);
    delegate.close();
  }

  private void checkStoreOpen() {
    if (storeClosed) {
      throw closed();
    }
  }

  /** {@code e}, unless the store closed under the step that threw it. */
  private RuntimeException closedOr(RuntimeException e) {
    if (!storeClosed) {
      return e;
    }
    InvalidStateStoreException closed = closed();
    closed.initCause(e);
    return closed;
  }

  private InvalidStateStoreException closed() {
    return new InvalidStateStoreException("store " + storeName + " is closed: its iterator cannot be used any more");
  }
}
