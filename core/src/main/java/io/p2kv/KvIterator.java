package io.p2kv;

import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.function.Consumer;

/**
 * Not thread-safe for iteration, but safe to close from any thread: a streaming cursor over the
 * keys of a range in unsigned byte order, forward or reverse, merged from every shard the range
 * touches. Obtain one from {@link P2kv#iterator}, {@link P2kv#reverseIterator} or {@link
 * P2kv#prefixIterator}, and close it (try-with-resources): it holds one RocksDB iterator per shard,
 * which holds native memory (tens of KB) and pins memtables and files until closed.
 *
 * <pre>{@code
 * try (KvIterator it = store.iterator(from, to)) {
 *   while (it.hasNext()) {
 *     KeyValue kv = it.next();
 *   }
 * }
 * }</pre>
 *
 * <h2>View</h2>
 * Each shard's part comes from one point-in-time view of that shard, taken when the iterator was
 * created; {@link #seek} moves within the same views and never refreshes them. See {@link P2kv}
 * ("Ordered reads") for what holds across shards.
 *
 * <h2>Memory</h2>
 * The iterator holds at most one entry per shard; it never materialises the range.
 *
 * <h2>Life cycle</h2>
 * {@link #close} is idempotent. Closing the store closes every iterator still open, safely even
 * while another thread is inside one of its methods; from then on its methods throw {@link
 * StoreClosedException}. Methods of a closed iterator throw {@link IllegalStateException}.
 *
 * <p>An iterator the application drops without closing it is a leak, and p2kv reclaims it: once
 * the garbage collector finds it unreachable, a background thread closes it (its RocksDB iterators
 * are freed and it no longer pins files), logs a warning and counts it in {@link
 * StoreStats#leakedIterators()}. Only the store's first leak is logged, unless the store was
 * opened with {@link P2kv.Builder#leakDetection(boolean)}, which logs every one with the stack
 * trace of where it was created. This is a safety net, not a way to close: until a garbage
 * collection runs, which may take long with a large heap that fills slowly, a dropped iterator
 * keeps its native memory and files. An iterator that is still reachable is never reclaimed, even
 * if it is not used.
 */
public final class KvIterator implements Iterator<KeyValue>, AutoCloseable {
  private final Iterator<KeyValue> iterator;
  private final Consumer<byte[]> seek;
  private final Runnable close;

  KvIterator(Iterator<KeyValue> iterator, Consumer<byte[]> seek, Runnable close) {
    this.iterator = iterator;
    this.seek = seek;
    this.close = close;
  }

  /**
   * Whether another pair remains in the range.
   *
   * @return true if {@link #next()} will return a pair
   * @throws IllegalStateException if this iterator is closed
   * @throws P2kvException if the store is closed or failed, or a shard's engine failed
   */
  @Override
  public boolean hasNext() {
    return iterator.hasNext();
  }

  /**
   * The next pair: the next larger key for a forward iterator, the next smaller for a reverse one.
   *
   * @return the pair, in new arrays
   * @throws NoSuchElementException if none remains
   * @throws IllegalStateException if this iterator is closed
   * @throws P2kvException if the store is closed or failed, or a shard's engine failed
   */
  @Override
  public KeyValue next() {
    return iterator.next();
  }

  /**
   * Repositions within the same views: a forward iterator continues at the smallest key {@code >=
   * key}, a reverse one at the largest key {@code <= key}, always within the iterator's bounds.
   * Seeking backwards (revisiting keys) is allowed.
   *
   * @param key the target
   * @throws NullPointerException if key is null
   * @throws IllegalArgumentException if key is too long
   * @throws IllegalStateException if this iterator is closed
   * @throws P2kvException if the store is closed or failed, or a shard's engine failed
   */
  public void seek(byte[] key) {
    Limits.checkKey(key);
    seek.accept(key);
  }

  /**
   * Frees the iterator's native resources. Idempotent; may be called from any thread, also while
   * another thread iterates (that thread then gets {@link IllegalStateException}).
   */
  @Override
  public void close() {
    close.run();
  }
}
