package io.p2kv.internal;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * Runs many tightly aligned races inside one trial of a {@code Mode.Termination} test.
 *
 * <p>jcstress 0.16 runs a termination trial by starting a new thread for the actor, sleeping until
 * it runs, and only then calling the signal: about a thousand trials a second, each with the actor
 * long parked before the signal comes, and the code mostly not yet compiled. A lost wake-up needs
 * the two sides to meet within a few nanoseconds (the caller between "publish waiter" and
 * "re-check state", the completer between "write state" and "read waiter"), which such trials
 * would almost never hit. So each trial is {@value #ROUNDS} rounds, each a fresh request: the
 * actor announces it reached round i, the signal starts it, and then one side, picked at random,
 * waits a random 0 to {@code maxSkewNanos} before its part, sweeping the offset between the two
 * across the window. If the actor is parked for good in some round, the trial never terminates
 * and jcstress reports STALE.
 *
 * <p>The signal never waits for the actor without a limit (jcstress calls it on its control thread,
 * and a stuck signal would hang the run instead of reporting STALE): if the actor has not reached
 * the next round after {@value #ARRIVAL_TIMEOUT_MS} ms (it is parked in an earlier round, or just
 * slow to be scheduled), the signal abandons the remaining rounds and returns; an actor that is
 * not parked then sees the abandon and returns too.
 *
 * <p>Run with {@code -af NONE}: jcstress 0.16 pins a termination test's fork to a single CPU (it
 * counts only the actor), where the two sides could meet only through preemption.
 */
final class Rounds {
  static final int ROUNDS = 64;
  static final long ARRIVAL_TIMEOUT_MS = 200;

  private final long maxSkewNanos;
  private final boolean actorMayWait;
  /** This round's delay for the actor, written by the signal before it starts the round. */
  private long actorDelayNanos;
  private volatile int arrived = -1;
  private volatile int started = -1;
  private volatile boolean abandoned;

  private Rounds(long maxSkewNanos, boolean actorMayWait) {
    this.maxSkewNanos = maxSkewNanos;
    this.actorMayWait = actorMayWait;
  }

  /**
   * Each round, one side, picked at random, waits a random 0 to {@code maxNanos} ns after the
   * other started.
   *
   * @param maxNanos the largest delay
   * @return the rounds of one trial
   */
  static Rounds eitherSideWaits(long maxNanos) {
    return new Rounds(maxNanos, true);
  }

  /**
   * Each round, the signal waits a random 0 to {@code maxNanos} ns after the actor started.
   *
   * @param maxNanos the largest delay
   * @return the rounds of one trial
   */
  static Rounds signalWaits(long maxNanos) {
    return new Rounds(maxNanos, false);
  }

  /**
   * The actor, at the start of round {@code i}: returns when the signal has started it (after this
   * round's delay), or false if the signal abandoned the trial.
   */
  boolean actorStart(int i) {
    arrived = i;
    for (int spins = 0; started < i; spins++) {
      if (abandoned) {
        return false;
      }
      pause(spins);
    }
    spin(actorDelayNanos);
    return true;
  }

  /**
   * The signal, at the start of round {@code i}: waits for the actor to reach it, starts it, and
   * returns after this round's delay; or returns false, having abandoned the trial, if the actor
   * did not come in time.
   */
  boolean signalStart(int i) {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ARRIVAL_TIMEOUT_MS);
    for (int spins = 0; arrived < i; spins++) {
      if (System.nanoTime() - deadline > 0) {
        abandoned = true;
        return false;
      }
      pause(spins);
    }
    ThreadLocalRandom rnd = ThreadLocalRandom.current();
    long delay = rnd.nextLong(maxSkewNanos + 1);
    boolean actorWaits = actorMayWait && rnd.nextBoolean();
    actorDelayNanos = actorWaits ? delay : 0;
    started = i;
    if (!actorWaits) {
      spin(delay);
    }
    return true;
  }

  /** Spins a little, then yields: the other side may share this CPU. */
  private static void pause(int spins) {
    if (spins < 1_000) {
      Thread.onSpinWait();
    } else {
      Thread.yield();
    }
  }

  private static void spin(long nanos) {
    long end = System.nanoTime() + nanos;
    while (System.nanoTime() - end < 0) {
      Thread.onSpinWait();
    }
  }
}
