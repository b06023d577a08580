package io.p2kv;

/** What a caller does when the request queue of the shard it needs is full. */
public enum QueueFullPolicy {
  /**
   * Wait until the worker frees a slot, backing off from spinning to parking so that waiting does
   * not burn a core. Back-pressure, the default.
   */
  WAIT,
  /** Throw {@link QueueFullException} at once (async methods return a failed future). */
  FAIL_FAST
}
