package io.p2kv;

/**
 * Root of every exception p2kv throws for store-level problems. Unchecked, like lmdbjava's root
 * exception: a caller that cannot recover does not have to declare it, and a caller that can
 * catches the specific subclass.
 *
 * <p>{@link UpdateFunctionException} is the one subclass that reports no store problem: an update
 * function or merge operator of the application threw, and only its own request failed.
 *
 * <p>Bad arguments are reported with the standard JDK types instead: {@link NullPointerException}
 * for a null key, value or batch, {@link IllegalArgumentException} for an oversized key or value
 * or a batch that breaks a documented rule.
 */
public class P2kvException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates an exception with a message.
   *
   * @param message what went wrong
   */
  public P2kvException(String message) {
    super(message);
  }

  /**
   * Creates an exception with a message and the underlying cause.
   *
   * @param message what went wrong
   * @param cause the underlying failure
   */
  public P2kvException(String message, Throwable cause) {
    super(message, cause);
  }
}
