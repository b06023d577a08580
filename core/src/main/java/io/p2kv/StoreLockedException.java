package io.p2kv;

/** The store directory is already open, in this process or in another one. */
public class StoreLockedException extends P2kvException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message names the directory
   * @param cause the lock failure, or null
   */
  public StoreLockedException(String message, Throwable cause) {
    super(message, cause);
  }
}
