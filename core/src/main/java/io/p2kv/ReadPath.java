package io.p2kv;

/** Where point reads ({@code get}, {@code multiGet}) run. */
public enum ReadPath {
  /**
   * Reads go through the shard's queue; the worker merges consecutive reads into one engine
   * multiGet (p2KVS opportunistic batching for reads). Best when many threads read at once.
   */
  WORKER,
  /**
   * The calling thread reads the shard's engine directly; no queue, no hand-off. Best for few
   * readers. A caller still reads its own completed writes.
   */
  DIRECT
}
