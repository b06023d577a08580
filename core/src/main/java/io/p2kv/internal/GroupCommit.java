package io.p2kv.internal;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

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
 * until it has that many or for at most the mean time of a durable engine write (one fsync), and
 * never longer than {@link #MAX_WAIT_NANOS}: under steady load the runs grow to the number of
 * writers, and when load drops the target falls to what the runs actually found within two runs.
 * A lone caller never waits: its own run was 1.
 *
 * <h2>How long at most</h2>
 * Waiting longer than one fsync costs more than the fsync a late writer would need on its own, so
 * the wait follows the mean durable write time. Two guards keep one slow write (a disk stall, a
 * device cache flush, the first write of a new WAL file) from widening the window for the writes
 * after it:
 * <ul>
 *   <li>Each sample enters the mean clamped to twice the mean ({@link #OUTLIER_FACTOR}), so one
 *       outlier, however slow, raises the mean by at most 1/8 (the weight of a sample). A disk that
 *       really got slower is still followed, by up to 12.5% per write (10x in about 20 writes).
 *   <li>The wait is at most {@link #MAX_WAIT_NANOS}, 1 ms, whatever the mean. A flush on an NVMe
 *       SSD with power-loss protection takes some 20-100 µs, on consumer SSDs and cloud block
 *       volumes about 0.5-5 ms (this machine: about 165 µs per durable put with one caller). Writers
 *       that come back do so one wake-up after their fsync returned, tens of microseconds, not an
 *       fsync's time, so on fast devices the mean is the bound and the cap never binds; on slow
 *       ones 1 ms still covers many wake-ups, while a run that waits in vain (load just dropped,
 *       for at most two runs) adds at most 1 ms to a write that costs several.
 * </ul>
 *
 * <p>Acknowledgement is unchanged: a request completes only after the engine write of its run,
 * fsync included, has returned.
 */
final class GroupCommit {
  /** Weight of a new sample in the mean write time: 1/8. */
  private static final int MEAN_SHIFT = 3;

  /** A sample enters the mean as at most this many times the mean (one outlier moves it 1/8). */
  static final int OUTLIER_FACTOR = 2;

  /** The longest a durable run waits for writers, whatever the mean write time (see above). */
  static final long MAX_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

  private LongSupplier nanoClock = System::nanoTime;
  private int lastRun;
  private int runBefore;
  /** Mean nanoseconds of a durable engine write (fsync included), samples clamped; 0 until the first. */
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
   * @return the mean durable write time in nanoseconds, at most {@link #MAX_WAIT_NANOS}
   */
  long maxWaitNanos() {
    return Math.min(meanWriteNanos, MAX_WAIT_NANOS);
  }

  /**
   * The clock the wait and the write times are measured with.
   *
   * @return {@link System#nanoTime()}, or the clock a test gave
   */
  long nanoTime() {
    return nanoClock.getAsLong();
  }

  /**
   * Replaces the clock (tests: a fake clock makes the wait's length observable).
   *
   * @param clock nanoseconds, as {@link System#nanoTime()}
   */
  void nanoClock(LongSupplier clock) {
    this.nanoClock = clock;
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
    if (meanWriteNanos == 0) {
      meanWriteNanos = Math.max(1, writeNanos);
    } else {
      long sample = Math.min(writeNanos, OUTLIER_FACTOR * meanWriteNanos);
      meanWriteNanos = Math.max(1, meanWriteNanos + ((sample - meanWriteNanos) >> MEAN_SHIFT));
    }
  }
}
