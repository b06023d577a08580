package io.p2kv;

/**
 * Thrown by every operation on a store whose shard worker died (p2KVS section 4.6: a crash of any
 * worker closes the whole system). The cause is the failure that killed the worker. The store
 * must be closed and reopened; writes acknowledged before the failure are kept according to the
 * durability mode.
 */
public class StoreFailedException extends P2kvException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message names the store and the shard that failed
   * @param cause the failure that killed the worker
   */
  public StoreFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
