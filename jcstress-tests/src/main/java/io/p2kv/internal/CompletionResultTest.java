package io.p2kv.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * {@link Completion}, result visibility: the worker {@code finish}es with a value while the sync
 * caller {@code await(0)}s and then reads {@code resultOrThrow()}. The result and error fields are
 * plain; they are published by the volatile write of {@code state = DONE} that follows them, so a
 * caller that returned from {@code await} must read the worker's value, never {@code null}. Then
 * the caller tries a second {@code finish} (as the close path would on a request already done):
 * it must be refused, and the arbiter checks that the result is still the first one.
 *
 * <p>The worker then waits for the caller to return, with a {@link Watchdog}, so that a lost
 * wake-up shows as an outcome instead of hanging the run.
 *
 * <p>Result: r1 = the worker's {@code finish} returned true (1); r2 = what the caller read (1 the
 * worker's value, 0 null, 2 anything else); r3 = the second {@code finish} was accepted or the
 * result changed after it (1); r4 = lost wake-up: the watchdog had to unpark the caller (1).
 */
@JCStressTest
@Outcome(id = "1, 1, 0, 0", expect = ACCEPTABLE, desc = "The caller read the worker's value; the late finish was refused.")
@Outcome(id = "\\d+, \\d+, \\d+, 1", expect = FORBIDDEN, desc = "Lost wake-up: the caller stayed parked after finish; the watchdog unparked it.")
@Outcome(id = "\\d+, 0, \\d+, \\d+", expect = FORBIDDEN, desc = "The caller returned from await but read null: result published after DONE.")
@Outcome(expect = FORBIDDEN, desc = "Completed twice, or a wrong value.")
@State
public class CompletionResultTest {
  private final SyncCompletion request = new SyncCompletion();
  private final Object value = new Object();
  private final Object late = new Object();
  private final Watchdog watchdog = new Watchdog();

  @Actor
  public void worker(IIII_Result r) {
    r.r1 = request.finish(value, null) ? 1 : 0;
    r.r4 = watchdog.awaitReturn() ? 1 : 0;
  }

  @Actor
  public void caller(IIII_Result r) {
    watchdog.entering();
    request.await(0);
    watchdog.returned();
    r.r2 = code(request.resultOrThrow());
    r.r3 = request.finish(late, null) ? 1 : 0;
  }

  @Arbiter
  public void after(IIII_Result r) {
    if (request.resultOrThrow() != value) {
      r.r3 = 1;
    }
  }

  private int code(Object o) {
    return o == value ? 1 : o == null ? 0 : 2;
  }
}
