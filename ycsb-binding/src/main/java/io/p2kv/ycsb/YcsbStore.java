package io.p2kv.ycsb;

import io.p2kv.KeyValue;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Thread-safe: one open store shared by every YCSB client thread of a directory, seen as the five
 * byte-level operations the binding needs. Implemented over p2kv ({@link P2kvYcsbClient}) and over
 * one plain RocksDB instance ({@link RocksDbYcsbClient}).
 *
 * <h2>Updates</h2>
 * A YCSB update merges fields into the stored record: a read, then a write, which {@link #update}
 * must make atomic per key, or two updates of one key would lose each other's fields. p2kv does it
 * with {@code P2kv.update}, on the key's shard worker, without a lock; plain RocksDB cannot (its
 * merge operators are C++ only), so the baseline holds a striped per-key lock across its get and
 * put, as a RocksDB user in Java must.
 *
 * <h2>Tables</h2>
 * Keys are stored without the table name, so a store holds one YCSB table: the first table name
 * used on it. {@link #acceptsTable} refuses any other, rather than mixing two tables' keys.
 */
abstract class YcsbStore implements AutoCloseable {
  private volatile String table;

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
   * Replaces the value of {@code key} with {@code merge} of it, atomically with respect to every
   * other update of the key: no other update of it comes between the read and the write.
   *
   * @param ycsbKey the YCSB key (for a lock stripe)
   * @param key the store key
   * @param merge the current value (null if absent) to the new one; returns null for an absent
   *     key (nothing is written then) and never otherwise. Runs on any thread (p2kv: the shard's
   *     worker) while the caller waits
   * @return the new value, or null if the key was absent
   */
  abstract byte[] update(String ycsbKey, byte[] key, UnaryOperator<byte[]> merge);

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

  /**
   * Where the store keeps its values, for {@link Settle}'s report: bytes in blob files against
   * bytes in SST files.
   *
   * @return a short description; empty for a store that keeps every value inline
   */
  String placement() {
    return "";
  }

  /** Closes the store; called once, when the last client thread of the directory cleans up. */
  @Override
  public abstract void close();

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
