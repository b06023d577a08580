package io.p2kv.internal;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Turns a lost wake-up in a continuous-mode test into an outcome instead of a hang.
 *
 * <p>In continuous mode an actor parked for good would hang the test: jcstress 0.16 gives up on
 * a stuck measurement iteration only after 30 s, and waits without any limit in the
 * sanity and stride-sizing passes it runs first. So the actor that wakes the waiter, once it has
 * done everything that could wake it, calls {@link #awaitReturn}: if the waiting actor is still
 * parked ({@code WAITING}) after {@value #TIMEOUT_MS} ms, nothing is left that would ever wake it;
 * the watchdog unparks it ({@code await} re-checks the state, which is done, and returns) and
 * reports the lost wake-up for the test to record as a forbidden outcome. A waiter that has not
 * yet reached its park is {@code RUNNABLE} and is waited for; one that was unparked shows
 * {@code WAITING} only until it gets a CPU, which takes microseconds, not a second.
 */
final class Watchdog {
  static final long TIMEOUT_MS = 1000;

  private volatile Thread waiter;
  private volatile boolean returned;

  /** The waiting actor, just before it waits. */
  void entering() {
    waiter = Thread.currentThread();
  }

  /** The waiting actor, once its wait returned. */
  void returned() {
    returned = true;
  }

  /**
   * Called by the waking actor once it has done all it does: waits until the waiting actor
   * returned.
   *
   * @return true if the waiter stayed parked for {@value #TIMEOUT_MS} ms and had to be unparked
   */
  boolean awaitReturn() {
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(TIMEOUT_MS);
    boolean rescued = false;
    while (!returned) {
      if (!rescued && System.nanoTime() - deadline > 0) {
        Thread t = waiter;
        if (t != null && t.getState() == Thread.State.WAITING) {
          rescued = true;
          LockSupport.unpark(t);
        }
      }
      Thread.yield();
    }
    return rescued;
  }
}
