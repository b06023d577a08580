package io.p2kv.kafka;

import java.util.NoSuchElementException;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * Not thread-safe: a Kafka key-value iterator that finds its next pair one ahead, for {@link
 * #peekNextKey}. Subclasses say how to find it and what closing releases.
 */
abstract class LookaheadIterator implements KeyValueIterator<Bytes, byte[]> {
  private KeyValue<Bytes, byte[]> next;
  private boolean closed;

  /** The next pair, or null at the end. */
  abstract KeyValue<Bytes, byte[]> advance();

  /** Releases what the iterator reads from; called once, by the first {@link #close}. */
  abstract void release();

  @Override
  public final boolean hasNext() {
    if (closed) {
      throw new IllegalStateException("iterator is closed");
    }
    if (next == null) {
      next = advance();
    }
    return next != null;
  }

  @Override
  public final KeyValue<Bytes, byte[]> next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    KeyValue<Bytes, byte[]> r = next;
    next = null;
    return r;
  }

  @Override
  public final Bytes peekNextKey() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return next.key;
  }

  @Override
  public final void close() {
    if (!closed) {
      closed = true;
      release();
    }
  }
}
