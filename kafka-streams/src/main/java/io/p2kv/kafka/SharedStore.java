package io.p2kv.kafka;

import io.p2kv.Durability;
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
 *
 * <p>Durability: the state stores write a store of one shard without its write-ahead log, as
 * Kafka's own RocksDB stores write theirs (see {@link #writeDurability}).
 */
final class SharedStore {
  private static final Logger LOG = LoggerFactory.getLogger(SharedStore.class);
  private static final Map<Path, SharedStore> OPEN = new HashMap<>();

  private final Path dir;
  private final P2kv store;
  private final P2kvStoreConfig config;
  private final Durability writeDurability;
  private int users;
  /** Writes restored records to the store off the restoring threads; started on first use. */
  private java.util.concurrent.ExecutorService loader;
  /** Bytes of restored records waiting in the instance's restore buffers, not yet handed to a write. */
  private final java.util.concurrent.atomic.AtomicLong restoreBytes = new java.util.concurrent.atomic.AtomicLong();

  private SharedStore(Path dir, P2kv store, P2kvStoreConfig config) {
    this.dir = dir;
    this.store = store;
    this.config = config;
    this.writeDurability = store.shardCount() == 1 ? Durability.NO_WAL : Durability.WAL;
  }

  /**
   * The durability of every write the state stores make but a dropped partition's deletes:
   * {@code NO_WAL} on a store of one shard, {@code WAL} (the store's own: the module opens it with
   * p2kv's default) on more.
   *
   * <p>Kafka Streams asks of a store only that the changelog offsets it commits never count a
   * write a crash could lose (Kafka restores every later changelog record). Kafka's RocksDB stores
   * write without their log and persist at memtable flushes; so can one shard: RocksDB flushes its
   * memtables in the order they were written, so a crash keeps a prefix of the store's unlogged
   * writes, and each commit writes the offsets in one batch with, or after, the writes they cover.
   * What else outlives a crash out of that order only adds data a restore then writes again (a
   * restore's bulk loads, durable when they return) or removes data with its offsets (the logged
   * deletes of a dropped partition, see {@link P2kvKeyValueStore}). Skipping the log saved 0.5-11 %
   * of the time of 12 M updates of the store alone (docs/benchmarks/KAFKA-STREAMS.md, stop 59), and
   * the log's bytes on disk. Two shards are two RocksDB instances that flush apart: the shard
   * holding a commit's offsets could keep them while another lost the data they cover, so there
   * every write goes through the log, which a killed process keeps.
   *
   * <p>The cost: after a crash, a store of one shard holds its writes as of its last memtable
   * flush, and Kafka restores more of the changelog. A clean close of a task flushes the store
   * ({@link P2kvKeyValueStore#close}), as a RocksDB store does when it closes.
   */
  Durability writeDurability() {
    return writeDurability;
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

  /** Whether users other than the caller (one of them) have the store. */
  boolean hasOtherUsers() {
    synchronized (OPEN) {
      return users > 1;
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
      if (loader != null) {
        loader.shutdown(); // every store awaited its last write before it released the store
      }
      store.close();
    }
  }

  /**
   * Counts {@code delta} bytes of restored records into (or out of) the instance's restore
   * buffers.
   *
   * @return the instance's total after it
   */
  long addRestoreBytes(long delta) {
    return restoreBytes.addAndGet(delta);
  }

  /** Bytes of restored records waiting in the instance's restore buffers (for tests). */
  long restoreBytes() {
    return restoreBytes.get();
  }

  /**
   * The bytes of restored records the instance's restore buffers may hold together before the
   * next store that adds to them loads its own: half the store's memory budget, the share its
   * memtables would give the same records (restored records bypass them).
   */
  long restoreBufferBytes() {
    return config.memoryBudgetBytes() / 2;
  }

  /**
   * The instance's loader thread, which writes restored records to the store (one thread: a load
   * sorts and encodes on it, and the restoring threads parse the next records meanwhile).
   */
  java.util.concurrent.Executor loader() {
    synchronized (OPEN) {
      if (loader == null) {
        loader = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
          Thread t = new Thread(r, "p2kv-restore-loader " + dir.getFileName());
          t.setDaemon(true);
          return t;
        });
      }
      return loader;
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
