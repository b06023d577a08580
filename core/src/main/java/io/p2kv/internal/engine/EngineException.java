package io.p2kv.internal.engine;

/** An engine call failed; the worker maps it to the public exception with the shard id. */
public final class EngineException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message what failed, with the engine's path
   * @param cause the engine's own exception
   */
  public EngineException(String message, Throwable cause) {
    super(message, cause);
  }
}
