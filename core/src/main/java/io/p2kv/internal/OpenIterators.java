package io.p2kv.internal;

import io.p2kv.internal.engine.EngineSnapshot;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The iterators of one store that the application has open: each is registered (its {@link
 * StoreIterator.Cursors}, never the iterator itself) before it creates any native iterator and
 * forgotten when closed, so that closing the store can free the ones left open (see {@link
 * StoreIterator} for why that is safe).
 *
 * <h2>Leaks</h2>
 * An iterator the application drops without closing it is closed by the {@link LeakCleaner} once
 * the garbage collector finds it unreachable, and counted here ({@link #leaked()}). Each such leak
 * is reported: with leak detection on, every one is logged at WARN with the stack trace of where
 * the iterator was created ({@link #creationTrace()}, captured only then); with it off, the first
 * leak of the store is logged with a hint to turn it on, later ones are only counted.
 */
final class OpenIterators {
  private static final Logger LOG = LoggerFactory.getLogger(OpenIterators.class);

  /**
   * The native side of something the application must close: an iterator's {@link
   * StoreIterator.Cursors} or a snapshot's {@link StoreSnapshot.Views}.
   */
  interface Registered {
    /**
     * Frees the native resources; called by the closing store once no thread is inside any
     * shard's reader guard and none can enter. Does not throw for an already closed one.
     *
     * @return true if the application had left it open
     */
    boolean forceClose();

    /**
     * Where it was created, when the store detects leaks; else null.
     *
     * @return the creation trace or null
     */
    Throwable createdAt();

    /**
     * What it is, for messages: "iterator" or "snapshot".
     *
     * @return the kind
     */
    String kind();
  }

  private final Set<Registered> open = ConcurrentHashMap.newKeySet();
  private final String storeName;
  private final boolean leakDetection;
  private final AtomicLong leaked = new AtomicLong();
  private final AtomicLong leakedSnapshots = new AtomicLong();
  /** Sees every leak, with what was logged about it and its creation trace (tests). */
  private volatile BiConsumer<String, Throwable> leakListener;
  private volatile int closedByStore;

  /**
   * An empty registry for one store.
   *
   * @param storeName for messages
   * @param leakDetection whether each iterator records where it was created, and each leak is
   *     logged with it
   */
  OpenIterators(String storeName, boolean leakDetection) {
    this.storeName = storeName;
    this.leakDetection = leakDetection;
  }

  /**
   * Opens a merged iterator on the caller's thread, positioned at the start of its range.
   *
   * @param shards the store's shards
   * @param lower inclusive lower bound or null
   * @param upper exclusive upper bound or null
   * @param reverse true for descending order
   * @return the iterator, registered until closed
   */
  StoreIterator open(ShardSet shards, byte[] lower, byte[] upper, boolean reverse) {
    return open(shards, lower, upper, reverse, null);
  }

  /**
   * Opens a merged iterator over a snapshot's views, or the latest state.
   *
   * @param shards the store's shards
   * @param lower inclusive lower bound or null
   * @param upper exclusive upper bound or null
   * @param reverse true for descending order
   * @param views the snapshot's engine views by shard index, or null for the latest state
   * @return the iterator, registered until closed
   */
  StoreIterator open(ShardSet shards, byte[] lower, byte[] upper, boolean reverse, EngineSnapshot[] views) {
    return StoreIterator.open(
        shards.forRange(lower, upper), shards.sequential(), lower, upper, reverse, views, this, storeName);
  }

  void add(Registered registered) {
    open.add(registered);
  }

  void remove(Registered registered) {
    open.remove(registered);
  }

  int count() {
    return open.size();
  }

  /** How many iterators the application had left open when the store closed them. */
  int closedByStore() {
    return closedByStore;
  }

  /**
   * Where a new iterator is being created, if leak detection is on: a stack trace captured now.
   *
   * @return the trace, or null when leak detection is off (nothing is captured)
   */
  Throwable creationTrace() {
    return creationTrace("iterator");
  }

  /**
   * As {@link #creationTrace()}, for an object of another kind.
   *
   * @param kind "iterator" or "snapshot"
   * @return the trace, or null when leak detection is off
   */
  Throwable creationTrace(String kind) {
    return leakDetection ? new Throwable("the leaked " + kind + " was created here") : null;
  }

  /**
   * Counts and reports an iterator the cleaner closed because the application dropped it open.
   * Runs on the cleaner's thread; never throws.
   *
   * @param cursors the iterator's native side, already closed
   * @param failure what freeing it threw, or null
   */
  void leaked(Registered cursors, RuntimeException failure) {
    String kind = cursors.kind();
    long n = kind.equals("iterator") ? leaked.incrementAndGet() : leakedSnapshots.incrementAndGet();
    try {
      if (failure != null) {
        LOG.warn("p2kv store {}: freeing a leaked {} failed", storeName, kind, failure);
      }
      String message = null;
      if (leakDetection) {
        message =
            "p2kv store " + storeName + ": " + article(kind) + " was dropped without close() and was freed when the"
                + " garbage collector found it (" + n + " so far). Close every " + kind + " (try-with-resources).";
        LOG.warn(message, cursors.createdAt());
      } else if (n == 1) {
        message =
            "p2kv store " + storeName + ": " + article(kind) + " was dropped without close() and was freed when the"
                + " garbage collector found it. Close every " + kind + " (try-with-resources). Later leaks are only"
                + " counted (StoreStats.leaked" + Character.toUpperCase(kind.charAt(0)) + kind.substring(1) + "s());"
                + " open the store with P2kv.Builder.leakDetection(true) to log where each leaked " + kind
                + " was created.";
        LOG.warn(message);
      }
      BiConsumer<String, Throwable> listener = leakListener;
      if (listener != null) {
        listener.accept(message, cursors.createdAt());
      }
    } catch (RuntimeException e) {
      // The Cleaner would swallow it: a broken logger must not stop the reclaiming.
    }
  }

  /**
   * The cleaner's action for something the application dropped open: closes it as the
   * application's close would (under its lock), then counts and reports the leak. Runs on the
   * cleaner's thread; never throws.
   *
   * @param dropped what was dropped
   * @param lock the lock its close takes
   * @param closeLocked its close, called holding the lock: true if this call closed it
   */
  void reclaim(Registered dropped, Lock lock, BooleanSupplier closeLocked) {
    boolean reclaimed;
    RuntimeException failure = null;
    lock.lock();
    try {
      reclaimed = closeLocked.getAsBoolean();
    } catch (RuntimeException e) {
      reclaimed = true; // the state CAS came first: closed, with a native close's failure
      failure = e;
    } finally {
      lock.unlock();
    }
    if (reclaimed) {
      leaked(dropped, failure);
    }
  }

  private static String article(String kind) {
    return (kind.startsWith("i") ? "an " : "a ") + kind;
  }

  /**
   * How many iterators the cleaner closed because the application dropped them open.
   *
   * @return leaked iterators since the store opened
   */
  long leaked() {
    return leaked.get();
  }

  /**
   * How many snapshots the cleaner closed because the application dropped them open.
   *
   * @return leaked snapshots since the store opened
   */
  long leakedSnapshots() {
    return leakedSnapshots.get();
  }

  /**
   * Sets who sees every leak, after it is counted and logged (tests).
   *
   * @param listener gets what was logged about the leak (null if it was only counted) and where
   *     the iterator was created (null with leak detection off)
   */
  void onLeak(BiConsumer<String, Throwable> listener) {
    this.leakListener = listener;
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
    for (Registered it : open) {
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
