package io.p2kv.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import java.util.concurrent.TimeUnit;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.I_Result;

/**
 * {@link WorkerSignal}, no lost wake-up: the idle worker {@code bind}s, then
 * {@code while (!work) park(() -> work)} (announce sleep, re-check the work, park only if there is
 * none); the producer publishes the work (a volatile write) and then {@code signal()}s (reads the
 * sleeping flag, unparks the worker if set). Either the worker sees the work when it re-checks, or
 * the producer sees it asleep and unparks it.
 *
 * <h2>Why not termination mode</h2>
 * {@code park} parks with a safety timeout, so a lost wake-up only makes the worker late; it always
 * terminates, and jcstress's STALE needs 30 s. Instead the test measures: the worker times each
 * {@code park} that found no work, the producer notes when its {@code signal()} returned, and the
 * arbiter classifies. The signal is built with a safety timeout of {@value #SAFETY_PARK_MS} ms (the
 * test-only constructor) instead of the store's 100 ms: with 100 ms, one trial in 11 M on a loaded
 * 2-core machine was a worker woken in time but left without a CPU for over 50 ms, which the
 * classification cannot tell from a lost wake-up. A lost wake-up is a park that lasted at least
 * {@value #TIMED_OUT_MS} ms and ended at least {@value #LATE_MS} ms after the producer had
 * signalled: a signalled worker is runnable again at once, so that much lateness means the unpark
 * never came. (A producer that was itself descheduled for that long, and signalled only just
 * before the worker's park ran out, is outcome 3, allowed.)
 *
 * <p>Result: 0 = the worker never parked (it saw the work on a re-check); 1 = it parked and the
 * signal woke it; 2 = lost wake-up; 3 = the safety timeout ran out, but the producer signalled
 * only near its end.
 */
@JCStressTest
@Outcome(id = "0", expect = ACCEPTABLE, desc = "The worker saw the work when it re-checked after announcing sleep; no park.")
@Outcome(id = "1", expect = ACCEPTABLE, desc = "The worker parked, and the producer's signal() woke it.")
@Outcome(id = "2", expect = FORBIDDEN, desc = "Lost wake-up: the worker slept through the safety timeout although the producer had signalled.")
@Outcome(id = "3", expect = ACCEPTABLE_INTERESTING, desc = "The safety timeout ran out, but only because the producer signalled late (scheduling).")
@State
public class WorkerSignalTest {
  static final long SAFETY_PARK_MS = 10_000;
  static final long TIMED_OUT_MS = 5_000;
  static final long LATE_MS = 2_000;

  private final WorkerSignal signal = new WorkerSignal(TimeUnit.MILLISECONDS.toNanos(SAFETY_PARK_MS));
  private volatile boolean work;
  private volatile long signalledAt;

  // Written by the worker actor only, read by the arbiter (which jcstress runs after both actors).
  private boolean lastCheckFoundNone;
  private boolean parked;
  private long longestParkNanos;
  private long longestParkEnd;

  @Actor
  public void worker() {
    signal.bind(Thread.currentThread());
    while (!work) {
      lastCheckFoundNone = false;
      long start = System.nanoTime();
      signal.park(this::hasWork);
      long end = System.nanoTime();
      if (lastCheckFoundNone) {
        parked = true;
        if (end - start > longestParkNanos) {
          longestParkNanos = end - start;
          longestParkEnd = end;
        }
      }
    }
  }

  private boolean hasWork() {
    boolean w = work;
    lastCheckFoundNone = !w;
    return w;
  }

  @Actor
  public void producer() {
    work = true;
    signal.signal();
    signalledAt = System.nanoTime();
  }

  @Arbiter
  public void classify(I_Result r) {
    if (!parked) {
      r.r1 = 0;
    } else if (longestParkNanos < TimeUnit.MILLISECONDS.toNanos(TIMED_OUT_MS)) {
      r.r1 = 1;
    } else if (longestParkEnd - signalledAt >= TimeUnit.MILLISECONDS.toNanos(LATE_MS)) {
      r.r1 = 2;
    } else {
      r.r1 = 3;
    }
  }
}
