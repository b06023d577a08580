package io.p2kv;

/** The kinds of store operation whose latency p2kv can record (see {@link LatencyStats}). */
public enum OperationType {
  /** {@link P2kv#put} and {@link P2kv#putAsync}. */
  PUT,
  /** {@link P2kv#delete} and {@link P2kv#deleteAsync}. */
  DELETE,
  /** {@link P2kv#write(Batch)} and {@link P2kv#writeAsync(Batch)}. */
  WRITE,
  /** {@link P2kv#get} and {@link P2kv#getAsync}. */
  GET,
  /** {@link P2kv#multiGet} and {@link P2kv#multiGetAsync}. */
  MULTI_GET,
  /**
   * {@link P2kv#update}, {@link P2kv#merge}, {@link P2kv#increment} and their async variants: the
   * whole round trip, the function's time on the worker included.
   */
  UPDATE
}
