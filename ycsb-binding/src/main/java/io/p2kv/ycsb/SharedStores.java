package io.p2kv.ycsb;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Thread-safe: the stores of one binding that are open in this JVM, one per directory, reference
 * counted. YCSB creates one DB object per client thread and calls {@code init()} and {@code
 * cleanup()} on each; the first {@code init()} of a directory opens its store, later ones share it,
 * the last {@code cleanup()} closes it. A later {@code init()} reopens it.
 *
 * <p>Opening and closing run under this registry's lock, so threads of one directory wait for its
 * store to open instead of racing to open it twice. Every thread of a directory must bring the same
 * {@code p2kv.*} properties.
 */
final class SharedStores {
  private final String kind;
  private final Map<Path, Entry> open = new HashMap<>();

  private static final class Entry {
    final BindingConfig config;
    final YcsbStore store;
    int users;

    Entry(BindingConfig config, YcsbStore store) {
      this.config = config;
      this.store = store;
    }
  }

  /**
   * A registry.
   *
   * @param kind what it holds, for messages ("p2kv", "RocksDB")
   */
  SharedStores(String kind) {
    this.kind = kind;
  }

  /**
   * The open store of {@code config.dir()}, opened with {@code opener} if none is.
   *
   * @param config the caller's configuration
   * @param opener opens a store for a configuration
   * @return the store; release it once
   * @throws IllegalArgumentException if the store is open with other properties
   * @throws RuntimeException whatever {@code opener} throws
   */
  synchronized YcsbStore acquire(BindingConfig config, Function<BindingConfig, YcsbStore> opener) {
    Entry e = open.get(config.dir());
    if (e == null) {
      e = new Entry(config, opener.apply(config));
      open.put(config.dir(), e);
    } else if (!e.config.equals(config)) {
      throw new IllegalArgumentException(
          kind + " store " + config.dir() + " is already open in this JVM with other p2kv properties: "
              + e.config + " vs " + config);
    }
    e.users++;
    return e.store;
  }

  /**
   * Gives a store back; the last user closes it.
   *
   * @param dir its directory
   * @throws RuntimeException if closing fails (the store is forgotten anyway)
   */
  synchronized void release(Path dir) {
    Entry e = open.get(dir);
    if (e == null) {
      throw new IllegalStateException(kind + " store " + dir + " is not open");
    }
    if (--e.users == 0) {
      open.remove(dir);
      e.store.close();
    }
  }

  /**
   * Number of users of a directory's store (tests).
   *
   * @param dir the directory
   * @return users, 0 if not open
   */
  synchronized int users(Path dir) {
    Entry e = open.get(dir.toAbsolutePath().normalize());
    return e == null ? 0 : e.users;
  }
}
