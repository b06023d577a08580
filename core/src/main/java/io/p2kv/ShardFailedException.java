package io.p2kv;

/**
 * The storage engine of one shard failed a request (for example an I/O error or a full disk while
 * writing a batch). Every request in the failed engine call gets this exception; none of their
 * writes is acknowledged. The store stays open: later requests are tried again, and fail the same
 * way while the engine's error persists.
 */
public class ShardFailedException extends P2kvException {
  private static final long serialVersionUID = 1L;

  private final int shard;

  /**
   * Creates the exception.
   *
   * @param shard the shard whose engine failed
   * @param message names the shard directory and the operation
   * @param cause the engine's error
   */
  public ShardFailedException(int shard, String message, Throwable cause) {
    super(message, cause);
    this.shard = shard;
  }

  /**
   * The shard whose engine failed.
   *
   * @return the shard index, from 0
   */
  public int shard() {
    return shard;
  }
}
