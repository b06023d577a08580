package io.p2kv.internal;

import io.p2kv.KeyValue;
import io.p2kv.StoreClosedException;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineException;
import io.p2kv.internal.engine.EngineIterator;
import io.p2kv.internal.engine.EngineSnapshot;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
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
 * Cursors#forceClose()}: from then on no thread can enter a guard, so freeing the engine iterators
 * cannot race a native call (no use-after-free), and a thread in the middle of {@link #next()}
 * fails at its next guard with {@link StoreClosedException}. Each engine iterator is freed exactly
 * once, by whoever wins its slot in {@link Cursors#released}; a user's close frees only inside a
 * guard, so never after the store has begun closing engines.
 *
 * <h2>Abandoned iterators</h2>
 * What must be freed lives in {@link Cursors}: the engine iterators, the close state and the lock.
 * The store's registry ({@link OpenIterators}) and the {@link LeakCleaner} hold the {@code
 * Cursors}, never this object, which only the application's {@code KvIterator} references. So
 * when the application drops an iterator without closing it, this object becomes unreachable and,
 * after a garbage collection finds that, the cleaner's thread runs {@link Cursors#run()}: the
 * application's close (the lock, the state CAS, each engine iterator freed inside its shard's
 * guard), after which the store counts and reports the leak. The races are those of a user's
 * close:
 *
 * <ul>
 *   <li>the application's close ends with {@link Cleaner.Cleanable#clean()}, which runs the action
 *       at most once, and the action finds the iterator closed;
 *   <li>a store closing concurrently either waits for the action (inside a guard for one native
 *       close, it never blocks there) or refuses it entry, and then {@link Cursors#forceClose()}
 *       frees what is left, slot by slot; an action that runs after the store closed finds the
 *       iterator force-closed and does nothing. So no engine iterator is freed twice or after its
 *       engine closed.
 * </ul>
 *
 * The public methods keep this object reachable until they return ({@link
 * Reference#reachabilityFence}), so the action never runs while one of them executes.
 *
 * <h2>One-shot reads</h2>
 * {@link #readOnce} (a {@code scan} or a {@code range} with a limit of at most {@value
 * #SESSION_PAIRS}) creates, positions, reads and frees its engine iterators inside one guard
 * session. Close cannot free an engine while that session lasts, and nothing native outlives it,
 * so such a read is neither registered with the store nor locked: it never escapes its thread.
 * A merged one reads each shard's share of the limit right after that shard's seek ({@link
 * #readAhead}), so it may read up to one share per shard that it does not return (at most twice
 * the limit in all) in exchange for walking each shard's blocks in one run. A read of one shard
 * (every read of a one-shard store, the default on two cores) builds none of this: {@link
 * #readOneShard} runs the engine iterator's own loop inside the shard's guard.
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

  /** What must be freed; shared with the registry and the cleaner (see "Abandoned iterators"). */
  private final Cursors natives;
  private final Shard[] shards;
  /** The engine iterators: {@link Cursors#engineIterators}, read without the indirection. */
  private final EngineIterator[] cursors;
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
  /** A snapshot's views, by shard index, to read instead of the latest state; or null. */
  private final EngineSnapshot[] views;
  private final String storeName;
  /** {@link Cursors#lock}. */
  private final ReentrantLock lock;
  /** The cleaner's registration of a registered iterator; null for one-shot and empty ones. */
  private final Cleaner.Cleanable cleanable;
  /** The cursor step {@link #onShard} runs: which shard, what, and the seek target. */
  private int stepIndex;
  private int stepHow;
  private byte[] stepAt;
  /** True while this thread holds every shard's reader guard: steps call the engine directly. */
  private boolean inSession;
  /** A one-shot merged read's entries read past each cursor's head ({@link #readAhead}); or null. */
  private ReadAhead ahead;

  private StoreIterator(
      Shard[] shards,
      Partitioner sequential,
      byte[] lower,
      byte[] upper,
      boolean reverse,
      EngineSnapshot[] views,
      OpenIterators registry,
      String storeName) {
    this.natives = new Cursors(shards, registry, registry == null ? null : registry.creationTrace());
    this.views = views;
    this.shards = shards;
    this.sequential = sequential;
    this.cursors = natives.engineIterators;
    this.lock = natives.lock;
    this.keys = new byte[shards.length][];
    this.values = new byte[shards.length][];
    this.heap = new SourceHeap(shards.length, i -> keys[i], reverse);
    this.lower = lower;
    this.upper = upper;
    this.reverse = reverse;
    this.storeName = storeName;
    // The action is the Cursors, which do not reference this iterator.
    this.cleanable = registry == null ? null : LeakCleaner.register(this, natives);
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
   * @param views a snapshot's engine views, by shard index, or null to read the latest state
   * @param registry the store's open iterators; this one's {@link Cursors} are added before any
   *     native resource exists, removed when closed; the iterator is also watched by the {@link
   *     LeakCleaner}
   * @param storeName for messages
   * @return the iterator
   */
  static StoreIterator open(
      Shard[] shards,
      Partitioner sequential,
      byte[] lower,
      byte[] upper,
      boolean reverse,
      EngineSnapshot[] views,
      OpenIterators registry,
      String storeName) {
    StoreIterator it =
        new StoreIterator(
            shards, sequential, lower, upper, reverse, views, shards.length == 0 ? null : registry, storeName);
    if (shards.length == 0) {
      return it;
    }
    registry.add(it.natives);
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
        it.natives.abandon();
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
   * @param views a snapshot's engine views, by shard index, or null to read the latest state
   * @param storeName for messages
   */
  static void readOnce(
      Shard[] shards,
      Partitioner sequential,
      byte[] lower,
      byte[] upper,
      List<KeyValue> out,
      int limit,
      EngineSnapshot[] views,
      String storeName) {
    if (limit > SESSION_PAIRS) {
      throw new IllegalArgumentException("one-shot reads hold at most " + SESSION_PAIRS + " pairs: " + limit);
    }
    if (shards.length == 0) {
      return;
    }
    if (shards.length == 1) {
      Shard shard = shards[0];
      readOneShard(shard, views == null ? null : views[shard.index], lower, upper, out, limit);
      return;
    }
    StoreIterator it = new StoreIterator(shards, sequential, lower, upper, false, views, null, storeName);
    it.enterAll();
    try {
      boolean read = false;
      try {
        it.createAll();
        if (sequential == null) {
          it.readAhead(limit);
        }
        it.position(null);
        it.drainInSession(out, limit);
        read = true;
      } finally {
        it.natives.state = CLOSED;
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

  /**
   * {@link #readOnce} on one shard (every range of a one-shard store, and a range that falls in one
   * shard of a range-partitioned one): the engine iterator's own loop inside the shard's reader
   * guard, with nothing to merge, so a scan costs what a scan of one RocksDB instance costs plus
   * the guard. Reads exactly the pairs it returns, and steps past the last one only when more are
   * wanted.
   */
  private static void readOneShard(
      Shard shard, EngineSnapshot view, byte[] lower, byte[] upper, List<KeyValue> out, int limit) {
    shard.enterDirect();
    try {
      EngineIterator c = null;
      boolean read = false;
      try {
        // Forward from a seek at the lower bound: only the upper bound is native (see step).
        c = view == null ? shard.engine.newIterator(null, upper) : view.newIterator(null, upper);
        if (lower == null) {
          c.seekToFirst();
        } else {
          c.seek(lower);
        }
        int n = out.size();
        while (n < limit && c.valid()) {
          out.add(new KeyValue(c.key(), c.value()));
          if (++n < limit) {
            c.next();
          }
        }
        read = true;
      } catch (EngineException e) {
        throw Errors.shardFailed(shard.index, e);
      } finally {
        if (c != null) {
          closeAfterRead(c, read, shard.index);
        }
      }
    } finally {
      shard.exitDirect();
    }
  }

  /** Frees a one-shard read's engine iterator; a failure to free is thrown only if the read did not fail. */
  private static void closeAfterRead(EngineIterator c, boolean read, int shardIndex) {
    try {
      c.close();
    } catch (EngineException e) {
      if (read) {
        throw Errors.shardFailed(shardIndex, e);
      }
    } catch (RuntimeException e) {
      if (read) {
        throw e;
      }
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
      Reference.reachabilityFence(this);
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
      Reference.reachabilityFence(this);
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
      Reference.reachabilityFence(this);
    }
  }

  /** Fills {@code out} up to {@code limit} inside a guard session; false once the range ended. */
  private boolean drainInSession(List<KeyValue> out, int limit) {
    if (cursors.length == 1 && ahead == null) {
      return drainOneInSession(out, limit);
    }
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
   * {@link #drainInSession} over one shard: its cursor's head is the only heap entry, so the loop
   * steps the engine iterator and hands out its entries without the heap, which it leaves as the
   * merge would (the head, or empty once the range ended).
   */
  private boolean drainOneInSession(List<KeyValue> out, int limit) {
    int n = out.size();
    while (n < limit) {
      if (topConsumed) {
        topConsumed = false;
        advanceInSession(0);
        if (keys[0] == null) {
          heap.clear();
          return false;
        }
      } else if (heap.size() == 0) {
        return false;
      }
      out.add(new KeyValue(keys[0], values[0]));
      topConsumed = true;
      n++;
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
      Reference.reachabilityFence(this);
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
    int s = natives.state;
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
      if (ahead != null && keys[i] != null) {
        try {
          ahead.fill(i, cursors[i]);
        } catch (EngineException e) {
          throw Errors.shardFailed(shards[i].index, e);
        }
      }
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

  /**
   * Prepares a one-shot merged read of up to {@code limit} pairs to read ahead: {@link #position}
   * then reads each shard's share ({@code limit} over the shard count, its head included) right
   * after that shard's seek, back to back, so each engine iterator walks its data blocks in one
   * run (while the block its seek found is still in the CPU's caches) instead of one entry per
   * merge step. The merge takes the entries from these buffers, and steps a cursor only once its
   * share is used up. Costs at most a share per shard of entries read and not returned. A read of
   * one shard is left as it was.
   */
  private void readAhead(int limit) {
    int share = limit / cursors.length;
    if (cursors.length > 1 && share >= 2) { // one shard: the merge steps its only cursor anyway
      ahead = new ReadAhead(cursors.length, share - 1);
    }
  }

  /** The hot step of a guard session: moves cursor i on by one entry and loads it. */
  private void advanceInSession(int i) {
    if (ahead != null && ahead.take(i, keys, values)) {
      return;
    }
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
      if (c != null && natives.released.compareAndSet(i, 0, 1)) {
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
      byte[] from = reverse ? lower : null;
      cursors[i] = views == null ? engine.newIterator(from, upper) : views[shards[i].index].newIterator(from, upper);
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

  /**
   * Entries read ahead of each cursor's head by {@link #readAhead}: per cursor, the entries after
   * its head in key order, and whether its range ended among them (then the engine iterator is no
   * longer valid and must not be stepped).
   */
  private static final class ReadAhead {
    private final byte[][][] keys;
    private final byte[][][] values;
    private final int[] taken;
    private final int[] read;
    private final boolean[] ended;

    ReadAhead(int cursors, int capacity) {
      this.keys = new byte[cursors][capacity][];
      this.values = new byte[cursors][capacity][];
      this.taken = new int[cursors];
      this.read = new int[cursors];
      this.ended = new boolean[cursors];
    }

    /** Reads up to the capacity of entries after the head cursor {@code c} is on. */
    void fill(int i, EngineIterator c) {
      byte[][] k = keys[i];
      byte[][] v = values[i];
      int n = 0;
      while (n < k.length) {
        c.next();
        if (!c.valid()) {
          ended[i] = true;
          break;
        }
        k[n] = c.key();
        v[n] = c.value();
        n++;
      }
      read[i] = n;
    }

    /**
     * Moves cursor i's head to its next entry read ahead, or past the end of its range.
     *
     * @return false if neither: the engine iterator must be stepped
     */
    boolean take(int i, byte[][] heads, byte[][] headValues) {
      int t = taken[i];
      if (t < read[i]) {
        heads[i] = keys[i][t];
        headValues[i] = values[i][t];
        taken[i] = t + 1;
        return true;
      }
      if (ended[i]) {
        heads[i] = null;
        headValues[i] = null;
        return true;
      }
      return false;
    }
  }

  // ---------------------------------------------------------------- close

  /** Frees the engine iterators. Idempotent; safe from any thread. */
  @Override
  public void close() {
    lock.lock();
    try {
      if (natives.closeLocked()) {
        exhaustAll();
      }
    } finally {
      lock.unlock();
    }
    if (cleanable != null) {
      // Unregisters from the cleaner; the action, run here at most once, finds us closed.
      cleanable.clean();
    }
  }

  /**
   * The native side of an iterator: its engine iterators and their close state, apart from the
   * {@link StoreIterator} the application reaches, so that the store's registry and the cleaner
   * can hold them without keeping the iterator reachable. As the cleaner's action ({@link #run()})
   * they free themselves when the iterator was dropped without a close.
   */
  static final class Cursors implements Runnable, OpenIterators.Registered {
    private static final VarHandle STATE;

    static {
      try {
        STATE = MethodHandles.lookup().findVarHandle(Cursors.class, "state", int.class);
      } catch (ReflectiveOperationException e) {
        throw new ExceptionInInitializerError(e);
      }
    }

    private final Shard[] shards;
    /** One engine iterator per shard, created by the iterator's first guard session. */
    final EngineIterator[] engineIterators;
    /** 1 where the engine iterator was freed (whoever sets it frees it). */
    final AtomicIntegerArray released;
    /** Serialises the iterator's methods and its close, by the application or the cleaner. */
    final ReentrantLock lock = new ReentrantLock();
    volatile int state = OPEN;
    /** The store's open iterators; null for a one-shot read or an empty range (never registered). */
    private final OpenIterators registry;
    /** Where the iterator was created, when the store detects leaks; else null. */
    private final Throwable createdAt;

    Cursors(Shard[] shards, OpenIterators registry, Throwable createdAt) {
      this.shards = shards;
      this.engineIterators = new EngineIterator[shards.length];
      this.released = new AtomicIntegerArray(shards.length);
      this.registry = registry;
      this.createdAt = createdAt;
    }

    /**
     * The cleaner's action: runs once, either from {@link StoreIterator#close()} (the iterator is
     * closed already: nothing to do) or on the cleaner's thread after the iterator became
     * unreachable while open: then closes it as the application would have, and reports the leak.
     */
    @Override
    public void run() {
      if (state == OPEN) {
        registry.reclaim(this, lock, this::closeLocked);
      }
    }

    /**
     * Closes if open: the state CAS, then the engine iterators. Call holding {@link #lock}.
     *
     * @return true if this call closed it
     */
    boolean closeLocked() {
      if (STATE.compareAndSet(this, OPEN, CLOSED)) {
        releaseAll();
        return true;
      }
      return false;
    }

    @Override
    public Throwable createdAt() {
      return createdAt;
    }

    @Override
    public String kind() {
      return "iterator";
    }

    /** A failed open: free what was created, keep the open failure's exception. */
    void abandon() {
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
      boolean all = Shard.releaseEach(shards, engineIterators, released, EngineIterator::close);
      if (all && registry != null) {
        registry.remove(this);
      }
    }

    /**
     * Called by the closing store once no thread is inside any shard's guard and none can enter:
     * frees every engine iterator not yet freed. Does not take the lock (a thread holding it fails
     * at its next guard).
     *
     * @return true if the application had left this iterator open
     */
    @Override
    public boolean forceClose() {
      boolean wasOpen = STATE.compareAndSet(this, OPEN, FORCE_CLOSED);
      for (int i = 0; i < engineIterators.length; i++) {
        EngineIterator c = engineIterators[i];
        if (c != null && released.compareAndSet(i, 0, 1)) {
          c.close();
        }
      }
      return wasOpen;
    }
  }
}
