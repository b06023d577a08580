package io.p2kv.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Mode;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.Signal;
import org.openjdk.jcstress.annotations.State;

/**
 * As {@link CompletionAwaitTest}, but the caller first yield-polls for {@value #YIELD_NANOS} ns (and
 * at least the 16 yields {@code await} always makes) before it publishes itself and parks, as the
 * store's sync callers do. The worker's finish comes 0 to 60 µs after the caller started waiting,
 * so it lands in the polling phase (the caller returns without parking), at the hand-over from
 * polling to parking, and after the caller parked. Adds coverage of the polling loop's exits and of
 * the park that follows a poll.
 */
@JCStressTest(Mode.Termination)
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "Every caller returned with the worker's value.")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "Lost wake-up: a caller parked and nobody unparks it.")
@Outcome(id = "ERROR", expect = FORBIDDEN, desc = "A caller read a wrong value, or finish() refused the first completion.")
@State
public class CompletionAwaitYieldTest {
  static final long YIELD_NANOS = 20_000;

  private final AwaitRounds rounds = new AwaitRounds(Rounds.signalWaits(60_000));

  @Actor
  public void caller() {
    rounds.caller(YIELD_NANOS);
  }

  @Signal
  public void worker() {
    rounds.worker();
  }
}
