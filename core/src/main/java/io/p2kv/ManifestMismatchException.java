package io.p2kv;

/**
 * The options given to {@link P2kv.Builder#open(java.nio.file.Path)} contradict the store's
 * manifest (for example another shard count). Opening with them would hash keys to the wrong
 * shards, so the store refuses; the message names the stored and the requested value.
 */
public class ManifestMismatchException extends P2kvException {
  private static final long serialVersionUID = 1L;

  /**
   * Creates the exception.
   *
   * @param message names the setting, the stored value and the requested value
   */
  public ManifestMismatchException(String message) {
    super(message);
  }
}
