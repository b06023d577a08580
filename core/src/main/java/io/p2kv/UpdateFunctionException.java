package io.p2kv;

/**
 * The function of an {@link P2kv#update update}, or the {@link MergeOperator} of a {@link
 * P2kv#merge merge}, threw, or returned a value longer than {@link P2kv#MAX_VALUE_BYTES}. Only that
 * request fails: nothing was written for it, and the other requests executed with it (before and
 * after it in the shard's queue, also updates of the same key) are applied as if it had not been
 * issued. The store is not affected. {@link #getCause()} is what the function threw (null for an
 * oversized value).
 */
public class UpdateFunctionException extends P2kvException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message names the shard and what the function did
   * @param cause what the function threw, or null
   */
  public UpdateFunctionException(String message, Throwable cause) {
    super(message, cause);
  }
}
