package io.p2kv.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The wake-up tree of {@link Completion#completeSyncRun}, in continuous mode with a watchdog: every
 * caller of a run returns, each with its own value.
 *
 * <p>Each trial is a run of 1 to 7 sync requests (trees of depth 0 to 2) and one request {@code k}
 * of it, both random ({@link SyncRun}). The {@code caller} actor is k's caller: it {@code await(0)}s
 * for real, on its own thread, and parks unless its request is already done. The {@code worker}
 * actor is the shard worker ({@code completeSyncRun}: link the tree, complete children before
 * parents, unpark only the root) and then every other caller of the run, parents before children,
 * each of which sees itself done and wakes its two children; so k's caller is woken by the worker
 * if k is the root, else by its parent's {@code wakeChildren}, racing its own "publish waiter,
 * re-check state".
 *
 * <h2>Why this shape</h2>
 * jcstress 0.16 runs a test only if it has at most as many threads as the machine has CPUs, so on
 * a 2-CPU machine two threads must play the worker and all the callers: one caller on its own
 * thread, the rest after the worker on the other. Three-thread shapes (worker, a parked root, a
 * parked child) cannot be scheduled there. {@code Mode.Termination} would detect a lost wake-up as
 * STALE, but it allows only one actor and starts a new thread per trial (about a thousand trials
 * a second); continuous mode runs far more trials but has no STALE, and a lost wake-up would leave
 * the caller parked and hang the run (jcstress 0.16 has no limit on its sanity passes). Hence the
 * {@link Watchdog}: once the worker has played all other callers it waits for k's caller to
 * return; if after {@value Watchdog#TIMEOUT_MS} ms that caller is still parked, nothing is left
 * that could wake it: the watchdog unparks it and the test records the lost wake-up (r3 = 1,
 * forbidden). {@link CompletionWakeTreeTerminationTest} runs the same trials in termination mode.
 *
 * <p>Result: r1 = k's caller read its own value (1) or not (0); r2 = how many of the other callers
 * read another request's value or none; r3 = the watchdog had to unpark k's caller.
 */
@JCStressTest
@Outcome(id = "1, 0, 0", expect = ACCEPTABLE, desc = "Every caller returned with its own value.")
@Outcome(id = "\\d+, \\d+, 1", expect = FORBIDDEN, desc = "Lost wake-up: k's caller stayed parked although its request was done; the watchdog unparked it.")
@Outcome(expect = FORBIDDEN, desc = "A caller read another request's value or none.")
@State
public class CompletionWakeTreeTest {
  private final SyncRun run = new SyncRun(7);
  private final Watchdog watchdog = new Watchdog();

  @Actor
  public void caller(III_Result r) {
    watchdog.entering();
    boolean own = run.awaitOwn(run.k);
    watchdog.returned();
    r.r1 = own ? 1 : 0;
  }

  @Actor
  public void worker(III_Result r) {
    run.complete();
    r.r2 = run.awaitOthers();
    r.r3 = watchdog.awaitReturn() ? 1 : 0;
  }
}
