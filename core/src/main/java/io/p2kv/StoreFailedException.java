package io.p2kv;

/**
 * Thrown by every operation on a failed store. A store fails as a whole in two cases: a shard
 * worker died (p2KVS section 4.6: a crash of any worker closes the whole system), or the commit
 * record of a cross-shard batch could not be written (a full disk), which leaves that batch in
 * doubt until the store is reopened. Other engine errors, a full disk on single-shard writes
 * included, fail only the affected requests ({@link ShardFailedException}). The message says what
 * happened and what to do; the cause is the underlying failure. The store must be closed and
 * reopened; writes acknowledged before the failure are kept according to the durability mode.
 * {@link P2kv#health()} reports the same failure without an exception.
 */
public class StoreFailedException extends P2kvException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message names the store, what failed, and what to do
   * @param cause the underlying failure
   */
  public StoreFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
