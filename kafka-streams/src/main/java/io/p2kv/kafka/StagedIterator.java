package io.p2kv.kafka;

import java.util.Iterator;
import java.util.List;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.state.KeyValueIterator;

/**
 * Not thread-safe: a transactional store's uncommitted writes over its committed data, as one
 * iterator in key order (or reverse key order). The uncommitted writes are a copy taken when the
 * iterator was made, in the iterator's order, a null value a delete; where both sides hold a key,
 * the uncommitted write wins, and a delete hides the key. Closing it closes the committed side.
 */
final class StagedIterator extends LookaheadIterator {
  private final Iterator<KeyValue<Bytes, byte[]>> staged;
  private final KeyValueIterator<Bytes, byte[]> committed;
  private final boolean reverse;
  private KeyValue<Bytes, byte[]> nextStaged;

  StagedIterator(List<KeyValue<Bytes, byte[]>> staged, KeyValueIterator<Bytes, byte[]> committed, boolean reverse) {
    this.staged = staged.iterator();
    this.committed = committed;
    this.reverse = reverse;
  }

  @Override
  KeyValue<Bytes, byte[]> advance() {
    while (true) {
      if (nextStaged == null && staged.hasNext()) {
        nextStaged = staged.next();
      }
      boolean hasCommitted = committed.hasNext();
      if (nextStaged == null && !hasCommitted) {
        return null;
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
        return committed.next();
      }
      if (order == 0) {
        committed.next(); // overwritten or deleted since the last commit
      }
      KeyValue<Bytes, byte[]> s = nextStaged;
      nextStaged = null;
      if (s.value != null) {
        return s;
      }
    }
  }

  @Override
  void release() {
    committed.close();
  }
}
