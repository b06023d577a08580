package io.p2kv.internal;

import io.p2kv.KeyValue;
import io.p2kv.P2kvException;
import io.p2kv.StoreClosedException;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineException;
import io.p2kv.internal.engine.EngineIterator;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.ReentrantLock;

/**
 * An ordered read over several shards: one engine iterator per shard, merged by a k-way heap on the
 * caller's thread. p2KVS section 4.4 (the "global iterator" built from each instance's iterator).
 *
 * <h2>View</h2>
 * All engine iterators are created first, back to back, then positioned: each shard's part is the
 * point-in-time view of that shard when its iterator was created. Seeks reuse the same views. Seek
 * targets are clamped to the bounds here, so a forward iterator needs only its upper bound from the
 * engine, and an unbounded one (every {@code scan}) can reuse a pooled engine iterator.
 *
 * <h2>Merge</h2>
 * Each cursor holds its current entry; a binary heap of cursor indices orders them by key
 * (reversed for a reverse iterator). Keys never repeat across shards, since each key lives on one
 * shard. The top is advanced lazily, at the next call, so a bounded read ({@link #drainTo}) reads
 * exactly one entry per returned pair plus one per shard: "ask for more only from the shard that
 * runs out", one entry at a time.
 *
 * <h2>Range-partitioned stores</h2>
 * When shards hold disjoint key ranges in shard order, no heap is needed: the iterator is
 * <em>sequential</em>. Every shard's engine iterator is still created up front (the views are taken
 * together), but only the shard holding the current position is seeked; the next one (the previous
 * one, in reverse) is positioned at its first (last) key only when the current one runs out. So a
 * short scan seeks one shard, as on a single RocksDB instance.
 *
 * <h2>Concurrency and close</h2>
 * Methods are serialised by a lock (not {@code synchronized}, so virtual threads unmount), which
 * makes {@link #close} safe from any thread. Every native call runs inside the shard's
 * reader guard: a single step of {@link #next()} or {@link #hasNext()} through {@link
 * Shard#direct}; opening, a {@link #seek} and each chunk of at most {@value #SESSION_PAIRS} pairs
 * of {@link #drainTo} in one <em>guard session</em>, which enters every shard's guard once and
 * then steps the engine iterators directly (a guard costs two atomic updates, as much as a short
 * step). The store registers the iterator before it creates any engine iterator, and on close it
 * marks itself closed, waits until no thread is inside a guard, and then calls {@link
 * #forceClose()}: from then on no thread can enter a guard, so freeing the engine iterators cannot
 * race a native call (no use-after-free), and a thread in the middle of {@link #next()} fails at
 * its next guard with {@link StoreClosedException}. Each engine iterator is freed exactly once, by
 * whoever wins its slot in {@link #released}; a user's close frees only inside a guard, so never
 * after the store has begun closing engines.
 *
 * <h2>One-shot reads</h2>
 * {@link #readOnce} (a {@code scan} or a {@code range} with a limit of at most {@value
 * #SESSION_PAIRS}) creates, positions, reads and frees its engine iterators inside one guard
 * session. Close cannot free an engine while that session lasts, and nothing native outlives it,
 * so such a read is neither registered with the store nor locked: it never escapes its thread.
 */
public final class StoreIterator implements Iterator<KeyValue>, AutoCloseable {
  /**
   * Most pairs one guard session reads: the longest a store's close waits for a reader, and the
   * largest one-shot read ({@link #readOnce}).
   */
  static final int SESSION_PAIRS = 256;

  private static final int OPEN = 0;
  private static final int CLOSED = 1;
  private static final int FORCE_CLOSED = 2;

  private static final VarHandle STATE;

  static {
    try {
      STATE = MethodHandles.lookup().findVarHandle(StoreIterator.class, "state", int.class);
    } catch (ReflectiveOperationException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private final Shard[] shards;
  private final EngineIterator[] cursors;
  private final AtomicIntegerArray released;
  private final byte[][] keys;
  private final byte[][] values;
  private final SourceHeap heap;
  /** The heap top was returned by next() and must be advanced before the heap is used again. */
  private boolean topConsumed;
  private final boolean reverse;
  /** Range partitioning: shards in key order, read one after the other; null to merge. */
  private final Partitioner sequential;
  private final byte[] lower;
  private final byte[] upper;
  private final Set<StoreIterator> registry;
  private final String storeName;
  private final ReentrantLock lock = new ReentrantLock();
  private volatile int state = OPEN;
  /** The cursor step {@link #onShard} runs: which shard, what, and the seek target. */
  private int stepIndex;
  private int stepHow;
  private byte[] stepAt;
  /** True while this thread holds every shard's reader guard: steps call the engine directly. */
  private boolean inSession;

  private StoreIterator(
      Shard[] shards,
      Partitioner sequential,
      byte[] lower,
      byte[] upper,
      boolean reverse,
      Set<StoreIterator> registry,
      String storeName) {
    this.shards = shards;
    this.sequential = sequential;
    this.cursors = new EngineIterator[shards.length];
    this.released = new AtomicIntegerArray(shards.length);
    this.keys = new byte[shards.length][];
    this.values = new byte[shards.length][];
    this.heap = new SourceHeap(shards.length, i -> keys[i], reverse);
    this.lower = lower;
    this.upper = upper;
    this.reverse = reverse;
    this.registry = registry;
    this.storeName = storeName;
  }

  /**
   * Opens a merged iterator positioned at the start of its range (the end for a reverse one).
   *
   * @param shards the shards the range touches, in index order; none for an empty range
   * @param sequential the range partitioner if shards hold disjoint key ranges in index order
   *     (read them one after the other), or null to merge them
   * @param lower inclusive lower bound or null
   * @param upper exclusive upper bound or null
   * @param reverse true to iterate from the largest key down
   * @param registry the store's open iterators; this one is added before any native resource
   *     exists, removed when closed
   * @param storeName for messages
   * @return the iterator
   */
  static StoreIterator open(
      Shard[] shards,
      Partitioner sequential,
      byte[] lower,
      byte[] upper,
      boolean reverse,
      Set<StoreIterator> registry,
      String storeName) {
    StoreIterator it = new StoreIterator(shards, sequential, lower, upper, reverse, registry, storeName);
    if (shards.length == 0) {
      return it;
    }
    registry.add(it);
    boolean opened = false;
    try {
      it.enterAll();
      try {
        it.createAll();
        it.position(null);
      } finally {
        it.exitAll();
      }
      opened = true;
      return it;
    } finally {
      if (!opened) {
        it.abandon();
      }
    }
  }

  /**
   * A one-shot ordered read on the caller's thread: appends up to {@code limit} pairs of {@code
   * [lower, upper)} to {@code out}, in key order. Creates, reads and frees its engine iterators
   * inside one guard session, so it needs no registration (see "One-shot reads").
   *
   * @param shards the shards the range touches, in index order
   * @param sequential as for {@link #open}
   * @param lower inclusive lower bound or null
   * @param upper exclusive upper bound or null
   * @param out the list to fill
   * @param limit most pairs, at most {@link #SESSION_PAIRS}
   * @param storeName for messages
   */
  static void readOnce(
      Shard[] shards, Partitioner sequential, byte[] lower, byte[] upper, List<KeyValue> out, int limit, String storeName) {
    if (limit > SESSION_PAIRS) {
      throw new IllegalArgumentException("one-shot reads hold at most " + SESSION_PAIRS + " pairs: " + limit);
    }
    if (shards.length == 0) {
      return;
    }
    StoreIterator it = new StoreIterator(shards, sequential, lower, upper, false, null, storeName);
    it.enterAll();
    try {
      boolean read = false;
      try {
        it.createAll();
        it.position(null);
        it.drainInSession(out, limit);
        read = true;
      } finally {
        it.state = CLOSED;
        if (read) {
          it.freeInSession();
        } else {
          try {
            it.freeInSession();
          } catch (RuntimeException ignored) {
            // The failure that stopped the read is the one to report.
          }
        }
      }
    } finally {
      it.exitAll();
    }
  }

  // ---------------------------------------------------------------- reading

  /**
   * Whether another pair remains.
   *
   * @return true if {@link #next()} returns a pair
   */
  @Override
  public boolean hasNext() {
    lock.lock();
    try {
      checkUsable();
      settleTop();
      return heap.size() > 0;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The next pair in iteration order.
   *
   * @return the pair
   * @throws NoSuchElementException if none remains
   */
  @Override
  public KeyValue next() {
    lock.lock();
    try {
      checkUsable();
      settleTop();
      if (heap.size() == 0) {
        throw new NoSuchElementException("no more keys in the range");
      }
      return takeTop();
    } finally {
      lock.unlock();
    }
  }

  /**
   * Appends pairs to {@code out} until it holds {@code limit} pairs or the range ends. Reads exactly
   * what it returns plus, at most, one entry per shard.
   *
   * @param out the list to fill
   * @param limit the size {@code out} may reach
   */
  public void drainTo(List<KeyValue> out, int limit) {
    lock.lock();
    try {
      checkUsable();
      while (out.size() < limit) {
        enterAll();
        try {
          if (!drainInSession(out, Math.min(limit, out.size() + SESSION_PAIRS))) {
            return;
          }
        } finally {
          exitAll();
        }
      }
    } finally {
      lock.unlock();
    }
  }

  /** Fills {@code out} up to {@code limit} inside a guard session; false once the range ended. */
  private boolean drainInSession(List<KeyValue> out, int limit) {
    while (out.size() < limit) {
      settleTop();
      if (heap.size() == 0) {
        return false;
      }
      out.add(takeTop());
    }
    return true;
  }

  /**
   * Repositions every shard's cursor within its view: forward, at the first key {@code >= target};
   * reverse, at the last key {@code <= target}; clamped to the bounds.
   *
   * @param target the key
   */
  public void seek(byte[] target) {
    lock.lock();
    try {
      checkUsable();
      topConsumed = false;
      enterAll();
      try {
        position(target);
      } finally {
        exitAll();
      }
    } finally {
      lock.unlock();
    }
  }

  private KeyValue takeTop() {
    int i = heap.top();
    topConsumed = true;
    // The arrays go to the caller; this cursor reads new ones before the heap compares it again.
    return new KeyValue(keys[i], values[i]);
  }

  private void settleTop() {
    if (!topConsumed) {
      return;
    }
    int i = heap.top();
    if (inSession) {
      advanceInSession(i);
    } else {
      onShard(i, NEXT, null);
    }
    topConsumed = false;
    if (sequential != null) {
      settleSequential(i);
    } else if (keys[i] == null) {
      heap.removeTop();
    } else {
      heap.topAdvanced();
    }
  }

  /** Sequential mode: from cursor i on, the first that has an entry becomes the only heap item. */
  private void settleSequential(int i) {
    while (keys[i] == null) {
      i += reverse ? -1 : 1;
      if (i < 0 || i >= cursors.length) {
        heap.clear();
        return;
      }
      onShard(i, reverse ? LAST : FIRST, null);
    }
    heap.setOnly(i);
  }

  private void checkUsable() {
    int s = state;
    if (s == CLOSED) {
      throw new IllegalStateException("iterator is closed");
    }
    if (s == FORCE_CLOSED) {
      throw new StoreClosedException("store " + storeName + " is closed, and its open iterators with it");
    }
  }

  // ---------------------------------------------------------------- cursors (native calls)

  private static final int SEEK = 0;
  private static final int SEEK_FOR_PREV = 1;
  private static final int FIRST = 2;
  private static final int LAST = 3;
  private static final int NEXT = 4;
  private static final int CREATE = 5;

  private void position(byte[] target) {
    if (cursors.length == 0) {
      return;
    }
    int how;
    byte[] at = null;
    if (!reverse) {
      at = target == null || (lower != null && Arrays.compareUnsigned(target, lower) < 0) ? lower : target;
      if (at != null && upper != null && Arrays.compareUnsigned(at, upper) >= 0) {
        exhaustAll();
        return;
      }
      how = at == null ? FIRST : SEEK;
    } else if (target == null || (upper != null && Arrays.compareUnsigned(target, upper) >= 0)) {
      how = LAST;
    } else if (lower != null && Arrays.compareUnsigned(target, lower) < 0) {
      exhaustAll();
      return;
    } else {
      how = SEEK_FOR_PREV;
      at = target;
    }
    if (sequential != null) {
      // Only the shard holding the start position is seeked now; the others when reached.
      Arrays.fill(keys, null);
      Arrays.fill(values, null);
      int first = shards[0].index;
      int start =
          switch (how) {
            case FIRST -> 0;
            case LAST -> cursors.length - 1;
            default -> Math.max(0, Math.min(cursors.length - 1, sequential.shardOf(at) - first));
          };
      onShard(start, how, at);
      settleSequential(start);
      return;
    }
    for (int i = 0; i < cursors.length; i++) {
      onShard(i, how, at);
    }
    heapify();
  }

  /**
   * Runs one cursor step inside the shard's reader guard ({@link Shard#direct}); the step's
   * parameters travel in fields (the iterator is used by one thread at a time), so no call
   * allocates.
   */
  private void onShard(int i, int how, byte[] at) {
    stepIndex = i;
    stepHow = how;
    stepAt = at;
    try {
      if (inSession) {
        Shard shard = shards[i];
        try {
          step(shard.engine);
        } catch (EngineException e) {
          throw Errors.shardFailed(shard.index, e);
        }
      } else {
        shards[i].direct(STEP, this);
      }
    } finally {
      stepAt = null;
    }
  }

  /** The hot step of a guard session: moves cursor i on by one entry and loads it. */
  private void advanceInSession(int i) {
    EngineIterator c = cursors[i];
    try {
      if (reverse) {
        c.prev();
      } else {
        c.next();
      }
      load(i, c);
    } catch (EngineException e) {
      throw Errors.shardFailed(shards[i].index, e);
    }
  }

  /** Creates every shard's engine iterator, back to back (the views are taken together). */
  private void createAll() {
    for (int i = 0; i < shards.length; i++) {
      onShard(i, CREATE, null);
    }
  }

  /**
   * Enters every shard's reader guard, in index order, for a guard session; on failure (the store
   * is closing or failed) leaves those entered and throws.
   */
  private void enterAll() {
    int entered = 0;
    try {
      for (; entered < shards.length; entered++) {
        shards[entered].enterDirect();
      }
    } catch (RuntimeException | Error e) {
      for (int j = entered - 1; j >= 0; j--) {
        shards[j].exitDirect();
      }
      throw e;
    }
    inSession = true;
  }

  /** Ends a guard session. */
  private void exitAll() {
    inSession = false;
    for (int j = shards.length - 1; j >= 0; j--) {
      shards[j].exitDirect();
    }
  }

  /** Frees every engine iterator not yet freed; inside a guard session (one-shot reads). */
  private void freeInSession() {
    RuntimeException first = null;
    for (int i = 0; i < cursors.length; i++) {
      EngineIterator c = cursors[i];
      if (c != null && released.compareAndSet(i, 0, 1)) {
        try {
          c.close();
        } catch (RuntimeException e) {
          if (first == null) {
            first = e;
          }
        }
      }
    }
    Arrays.fill(keys, null);
    Arrays.fill(values, null);
    heap.clear();
    if (first != null) {
      throw first;
    }
  }

  private static final Shard.DirectCall<StoreIterator, Void> STEP =
      (engine, it) -> {
        it.step(engine);
        return null;
      };

  private void step(Engine engine) {
    int i = stepIndex;
    if (stepHow == CREATE) {
      // Forward iteration only moves up from a seek clamped to the lower bound, so only the upper
      // bound is native; without one the engine can hand out a pooled, refreshed iterator.
      cursors[i] = engine.newIterator(reverse ? lower : null, upper);
      return;
    }
    EngineIterator c = cursors[i];
    switch (stepHow) {
      case SEEK -> c.seek(stepAt);
      case SEEK_FOR_PREV -> c.seekForPrev(stepAt);
      case FIRST -> c.seekToFirst();
      case LAST -> c.seekToLast();
      default -> {
        if (reverse) {
          c.prev();
        } else {
          c.next();
        }
      }
    }
    load(i, c);
  }

  private void load(int i, EngineIterator c) {
    if (c.valid()) {
      keys[i] = c.key();
      values[i] = c.value();
    } else {
      keys[i] = null;
      values[i] = null;
    }
  }

  private void exhaustAll() {
    Arrays.fill(keys, null);
    Arrays.fill(values, null);
    heap.clear();
  }

  private void heapify() {
    heap.clear();
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] != null) {
        heap.add(i);
      }
    }
    heap.heapify();
  }

  // ---------------------------------------------------------------- close

  /** Frees the engine iterators. Idempotent; safe from any thread. */
  @Override
  public void close() {
    lock.lock();
    try {
      if (STATE.compareAndSet(this, OPEN, CLOSED)) {
        releaseAll();
      }
    } finally {
      lock.unlock();
    }
  }

  /** A failed open: free what was created, keep the open failure's exception. */
  private void abandon() {
    state = CLOSED;
    try {
      releaseAll();
    } catch (RuntimeException ignored) {
      // The failure that made open abandon us is the one to report.
    }
  }

  /**
   * Frees each engine iterator inside its shard's guard. A shard whose guard refuses entry (the
   * store is closing or failed) is left to {@link #forceClose()}, and so is this iterator's place
   * in the registry.
   */
  private void releaseAll() {
    boolean all = true;
    for (int i = 0; i < cursors.length; i++) {
      if (cursors[i] == null || released.get(i) != 0) {
        continue;
      }
      Shard s = shards[i];
      try {
        s.enterDirect();
      } catch (P2kvException notOpen) {
        all = false;
        continue;
      }
      try {
        if (released.compareAndSet(i, 0, 1)) {
          cursors[i].close();
        }
      } finally {
        s.exitDirect();
      }
    }
    Arrays.fill(keys, null);
    Arrays.fill(values, null);
    heap.clear();
    if (all) {
      registry.remove(this);
    }
  }

  /**
   * Called by the closing store once no thread is inside any shard's guard and none can enter:
   * frees every engine iterator not yet freed. Does not take the lock (a thread holding it fails at
   * its next guard).
   *
   * @return true if the application had left this iterator open
   */
  boolean forceClose() {
    boolean wasOpen = STATE.compareAndSet(this, OPEN, FORCE_CLOSED);
    for (int i = 0; i < cursors.length; i++) {
      EngineIterator c = cursors[i];
      if (c != null && released.compareAndSet(i, 0, 1)) {
        c.close();
      }
    }
    return wasOpen;
  }
}
