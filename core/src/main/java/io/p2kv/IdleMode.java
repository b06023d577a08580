package io.p2kv;

/**
 * What a shard worker does when its queue is empty. Each maps onto an Agrona {@code
 * IdleStrategy}.
 */
public enum IdleMode {
  /**
   * Spin briefly, then park until a caller enqueues a request and wakes the worker. Costs no CPU
   * when idle and wakes at once; the default, and the right choice when cores are scarce.
   */
  PARK,
  /**
   * Agrona's backoff: spin, then yield, then park for growing periods (1 microsecond to 1
   * millisecond). Callers never signal the worker; an idle worker polls about a thousand times a
   * second.
   */
  BACKOFF,
  /** Yield the CPU between polls. Low latency; keeps a core busy when other threads want it. */
  YIELD,
  /** Busy-spin. Lowest latency; burns one core per shard. Only for machines with cores to spare. */
  BUSY_SPIN
}
