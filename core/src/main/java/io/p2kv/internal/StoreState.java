package io.p2kv.internal;

import io.p2kv.P2kv;
import io.p2kv.StoreClosedException;
import io.p2kv.StoreFailedException;
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
  synchronized StoreFailedException fail(int shard, Throwable cause) {
    if (failure == null) {
      failure =
          new StoreFailedException(
              "store " + name + " failed: the worker of shard " + shard + " died (" + cause + ")", cause);
      LOG.error("p2kv store {}: worker of shard {} died; the store is failed and must be reopened", name, shard, cause);
      if (state == OPEN) {
        state = FAILED;
      }
    }
    return failure;
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
