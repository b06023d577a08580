package io.p2kv;

/**
 * Immutable: how long consistent cuts ({@link P2kv#snapshot()}, {@link P2kv#checkpoint}, {@link
 * P2kv#backup}) held the store's writers, since the store opened.
 *
 * <p>A cut stops every shard's worker at a barrier (see {@link P2kv}, "Consistent cuts"). A cut's
 * hold time runs from the moment the first worker reached its barrier (its shard's writers wait
 * from then on) until the last worker went on, after its shard's part of the cut (taking a
 * snapshot, starting a checkpoint). It is the time the other workers needed to finish what was
 * queued ahead of their barriers, plus the cut's own work. A writer on a shard whose worker
 * arrived last waits less, or not at all.
 *
 * @param count cuts that held the workers (every cut some worker reached, a failed one included)
 * @param totalHoldNanos the hold times of those cuts added up, in nanoseconds
 * @param maxHoldNanos the longest hold time of one cut, in nanoseconds
 */
public record CutStats(long count, long totalHoldNanos, long maxHoldNanos) {
  /** The counters of a store that has taken no cut. */
  public static final CutStats NONE = new CutStats(0, 0, 0);

  /**
   * Creates the counters.
   *
   * @param count cuts, at least 0
   * @param totalHoldNanos total hold time, at least 0
   * @param maxHoldNanos longest hold time, at least 0
   */
  public CutStats {
    if (count < 0 || totalHoldNanos < 0 || maxHoldNanos < 0) {
      throw new IllegalArgumentException(
          "cut counters are negative: count " + count + ", totalHoldNanos " + totalHoldNanos + ", maxHoldNanos " + maxHoldNanos);
    }
  }

  /**
   * The mean hold time of a cut.
   *
   * @return totalHoldNanos / count, or 0 before the first cut
   */
  public double meanHoldNanos() {
    return count == 0 ? 0 : (double) totalHoldNanos / count;
  }
}
