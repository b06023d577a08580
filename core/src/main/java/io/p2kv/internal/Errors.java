package io.p2kv.internal;

import io.p2kv.P2kvException;
import io.p2kv.QueueFullException;
import io.p2kv.ShardFailedException;
import io.p2kv.StoreClosedException;
import io.p2kv.StoreCorruptedException;
import io.p2kv.StoreFailedException;
import io.p2kv.internal.engine.EngineException;

/**
 * Maps internal failures to the public exceptions, in one place: engine errors of a shard, and
 * failures recorded on a worker thread rethrown on the caller's thread.
 */
final class Errors {
  private Errors() {}

  /**
   * A shard's engine failed an operation: the public exception names the shard and keeps the
   * engine's exception, and so its kind and the engine's own error, as the cause.
   */
  static ShardFailedException shardFailed(int shard, EngineException e) {
    return new ShardFailedException(shard, e.getMessage(), e);
  }

  /**
   * A shard's engine could not be opened: damaged files are {@link StoreCorruptedException}, any
   * other failure a {@link P2kvException}; both keep the engine's exception as the cause.
   */
  static P2kvException openFailed(EngineException e) {
    if (e.kind() == EngineException.Kind.CORRUPTION) {
      return new StoreCorruptedException(e.getMessage(), e);
    }
    return new P2kvException(e.getMessage(), e);
  }

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
