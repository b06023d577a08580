package io.p2kv.internal.engine;

/** An engine call failed; the worker maps it to the public exception with the shard id. */
public final class EngineException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** What kind of failure the engine reported. */
  public enum Kind {
    /** The engine found its files damaged. */
    CORRUPTION,
    /** Any other failure (I/O, permissions, disk full, busy, ...). */
    OTHER
  }

  private final Kind kind;

  /**
   * Creates the exception.
   *
   * @param message what failed, with the engine's path
   * @param cause the engine's own exception
   */
  public EngineException(String message, Throwable cause) {
    this(message, cause, Kind.OTHER);
  }

  /**
   * Creates the exception.
   *
   * @param message what failed, with the engine's path
   * @param cause the engine's own exception
   * @param kind what kind of failure
   */
  public EngineException(String message, Throwable cause, Kind kind) {
    super(message, cause);
    this.kind = kind;
  }

  /**
   * What kind of failure this is.
   *
   * @return the kind
   */
  public Kind kind() {
    return kind;
  }
}
