package io.p2kv.ycsb;

import io.p2kv.KeyValue;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Thread-safe: one open store shared by every YCSB client thread of a directory, seen as the five
 * byte-level operations the binding needs. Implemented over p2kv ({@link P2kvYcsbClient}) and over
 * one plain RocksDB instance ({@link RocksDbYcsbClient}).
 *
 * <h2>Updates</h2>
 * A YCSB update merges fields into the stored record: a read, then a write. {@link
 * #updateLock(String)} gives a striped lock per key, held by the binding across that read and
 * write, so two updates of one key in this JVM never lose each other's fields. Both stores use it,
 * so its cost is the same for the baseline.
 *
 * <h2>Tables</h2>
 * Keys are stored without the table name, so a store holds one YCSB table: the first table name
 * used on it. {@link #acceptsTable} refuses any other, rather than mixing two tables' keys.
 */
abstract class YcsbStore implements AutoCloseable {
  private static final int LOCK_STRIPES = 1024;

  private final ReentrantLock[] updateLocks = new ReentrantLock[LOCK_STRIPES];
  private volatile String table;

  YcsbStore() {
    for (int i = 0; i < LOCK_STRIPES; i++) {
      updateLocks[i] = new ReentrantLock();
    }
  }

  /**
   * Point read.
   *
   * @param key key
   * @return the value, or null if absent
   */
  abstract byte[] get(byte[] key);

  /**
   * Blind write.
   *
   * @param key key
   * @param value value
   */
  abstract void put(byte[] key, byte[] value);

  /**
   * Blind delete.
   *
   * @param key key
   */
  abstract void delete(byte[] key);

  /**
   * Up to {@code limit} pairs with key {@code >= start}, in unsigned key order.
   *
   * @param start first key
   * @param limit most pairs
   * @return the pairs
   */
  abstract List<KeyValue> scan(byte[] start, int limit);

  /** Flushes memtables to disk and waits (for {@link Settle}, between benchmark phases). */
  abstract void flush();

  /**
   * RocksDB's estimate of the bytes compaction still has to rewrite, summed over instances.
   *
   * @return bytes, 0 when the LSM-trees are settled
   */
  abstract long pendingCompactionBytes();

  /** Closes the store; called once, when the last client thread of the directory cleans up. */
  @Override
  public abstract void close();

  /**
   * The lock serialising updates of a key.
   *
   * @param key the YCSB key
   * @return its stripe's lock
   */
  final ReentrantLock updateLock(String key) {
    int h = key.hashCode();
    return updateLocks[(h ^ (h >>> 16)) & (LOCK_STRIPES - 1)];
  }

  /**
   * Whether this store serves {@code name}: true for the first table name it sees and for that
   * name only.
   *
   * @param name YCSB's table name
   * @return true if the operation may proceed
   */
  final boolean acceptsTable(String name) {
    String t = table;
    if (t == null) {
      synchronized (this) {
        if (table == null) {
          table = name;
        }
        t = table;
      }
    }
    return t.equals(name);
  }

  /**
   * The table this store serves, or null before the first operation.
   *
   * @return the table name
   */
  final String table() {
    return table;
  }
}
