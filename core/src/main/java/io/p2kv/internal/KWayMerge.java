package io.p2kv.internal;

import io.p2kv.KeyValue;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Merges runs that are each sorted by key (unsigned byte order) into one sorted list, with a binary
 * heap of run indices. Keys never repeat across runs (each key lives on one shard), so no
 * de-duplication is needed.
 */
final class KWayMerge {
  private KWayMerge() {}

  /**
   * Merges sorted runs.
   *
   * @param runs the runs; each sorted by key, keys disjoint across runs
   * @param limit most pairs to return
   * @return a new mutable list of at most {@code limit} pairs in key order
   */
  static List<KeyValue> merge(List<List<KeyValue>> runs, int limit) {
    int total = 0;
    int nonEmpty = 0;
    for (List<KeyValue> run : runs) {
      total += run.size();
      if (!run.isEmpty()) {
        nonEmpty++;
      }
    }
    ArrayList<KeyValue> out = new ArrayList<>(Math.min(limit, total));
    if (nonEmpty == 1) {
      for (List<KeyValue> run : runs) {
        if (!run.isEmpty()) {
          out.addAll(run.size() <= limit ? run : run.subList(0, limit));
        }
      }
      return out;
    }
    int[] heap = new int[nonEmpty];
    int[] pos = new int[runs.size()];
    int size = 0;
    for (int r = 0; r < runs.size(); r++) {
      if (!runs.get(r).isEmpty()) {
        heap[size++] = r;
      }
    }
    for (int k = size / 2 - 1; k >= 0; k--) {
      siftDown(heap, size, k, runs, pos);
    }
    while (size > 0 && out.size() < limit) {
      int r = heap[0];
      List<KeyValue> run = runs.get(r);
      out.add(run.get(pos[r]++));
      if (pos[r] == run.size()) {
        heap[0] = heap[--size];
      }
      siftDown(heap, size, 0, runs, pos);
    }
    return out;
  }

  private static void siftDown(int[] heap, int size, int k, List<List<KeyValue>> runs, int[] pos) {
    if (size <= 1) {
      return;
    }
    int item = heap[k];
    byte[] itemKey = head(runs, pos, item);
    while (true) {
      int child = 2 * k + 1;
      if (child >= size) {
        break;
      }
      byte[] childKey = head(runs, pos, heap[child]);
      if (child + 1 < size) {
        byte[] rightKey = head(runs, pos, heap[child + 1]);
        if (Arrays.compareUnsigned(rightKey, childKey) < 0) {
          child++;
          childKey = rightKey;
        }
      }
      if (Arrays.compareUnsigned(childKey, itemKey) >= 0) {
        break;
      }
      heap[k] = heap[child];
      k = child;
    }
    heap[k] = item;
  }

  private static byte[] head(List<List<KeyValue>> runs, int[] pos, int r) {
    return runs.get(r).get(pos[r]).key();
  }
}
