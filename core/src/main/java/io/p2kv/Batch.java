package io.p2kv;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * Not thread-safe: a list of puts and deletes that {@link P2kv#write(Batch)} applies atomically,
 * in order (a later operation on the same key wins).
 *
 * <p>Keys and values are validated when added, so a bad batch fails at the line that built it.
 * The batch keeps references to the arrays it is given: do not modify them until the write
 * completes. A batch can be written more than once and reused after {@link #clear()}.
 */
public final class Batch {
  private final List<Op> ops;
  private long payloadBytes;

  /** Creates an empty batch. */
  public Batch() {
    ops = new ArrayList<>();
  }

  /**
   * Creates an empty batch with room for {@code expectedOperations} operations before it grows
   * (a large batch built in one go, a bulk load's, then skips the copies of its growth).
   *
   * @param expectedOperations the operations the batch will likely hold
   * @throws IllegalArgumentException if negative
   */
  public Batch(int expectedOperations) {
    if (expectedOperations < 0) {
      throw new IllegalArgumentException("expectedOperations is negative: " + expectedOperations);
    }
    ops = new ArrayList<>(expectedOperations);
  }

  /**
   * Adds a put.
   *
   * @param key the key; see {@link P2kv#MAX_KEY_BYTES}
   * @param value the value; see {@link P2kv#MAX_VALUE_BYTES}
   * @return this batch
   * @throws NullPointerException if key or value is null
   * @throws IllegalArgumentException if key or value is too long
   */
  public Batch put(byte[] key, byte[] value) {
    Limits.checkKey(key);
    Limits.checkValue(value);
    ops.add(new Op(key, value));
    payloadBytes += key.length + value.length;
    return this;
  }

  /**
   * Adds a delete.
   *
   * @param key the key; see {@link P2kv#MAX_KEY_BYTES}
   * @return this batch
   * @throws NullPointerException if key is null
   * @throws IllegalArgumentException if key is too long
   */
  public Batch delete(byte[] key) {
    Limits.checkKey(key);
    ops.add(new Op(key, null));
    payloadBytes += key.length;
    return this;
  }

  /**
   * The number of operations.
   *
   * @return how many puts and deletes were added
   */
  public int size() {
    return ops.size();
  }

  /**
   * Whether the batch has no operations.
   *
   * @return true if empty
   */
  public boolean isEmpty() {
    return ops.isEmpty();
  }

  /** Removes every operation. */
  public void clear() {
    ops.clear();
    payloadBytes = 0;
  }

  /**
   * The operations, in the order they were added.
   *
   * @return an unmodifiable view
   */
  public List<Op> ops() {
    return Collections.unmodifiableList(ops);
  }

  /**
   * Reorders the operations by unsigned key; the operations on one key keep their order, so the
   * batch does exactly what it did before. RocksDB's memtable takes keys that come in order with
   * less searching, each insert starting where the last one ended; p2kv's Kafka Streams store sorts
   * its batches of buffered writes this way.
   *
   * @return this batch
   */
  public Batch sortByKey() {
    if (ops.size() > 1) {
      Op[] sorted = P2kv.sortByKey(ops.toArray(new Op[0]));
      ops.clear();
      Collections.addAll(ops, sorted);
    }
    return this;
  }

  long payloadBytes() {
    return payloadBytes;
  }

  /**
   * One operation of a batch: a put when {@link #value()} is non-null, a delete otherwise.
   *
   * @param key the key
   * @param value the value to put, or null for a delete
   */
  public record Op(byte[] key, byte[] value) {
    /**
     * Creates an operation.
     *
     * @param key the key, not null
     * @param value the value, or null for a delete
     */
    public Op {
      Objects.requireNonNull(key, "key is null");
    }

    /**
     * Whether this is a delete.
     *
     * @return true for a delete
     */
    public boolean isDelete() {
      return value == null;
    }
  }
}
