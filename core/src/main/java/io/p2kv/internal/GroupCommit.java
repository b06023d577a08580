package io.p2kv.internal;

/**
 * Not thread-safe (it moves with the shard's worker role, like the rest of the worker's state):
 * how many requests a durable write run waits for, and for how long. Used only when every engine
 * write is fsynced ({@link io.p2kv.Durability#SYNC}).
 *
 * <h2>Why a durable run waits</h2>
 * An fsync costs about the same for one write as for hundreds, and a sync caller whose write is
 * in a run comes back with its next write only after that run's fsync. Taking only what is queued
 * (the rule for WAL-only runs) then splits the callers into two groups that alternate: the run
 * after a big one finds only the first few callers woken, fsyncs them alone, and the rest queue
 * behind that fsync (16 sync callers averaged 8 writes per fsync, docs/benchmarks/WRITE-PATH.md).
 * So a durable run whose queue runs dry before it holds as many requests as the larger of the last
 * two runs (the callers that are coming back) waits for more, yielding the CPU to those callers,
 * until it has that many or for at most the mean time of a durable engine write (one fsync):
 * under steady load the runs grow to the number of writers, and when load drops the target falls
 * to what the runs actually found within two runs. A lone caller never waits: its own run was 1.
 *
 * <p>Acknowledgement is unchanged: a request completes only after the engine write of its run,
 * fsync included, has returned.
 */
final class GroupCommit {
  /** Weight of a new sample in the mean write time: 1/8. */
  private static final int MEAN_SHIFT = 3;

  private int lastRun;
  private int runBefore;
  /** Mean nanoseconds of a durable engine write (fsync included); 0 until the first. */
  private long meanWriteNanos;

  /**
   * How many requests the next run waits for.
   *
   * @return the larger of the last two runs' sizes (0 before any)
   */
  int target() {
    return Math.max(lastRun, runBefore);
  }

  /**
   * How long the next run waits at most for its target.
   *
   * @return the mean durable write time in nanoseconds
   */
  long maxWaitNanos() {
    return meanWriteNanos;
  }

  /**
   * Records a run that was written.
   *
   * @param requests requests in the run
   * @param writeNanos how long its engine write (fsync included) took
   */
  void wrote(int requests, long writeNanos) {
    runBefore = lastRun;
    lastRun = requests;
    meanWriteNanos = meanWriteNanos == 0 ? writeNanos : meanWriteNanos + ((writeNanos - meanWriteNanos) >> MEAN_SHIFT);
  }
}
