package io.p2kv.kafka;

import io.p2kv.P2kv;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Thread-safe: the one p2kv store of an application instance, shared by every p2kv state store
 * of every task of the instance, opened by the first task's store and closed when the last one
 * closes (reference counted per directory).
 *
 * <p>Why shared: each p2kv store runs a worker thread per shard and has its own memory budget.
 * One store per task would put 32 workers and 32 budgets on an instance with 32 tasks (on a
 * 2-core machine 32 threads that poll before they park); sharing gives the instance one set of
 * workers, one block cache and one memtable budget, however many tasks it runs. See
 * docs/ARCHITECTURE.md, "Kafka Streams".
 */
final class SharedStore {
  private static final Logger LOG = LoggerFactory.getLogger(SharedStore.class);
  private static final Map<Path, SharedStore> OPEN = new HashMap<>();

  private final Path dir;
  private final P2kv store;
  private final P2kvStoreConfig config;
  private int users;

  private SharedStore(Path dir, P2kv store, P2kvStoreConfig config) {
    this.dir = dir;
    this.store = store;
    this.config = config;
  }

  /** Opens (or joins) the shared store in {@code dir}; every call needs one {@link #release}. */
  static SharedStore acquire(Path dir, P2kvStoreConfig config) {
    Path key = dir.toAbsolutePath().normalize();
    synchronized (OPEN) {
      SharedStore s = OPEN.get(key);
      if (s == null) {
        LOG.info("opening the shared p2kv store {} ({})", key, config);
        s = new SharedStore(key, config.builder().open(key), config);
        OPEN.put(key, s);
      }
      s.users++;
      return s;
    }
  }

  /** Leaves the store; the last user closes it. */
  void release() {
    synchronized (OPEN) {
      if (--users > 0) {
        return;
      }
      OPEN.remove(dir);
      LOG.info("closing the shared p2kv store {}", dir);
      store.close();
    }
  }

  P2kv store() {
    return store;
  }

  /** The options the store was opened with. */
  P2kvStoreConfig config() {
    return config;
  }

  /** The shared store open in {@code dir}, or null (for tests). */
  static SharedStore find(Path dir) {
    synchronized (OPEN) {
      return OPEN.get(dir.toAbsolutePath().normalize());
    }
  }

  Path dir() {
    return dir;
  }
}
