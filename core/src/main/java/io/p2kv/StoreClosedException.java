package io.p2kv;

/** Thrown by every operation on a store that has been closed, and to requests still queued when it closed. */
public class StoreClosedException extends P2kvException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message names the store directory
   */
  public StoreClosedException(String message) {
    super(message);
  }
}
