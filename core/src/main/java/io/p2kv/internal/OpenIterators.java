package io.p2kv.internal;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The iterators of one store that the application has open: each is registered before it creates
 * any native iterator and forgotten when closed, so that closing the store can free the ones left
 * open (see {@link StoreIterator} for why that is safe).
 */
final class OpenIterators {
  private final Set<StoreIterator> open = ConcurrentHashMap.newKeySet();
  private volatile int closedByStore;

  /**
   * Opens a merged iterator on the caller's thread, positioned at the start of its range.
   *
   * @param shards the store's shards
   * @param lower inclusive lower bound or null
   * @param upper exclusive upper bound or null
   * @param reverse true for descending order
   * @param storeName for messages
   * @return the iterator, registered until closed
   */
  StoreIterator open(ShardSet shards, byte[] lower, byte[] upper, boolean reverse, String storeName) {
    return StoreIterator.open(shards.forRange(lower, upper), shards.sequential(), lower, upper, reverse, open, storeName);
  }

  int count() {
    return open.size();
  }

  /** How many iterators the application had left open when the store closed them. */
  int closedByStore() {
    return closedByStore;
  }

  /**
   * Frees every iterator still open. Call only once no thread can be inside a shard's reader
   * guard (close step 4).
   *
   * @param failures receives what freeing one threw
   * @return how many the application had left open
   */
  int forceCloseAll(Consumer<RuntimeException> failures) {
    int leftOpen = 0;
    for (StoreIterator it : open) {
      try {
        if (it.forceClose()) {
          leftOpen++;
        }
      } catch (RuntimeException e) {
        failures.accept(e);
      }
    }
    open.clear();
    closedByStore = leftOpen;
    return leftOpen;
  }
}
