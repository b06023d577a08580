package io.p2kv;

/** What a caller does when the request queue of the shard it needs is full. */
public enum QueueFullPolicy {
  /**
   * Wait until the worker frees a slot, backing off from spinning to parking so that waiting does
   * not burn a core. Back-pressure, the default. Except on the shard's own worker (a callback or a
   * future stage running there that enqueues to the same shard): it alone frees slots, so there
   * the request fails with {@link QueueFullException} instead of waiting for good.
   */
  WAIT,
  /** Throw {@link QueueFullException} at once (async methods return a failed future). */
  FAIL_FAST
}
