package io.p2kv.kafka;

import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * Not thread-safe: a transactional store's uncommitted writes over its committed data, as one
 * iterator in key order (or reverse key order). The uncommitted writes are a copy taken when the
 * iterator was made, in the iterator's order, a null value a delete; where both sides hold a key,
 * the uncommitted write wins, and a delete hides the key. Closing it closes the committed side.
 */
final class StagedIterator implements KeyValueIterator<Bytes, byte[]> {
  private final Iterator<KeyValue<Bytes, byte[]>> staged;
  private final KeyValueIterator<Bytes, byte[]> committed;
  private final boolean reverse;
  private KeyValue<Bytes, byte[]> nextStaged;
  private KeyValue<Bytes, byte[]> next;
  private boolean closed;

  StagedIterator(List<KeyValue<Bytes, byte[]>> staged, KeyValueIterator<Bytes, byte[]> committed, boolean reverse) {
    this.staged = staged.iterator();
    this.committed = committed;
    this.reverse = reverse;
  }

  @Override
  public boolean hasNext() {
    if (closed) {
      throw new IllegalStateException("iterator is closed");
    }
    while (next == null) {
      if (nextStaged == null && staged.hasNext()) {
        nextStaged = staged.next();
      }
      boolean hasCommitted = committed.hasNext();
      if (nextStaged == null && !hasCommitted) {
        return false;
      }
      // Which comes first, in the iterator's order: below 0 the uncommitted write, above 0 the
      // committed pair, 0 both (the same key).
      int order;
      if (nextStaged == null) {
        order = 1;
      } else if (!hasCommitted) {
        order = -1;
      } else {
        int c = nextStaged.key.compareTo(committed.peekNextKey());
        order = reverse ? -c : c;
      }
      if (order > 0) {
        next = committed.next();
      } else {
        if (order == 0) {
          committed.next(); // overwritten or deleted since the last commit
        }
        KeyValue<Bytes, byte[]> s = nextStaged;
        nextStaged = null;
        if (s.value != null) {
          next = s;
        }
      }
    }
    return true;
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
