package io.p2kv.internal;

import java.util.concurrent.ThreadLocalRandom;

/**
 * One run of sync requests, as the worker hands it to {@link Completion#completeSyncRun}: a random
 * length {@code m} (1 to {@code maxM}, so trees of depth 0 to 2 with 7), each request with its own
 * result object, and one index {@code k} (random) whose caller the test runs on a thread of its own.
 */
final class SyncRun {
  final int m;
  final int k;
  final SyncCompletion[] requests;
  final Object[] values;

  SyncRun(int maxM) {
    ThreadLocalRandom rnd = ThreadLocalRandom.current();
    m = 1 + rnd.nextInt(maxM);
    k = rnd.nextInt(m);
    requests = new SyncCompletion[m];
    values = new Object[m];
    for (int i = 0; i < m; i++) {
      requests[i] = new SyncCompletion();
      values[i] = new Object();
    }
  }

  /** The worker's part: completes the whole run through the wake-up tree (unparks only the root). */
  void complete() {
    // completeSyncRun clears the arrays it is given, as the worker's reused buffers.
    Completion[] sync = requests.clone();
    Object[] vals = values.clone();
    Completion.completeSyncRun(sync, vals, m, null);
  }

  /** The caller of request {@code k}: waits and tells whether it got its own value. */
  boolean awaitOwn(int i) {
    requests[i].await(0);
    return requests[i].resultOrThrow() == values[i];
  }

  /**
   * Plays the callers of every request but {@code k}'s, in index order, so each parent before its
   * children: each sees itself done and wakes its two children, among them, through its ancestors,
   * caller {@code k}. Call only after {@link #complete}; then none of these waits parks.
   *
   * @return how many of them read another request's value or none
   */
  int awaitOthers() {
    int wrong = 0;
    for (int i = 0; i < m; i++) {
      if (i != k && !awaitOwn(i)) {
        wrong++;
      }
    }
    return wrong;
  }
}
