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
 * {@link Completion}, one sync caller, no lost wake-up: the caller {@code await(0)}s (publishes
 * itself in {@code waiter}, re-checks {@code state}, parks) while the worker {@code finish}es
 * (writes {@code state}, reads {@code waiter}, unparks). Whichever order the two Dekker halves run
 * in, the caller must return, and with the worker's value.
 *
 * <p>Each trial is {@value Rounds#ROUNDS} such races on fresh requests, lined up by
 * {@link Rounds} within 0 to 1 µs of each other, so the finish lands before, inside and after the
 * caller's publish/re-check window. jcstress reports STALE when the actor has not returned 30 s
 * after the signal: a caller parked with nobody left to unpark it.
 */
@JCStressTest(Mode.Termination)
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "Every caller returned with the worker's value.")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "Lost wake-up: a caller parked and nobody unparks it.")
@Outcome(id = "ERROR", expect = FORBIDDEN, desc = "A caller read a wrong value, or finish() refused the first completion.")
@State
public class CompletionAwaitTest {
  private final AwaitRounds rounds = new AwaitRounds(Rounds.eitherSideWaits(1_000));

  @Actor
  public void caller() {
    rounds.caller(0);
  }

  @Signal
  public void worker() {
    rounds.worker();
  }
}
