package io.p2kv;

/** The store's own metadata (the manifest) or a shard directory is unreadable or inconsistent. */
public class StoreCorruptedException extends P2kvException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what is wrong and where
   * @param cause the underlying failure, or null
   */
  public StoreCorruptedException(String message, Throwable cause) {
    super(message, cause);
  }
}
