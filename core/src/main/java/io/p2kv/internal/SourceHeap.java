package io.p2kv.internal;

import java.util.Arrays;

/**
 * Not thread-safe: a binary heap of source indices (shards, or sorted runs) ordered by each
 * source's current key in unsigned byte order, ascending or descending; the k-way merge of
 * ordered reads (p2KVS section 4.4). Keys never repeat across sources (each key lives on one
 * shard), so ties do not occur.
 */
final class SourceHeap {
  /** The current key of each source. */
  interface Heads {
    /**
     * The key a source is positioned at.
     *
     * @param source the source index
     * @return its current key, never null while the source is in the heap
     */
    byte[] head(int source);
  }

  private final int[] heap;
  private final Heads heads;
  private final boolean descending;
  private int size;

  SourceHeap(int capacity, Heads heads, boolean descending) {
    this.heap = new int[capacity];
    this.heads = heads;
    this.descending = descending;
  }

  /** Empties the heap. */
  void clear() {
    size = 0;
  }

  /** Adds a source without restoring the heap order: call {@link #heapify()} after the last. */
  void add(int source) {
    heap[size++] = source;
  }

  /** Restores the heap order after {@link #add}s. */
  void heapify() {
    for (int k = size / 2 - 1; k >= 0; k--) {
      siftDown(k);
    }
  }

  /** Makes {@code source} the only element (sequential reads of range partitions). */
  void setOnly(int source) {
    heap[0] = source;
    size = 1;
  }

  int size() {
    return size;
  }

  /** The source with the smallest (descending: largest) current key. */
  int top() {
    return heap[0];
  }

  /** The top source moved to its next key: restores the order. */
  void topAdvanced() {
    siftDown(0);
  }

  /** The top source ran out: removes it. */
  void removeTop() {
    heap[0] = heap[--size];
    siftDown(0);
  }

  private void siftDown(int k) {
    int n = size;
    if (n <= 1) {
      return;
    }
    int item = heap[k];
    byte[] itemKey = heads.head(item);
    while (true) {
      int child = 2 * k + 1;
      if (child >= n) {
        break;
      }
      byte[] childKey = heads.head(heap[child]);
      if (child + 1 < n) {
        byte[] rightKey = heads.head(heap[child + 1]);
        if (before(rightKey, childKey)) {
          child++;
          childKey = rightKey;
        }
      }
      if (!before(childKey, itemKey)) {
        break;
      }
      heap[k] = heap[child];
      k = child;
    }
    heap[k] = item;
  }

  private boolean before(byte[] a, byte[] b) {
    int c = Arrays.compareUnsigned(a, b);
    return descending ? c > 0 : c < 0;
  }
}
