package io.p2kv.internal;

import io.p2kv.Batch;
import java.util.Arrays;

/**
 * Sorts a batch's operations by unsigned key, stably ({@code Batch.sortByKey}, and the bulk loads'
 * sort, {@link BulkLoads}).
 *
 * <p>Its own code rather than {@code Arrays.sort} with a comparator: besides skipping the keys'
 * common prefix (below), it keeps the JIT's type profile of the sort to itself. {@code TimSort} is
 * shared by every caller in the JVM; sorting {@code Batch.Op[]} there while other code (Kafka
 * Streams' own, for one) sorts arrays of other types made C2 compile {@code TimSort.mergeLo} and
 * {@code mergeHi} 11-13 times each in one aggregation run, after a deoptimization each time
 * ({@code array_check}): about 0.9 s of compilation on 2 cores (docs/benchmarks/KAFKA-STREAMS.md,
 * stop 47). Only keys equal in all the compared bytes still go to {@code Arrays.sort}, which a
 * batch of distinct keys seldom has.
 */
public final class KeyOrder {
  private KeyOrder() {}

  /**
   * {@code ops} in unsigned key order, writes of one key in their given order (a stable sort). A
   * batch's keys often share a long prefix (a table's or a partition's), which a comparison sort
   * would compare again at each of its n log n comparisons: instead the keys are sorted by the 8
   * bytes after their common prefix with a radix sort (stable, 8 passes at most, a pass skipped when
   * all its digits are equal), and only runs of keys equal in those bytes are compared whole.
   *
   * @param ops the operations; reordered or replaced
   * @return the operations in key order
   */
  public static Batch.Op[] sort(Batch.Op[] ops) {
    int n = ops.length;
    if (n < 2) {
      return ops;
    }
    byte[] first = ops[0].key();
    int common = first.length;
    for (Batch.Op op : ops) {
      byte[] k = op.key();
      int m = Arrays.mismatch(first, 0, common, k, 0, Math.min(common, k.length));
      if (m >= 0) {
        common = m;
      } else if (k.length < common) {
        common = k.length;
      }
    }
    long[] words = new long[n];
    for (int i = 0; i < n; i++) {
      words[i] = word(ops[i].key(), common);
    }
    Batch.Op[] opsOut = new Batch.Op[n];
    long[] wordsOut = new long[n];
    int[] counts = new int[256];
    for (int shift = 0; shift < 64; shift += 8) {
      Arrays.fill(counts, 0);
      for (long w : words) {
        counts[(int) (w >>> shift) & 0xFF]++;
      }
      if (counts[(int) (words[0] >>> shift) & 0xFF] == n) {
        continue; // every key has the same digit here
      }
      for (int d = 0, start = 0; d < 256; d++) {
        int c = counts[d];
        counts[d] = start;
        start += c;
      }
      for (int i = 0; i < n; i++) {
        int at = counts[(int) (words[i] >>> shift) & 0xFF]++;
        opsOut[at] = ops[i];
        wordsOut[at] = words[i];
      }
      Batch.Op[] o = ops;
      ops = opsOut;
      opsOut = o;
      long[] w = words;
      words = wordsOut;
      wordsOut = w;
    }
    // Keys equal in the compared bytes may differ after them (or in length): sort such runs whole.
    for (int from = 0; from < n; ) {
      int to = from + 1;
      while (to < n && words[to] == words[from]) {
        to++;
      }
      if (to - from > 1 && !inOrder(ops, from, to)) {
        Arrays.sort(ops, from, to, (a, b) -> Arrays.compareUnsigned(a.key(), b.key())); // stable
      }
      from = to;
    }
    return ops;
  }

  /** Whether {@code ops[from, to)} are in key order already (a run of one key's writes usually is). */
  private static boolean inOrder(Batch.Op[] ops, int from, int to) {
    for (int i = from + 1; i < to; i++) {
      if (Arrays.compareUnsigned(ops[i - 1].key(), ops[i].key()) > 0) {
        return false;
      }
    }
    return true;
  }

  /** The 8 bytes of {@code key} from {@code offset}, big-endian, zeros past its end. */
  private static long word(byte[] key, int offset) {
    long w = 0;
    for (int i = 0; i < 8; i++) {
      int at = offset + i;
      w = w << 8 | (at < key.length ? key[at] & 0xFF : 0);
    }
    return w;
  }
}
