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
 * The wake-up tree of {@link Completion#completeSyncRun}, in termination mode: the trials of
 * {@link CompletionWakeTreeTest} (a random run of 1 to 7 sync requests and a random request k of
 * it), with jcstress itself detecting a lost wake-up as STALE instead of a watchdog.
 *
 * <p>The actor is k's caller, {@code await(0)} on its own thread. The signal is the worker
 * ({@code completeSyncRun}) followed by every other caller of the run in index order (parents
 * before children, each waking its two children), so k's caller is woken by the worker's unpark of
 * the root when k is the root, else by its parent's {@code wakeChildren}. Termination mode allows
 * only this one actor besides the signal, and a 2-CPU machine could not schedule more threads
 * anyway (see {@link CompletionWakeTreeTest}). Each trial is {@value Rounds#ROUNDS} such runs,
 * lined up by {@link Rounds} within 0 to 2 µs of each other.
 */
@JCStressTest(Mode.Termination)
@Outcome(id = "TERMINATED", expect = ACCEPTABLE, desc = "Every caller of every run returned with its own value.")
@Outcome(id = "STALE", expect = FORBIDDEN, desc = "Lost wake-up: a caller stays parked although its request is done.")
@Outcome(id = "ERROR", expect = FORBIDDEN, desc = "A caller read another request's value or none.")
@State
public class CompletionWakeTreeTerminationTest {
  private final SyncRun[] runs = new SyncRun[Rounds.ROUNDS];
  private final Rounds rounds = Rounds.eitherSideWaits(2_000);

  public CompletionWakeTreeTerminationTest() {
    for (int i = 0; i < Rounds.ROUNDS; i++) {
      runs[i] = new SyncRun(7);
    }
  }

  @Actor
  public void caller() {
    for (int i = 0; i < Rounds.ROUNDS && rounds.actorStart(i); i++) {
      SyncRun run = runs[i];
      if (!run.awaitOwn(run.k)) {
        throw new IllegalStateException("caller " + run.k + " of " + run.m + " read a wrong value");
      }
    }
  }

  @Signal
  public void workerThenOtherCallers() {
    for (int i = 0; i < Rounds.ROUNDS && rounds.signalStart(i); i++) {
      SyncRun run = runs[i];
      run.complete();
      int wrong = run.awaitOthers();
      if (wrong != 0) {
        throw new IllegalStateException(wrong + " of the other callers read a wrong value");
      }
    }
  }
}
