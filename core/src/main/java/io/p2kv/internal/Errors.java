package io.p2kv.internal;

import io.p2kv.P2kvException;
import io.p2kv.QueueFullException;
import io.p2kv.ShardFailedException;
import io.p2kv.StoreClosedException;
import io.p2kv.StoreFailedException;

/** Turns a failure recorded on a worker thread into an exception for the caller's thread. */
final class Errors {
  private Errors() {}

  /**
   * Wraps so that the caller's own stack shows where it called from, keeping the exception type.
   */
  static RuntimeException rethrowForCaller(Throwable t) {
    if (t instanceof ShardFailedException e) {
      return new ShardFailedException(e.shard(), e.getMessage(), e);
    }
    if (t instanceof StoreClosedException e) {
      return new StoreClosedException(e.getMessage());
    }
    if (t instanceof StoreFailedException e) {
      return new StoreFailedException(e.getMessage(), e.getCause());
    }
    if (t instanceof QueueFullException e) {
      return new QueueFullException(e.getMessage());
    }
    if (t instanceof RuntimeException e) {
      return e;
    }
    return new P2kvException(t.toString(), t);
  }
}
