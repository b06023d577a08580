package io.p2kv.internal;

import io.p2kv.P2kv;
import io.p2kv.StoreClosedException;
import io.p2kv.StoreFailedException;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The store's life-cycle state, shared by callers and workers: OPEN, then CLOSED or FAILED (a
 * failed store can still be closed). One volatile field read per request.
 */
public final class StoreState {
  private static final Logger LOG = LoggerFactory.getLogger(StoreState.class);

  private static final int OPEN = 0;
  private static final int CLOSED = 1;
  private static final int FAILED = 2;

  private final String name;
  private volatile int state = OPEN;
  private volatile StoreFailedException failure;

  StoreState(String name) {
    this.name = name;
  }

  /**
   * Throws unless the store is open.
   *
   * @throws StoreClosedException if closed
   * @throws StoreFailedException if failed
   */
  void checkOpen() {
    int s = state;
    if (s != OPEN) {
      throw notOpen(s);
    }
  }

  boolean isOpen() {
    return state == OPEN;
  }

  /**
   * An async call that has nothing to do: done with {@code value} if the store is open, else
   * failed as every call on it fails.
   */
  <T> CompletableFuture<T> completedIfOpen(T value) {
    return isOpen()
        ? CompletableFuture.completedFuture(value)
        : CompletableFuture.failedFuture(notOpen());
  }

  RuntimeException notOpen() {
    return notOpen(state);
  }

  private RuntimeException notOpen(int s) {
    if (s == FAILED) {
      StoreFailedException f = failure;
      return new StoreFailedException(f.getMessage(), f.getCause());
    }
    return new StoreClosedException("store " + name + " is closed");
  }

  /**
   * Marks the store closed, also a failed one: from now on calls get {@link StoreClosedException};
   * workers still see {@link #failure()} and fail what remains queued.
   */
  void markClosed() {
    state = CLOSED;
  }

  /**
   * Marks the store failed because a worker died; the first failure wins.
   *
   * @return the failure every request gets from now on
   */
  StoreFailedException workerDied(int shard, Throwable cause) {
    return fail("the worker of shard " + shard + " died of " + describe(cause), cause);
  }

  /**
   * Marks the store failed because the commit record of a cross-shard batch could not be
   * written: the batch is in doubt until the next open decides it; the first failure wins.
   *
   * @return the failure every request gets from now on
   */
  StoreFailedException commitInDoubt(Throwable cause) {
    return fail(
        "the commit record of a cross-shard batch could not be written (" + describe(cause) + "), so the batch"
            + " is in doubt until the store is reopened; every operation fails until then, so that none"
            + " returns a value the reopen may roll back",
        cause);
  }

  private synchronized StoreFailedException fail(String what, Throwable cause) {
    if (failure == null) {
      failure =
          new StoreFailedException(
              "store " + name + " failed: " + what + ". Close the store and open it again (after freeing disk space if"
                  + " the disk is full): opening finishes or rolls back a batch in doubt, and writes acknowledged"
                  + " before the failure are kept",
              publicCause(cause));
      LOG.error("p2kv store {} failed: {}; it must be closed and reopened", name, what, cause);
      if (state == OPEN) {
        state = FAILED;
      }
    }
    return failure;
  }

  /** A failure's description without the names of p2kv's internal classes. */
  private static String describe(Throwable t) {
    return t.getClass().getName().startsWith("io.p2kv.internal.") ? t.getMessage() : t.toString();
  }

  /** The cause an application sees: the engine's own exception rather than p2kv's internal wrapper. */
  private static Throwable publicCause(Throwable t) {
    return t.getClass().getName().startsWith("io.p2kv.internal.") && t.getCause() != null ? t.getCause() : t;
  }

  /**
   * The state for {@code P2kv.health()}.
   *
   * @return open, failed or closed, with the failure if there was one
   */
  P2kv.Health health() {
    int s = state;
    P2kv.Health.Status status =
        s == OPEN ? P2kv.Health.Status.OPEN : s == FAILED ? P2kv.Health.Status.FAILED : P2kv.Health.Status.CLOSED;
    return new P2kv.Health(status, failure);
  }

  /**
   * The failure if the store failed, else null.
   *
   * @return the failure or null
   */
  StoreFailedException failure() {
    return failure;
  }

  String name() {
    return name;
  }
}
