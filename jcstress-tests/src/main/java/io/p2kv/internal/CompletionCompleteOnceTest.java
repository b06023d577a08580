package io.p2kv.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.ZZI_Result;

/**
 * {@link Completion}, exactly once: the worker completes a request with a value while another
 * thread (the store closing or failing) fails it. Exactly one {@code finish} must win, and the
 * result, read afterwards through {@code await} and {@code resultOrThrow}, must be the winner's:
 * never a mix (the value with the failure's winner, or no result at all).
 *
 * <p>Result: r1 = the worker's {@code finish} won; r2 = the failing {@code finish} won; r3 = what
 * {@code resultOrThrow} gave (1 the value, 2 the failure rethrown, 0 null, 3 anything else).
 */
@JCStressTest
@Outcome(id = "true, false, 1", expect = ACCEPTABLE, desc = "The worker completed it first; the failure was refused.")
@Outcome(id = "false, true, 2", expect = ACCEPTABLE, desc = "The failure came first; the worker's completion was refused.")
@Outcome(expect = FORBIDDEN, desc = "Both or neither won, or the result is not the winner's.")
@State
public class CompletionCompleteOnceTest {
  private final SyncCompletion request = new SyncCompletion();
  private final Object value = new Object();
  private final RuntimeException failure = new IllegalStateException("store closed");

  @Actor
  public void worker(ZZI_Result r) {
    r.r1 = request.finish(value, null);
  }

  @Actor
  public void closer(ZZI_Result r) {
    r.r2 = request.finish(null, failure);
  }

  @Arbiter
  public void after(ZZI_Result r) {
    if (!r.r1 && !r.r2) {
      return; // nobody completed it: r3 stays 0, and await would never return
    }
    request.await(0);
    try {
      Object o = request.resultOrThrow();
      r.r3 = o == value ? 1 : o == null ? 0 : 3;
    } catch (RuntimeException e) {
      r.r3 = e == failure ? 2 : 3;
    }
  }
}
