package io.p2kv;

/**
 * Whether shard workers are pinned to CPU cores (through OpenHFT affinity). Pinning never makes
 * {@code open} fail: when it is not possible (too few cores, a container without the rights, no
 * JNA) the workers run unpinned and the store logs one warning.
 */
public enum Pinning {
  /**
   * Pin only when the machine has more cores than shards plus one, so that callers and RocksDB's
   * background threads keep a core. The default.
   */
  AUTO,
  /** Always try to pin each worker to its own core. */
  ALWAYS,
  /** Never pin. */
  NEVER
}
