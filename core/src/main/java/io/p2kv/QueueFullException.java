package io.p2kv;

/**
 * A shard's request queue was full and the store was opened with {@link
 * QueueFullPolicy#FAIL_FAST}. The request was not enqueued and has no effect.
 */
public class QueueFullException extends P2kvException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message names the shard and the queue capacity
   */
  public QueueFullException(String message) {
    super(message);
  }
}
