package io.p2kv.internal;

/**
 * The body of the two await tests ({@link CompletionAwaitTest}, {@link CompletionAwaitYieldTest}):
 * {@value Rounds#ROUNDS} fresh sync requests, one caller awaiting each and one worker finishing
 * each, lined up by {@link Rounds}. The tests differ only in how the rounds line up and how long
 * the caller polls before it parks.
 */
final class AwaitRounds {
  private final SyncCompletion[] requests = new SyncCompletion[Rounds.ROUNDS];
  private final Object[] values = new Object[Rounds.ROUNDS];
  private final Rounds rounds;

  AwaitRounds(Rounds rounds) {
    this.rounds = rounds;
    for (int i = 0; i < Rounds.ROUNDS; i++) {
      requests[i] = new SyncCompletion();
      values[i] = new Object();
    }
  }

  /** The caller's side: await each request, polling {@code yieldNanos} first, and check its value. */
  void caller(long yieldNanos) {
    for (int i = 0; i < Rounds.ROUNDS && rounds.actorStart(i); i++) {
      requests[i].await(yieldNanos);
      if (requests[i].resultOrThrow() != values[i]) {
        throw new IllegalStateException("caller read a wrong value");
      }
    }
  }

  /** The worker's side: finish each request once. */
  void worker() {
    for (int i = 0; i < Rounds.ROUNDS && rounds.signalStart(i); i++) {
      if (!requests[i].finish(values[i], null)) {
        throw new IllegalStateException("the first finish() was refused");
      }
    }
  }
}
