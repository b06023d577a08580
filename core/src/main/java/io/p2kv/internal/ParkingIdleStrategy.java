package io.p2kv.internal;

import org.agrona.concurrent.IdleStrategy;

/**
 * A worker idle strategy that costs no CPU while the store is idle and wakes at once when a
 * request arrives: spin a few times, then poll while yielding the CPU for up to {@code
 * yieldNanos}, then park until signalled ({@link WorkerSignal} has the no-lost-wake-up protocol).
 * The yield phase catches the next request of a caller that is about to submit again without a
 * park/unpark pair, a costly cross-core wake-up (docs/benchmarks/PROFILES.md measures it).
 */
final class ParkingIdleStrategy implements IdleStrategy {
  private final WorkerSignal signal;
  private final WorkerSignal.Work work;
  private final int maxSpins;
  private final long yieldNanos;
  private int spins;
  private long yieldDeadline;

  ParkingIdleStrategy(WorkerSignal signal, WorkerSignal.Work work, int maxSpins, long yieldNanos) {
    this.signal = signal;
    this.work = work;
    this.maxSpins = maxSpins;
    this.yieldNanos = yieldNanos;
  }

  @Override
  public void idle(int workCount) {
    if (workCount > 0) {
      reset();
    } else {
      idle();
    }
  }

  @Override
  public void idle() {
    if (spins == 0) {
      signal.idle();
    }
    if (spins < maxSpins) {
      if (++spins == maxSpins) {
        yieldDeadline = System.nanoTime() + yieldNanos;
      }
      Thread.onSpinWait();
    } else if (System.nanoTime() - yieldDeadline < 0) {
      Thread.yield();
    } else {
      signal.park(work);
    }
  }

  @Override
  public void reset() {
    spins = 0;
    signal.busy();
  }

  @Override
  public String alias() {
    return "park-until-signalled";
  }
}
