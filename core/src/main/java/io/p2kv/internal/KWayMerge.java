package io.p2kv.internal;

import io.p2kv.KeyValue;
import java.util.ArrayList;
import java.util.List;

/**
 * Merges runs that are each sorted by key (unsigned byte order) into one sorted list, with a {@link
 * SourceHeap} of run indices. Keys never repeat across runs (each key lives on one shard), so no
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
    int[] pos = new int[runs.size()];
    SourceHeap heap = new SourceHeap(nonEmpty, r -> runs.get(r).get(pos[r]).key(), false);
    for (int r = 0; r < runs.size(); r++) {
      if (!runs.get(r).isEmpty()) {
        heap.add(r);
      }
    }
    heap.heapify();
    while (heap.size() > 0 && out.size() < limit) {
      int r = heap.top();
      List<KeyValue> run = runs.get(r);
      out.add(run.get(pos[r]++));
      if (pos[r] == run.size()) {
        heap.removeTop();
      } else {
        heap.topAdvanced();
      }
    }
    return out;
  }
}
