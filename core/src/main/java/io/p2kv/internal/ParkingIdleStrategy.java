package io.p2kv.internal;

import org.agrona.concurrent.IdleStrategy;

/**
 * A worker idle strategy that costs no CPU while the store is idle and wakes at once when a
 * request arrives: spin a few times, then poll while yielding the CPU for up to {@code
 * yieldNanos}, then park until a caller signals (see {@link Shard#parkWorker()} and {@link
 * Shard#signal()} for the no-lost-wake-up protocol). The yield phase catches the next request of a
 * caller that is about to submit again without a park/unpark pair, which on this project's
 * reference machine (a 2-core VM) costs about 25 microseconds per cross-core wake-up.
 */
final class ParkingIdleStrategy implements IdleStrategy {
  private final Shard shard;
  private final int maxSpins;
  private final long yieldNanos;
  private int spins;
  private long yieldDeadline;

  ParkingIdleStrategy(Shard shard, int maxSpins, long yieldNanos) {
    this.shard = shard;
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
    if (spins < maxSpins) {
      if (++spins == maxSpins) {
        yieldDeadline = System.nanoTime() + yieldNanos;
      }
      Thread.onSpinWait();
    } else if (System.nanoTime() - yieldDeadline < 0) {
      Thread.yield();
    } else {
      shard.parkWorker();
    }
  }

  @Override
  public void reset() {
    spins = 0;
  }

  @Override
  public String alias() {
    return "park-until-signalled";
  }
}
