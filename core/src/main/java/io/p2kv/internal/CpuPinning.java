package io.p2kv.internal;

import io.p2kv.Pinning;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Pins worker threads through OpenHFT affinity, degrading to unpinned with one warning per store.
 * Never throws: pinning is an optimisation, not a requirement.
 */
final class CpuPinning {
  private static final Logger LOG = LoggerFactory.getLogger(CpuPinning.class);

  private final boolean enabled;
  private final String storeName;
  private final AtomicBoolean warned = new AtomicBoolean();

  CpuPinning(Pinning mode, int shards, int cores, String storeName) {
    this.storeName = storeName;
    this.enabled =
        switch (mode) {
          case NEVER -> false;
          case ALWAYS -> true;
          case AUTO -> cores > shards + 1;
        };
  }

  boolean enabled() {
    return enabled;
  }

  /**
   * Pins the calling thread to a free core.
   *
   * @return a handle to release, or null if not pinned
   */
  Object pinCurrentThread() {
    if (!enabled) {
      return null;
    }
    try {
      net.openhft.affinity.AffinityLock lock = net.openhft.affinity.AffinityLock.acquireLock();
      if (!lock.isBound()) {
        lock.release();
        warnOnce("no free core to pin to", null);
        return null;
      }
      LOG.debug("p2kv store {}: {} pinned to cpu {}", storeName, Thread.currentThread().getName(), lock.cpuId());
      return lock;
    } catch (Throwable t) {
      warnOnce(t.toString(), t);
      return null;
    }
  }

  void release(Object handle) {
    if (handle != null) {
      try {
        ((net.openhft.affinity.AffinityLock) handle).release();
      } catch (Throwable t) {
        LOG.debug("p2kv store {}: releasing cpu pin failed", storeName, t);
      }
    }
  }

  private void warnOnce(String reason, Throwable t) {
    if (warned.compareAndSet(false, true)) {
      LOG.warn("p2kv store {}: cannot pin shard workers to cores ({}); running unpinned", storeName, reason);
      if (t != null) {
        LOG.debug("pinning failure", t);
      }
    }
  }
}
