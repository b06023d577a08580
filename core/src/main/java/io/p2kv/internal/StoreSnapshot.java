package io.p2kv.internal;

import io.p2kv.KeyValue;
import io.p2kv.StoreClosedException;
import io.p2kv.internal.engine.EngineSnapshot;
import java.lang.ref.Cleaner;
import java.lang.ref.Reference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A consistent read view of the whole store: one engine snapshot per shard, all taken at one
 * {@link Cut}, so every read sees the same cut (its guarantee is in {@link Cut}'s Javadoc). Reads
 * run on the caller's thread, straight from the engine snapshots, and never use the value cache
 * (it holds the latest values).
 *
 * <h2>Concurrency and close</h2>
 * Any number of threads may read at once; each read holds the snapshot's read lock, and {@link
 * #close} takes the write lock, so an engine snapshot is never freed under a read. Every engine
 * call runs inside the shard's reader guard, as for iterators ({@link StoreIterator}): the store's
 * close marks itself closed, waits for the guards, and then frees the snapshots the application
 * left open ({@link Views#forceClose()}), so nothing is freed twice or after its engine. Iterators
 * opened from a snapshot are ordinary registered iterators over its views; they stay usable after
 * the snapshot is closed (each holds its own reference to the engine views).
 *
 * <h2>Abandoned snapshots</h2>
 * As for iterators: the registry and the {@link LeakCleaner} hold the {@link Views}, never this
 * object, so a snapshot the application drops open is closed by the cleaner's thread, counted and
 * logged.
 */
public final class StoreSnapshot implements AutoCloseable {
  private static final int OPEN = 0;
  private static final int CLOSED = 1;
  private static final int FORCE_CLOSED = 2;

  private final Views natives;
  private final ShardSet shards;
  private final OpenIterators registry;
  private final String storeName;
  private final Cleaner.Cleanable cleanable;

  StoreSnapshot(ShardSet shards, EngineSnapshot[] views, OpenIterators registry, String storeName) {
    this.natives = new Views(shards.all(), views, registry, registry.creationTrace("snapshot"));
    this.shards = shards;
    this.registry = registry;
    this.storeName = storeName;
    registry.add(natives);
    this.cleanable = LeakCleaner.register(this, natives);
  }

  /**
   * Point read at the cut.
   *
   * @param key key
   * @return the value or null
   */
  public byte[] get(byte[] key) {
    Lock l = natives.lock.readLock();
    l.lock();
    try {
      checkUsable();
      Shard s = shards.of(key);
      EngineSnapshot view = natives.views[s.index];
      return s.directRead((engine, k) -> view.get(k), key, 0);
    } finally {
      l.unlock();
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Point reads at the cut, one engine multiGet per shard.
   *
   * @param keys keys
   * @return values in the order of keys, null where absent
   */
  public List<byte[]> multiGet(List<byte[]> keys) {
    Lock l = natives.lock.readLock();
    l.lock();
    try {
      checkUsable();
      if (keys.isEmpty()) {
        return new ArrayList<>();
      }
      MultiGetScatter scatter = new MultiGetScatter(shards, keys);
      for (int s = 0; s < shards.count(); s++) {
        List<byte[]> ks = scatter.keysOf(s);
        if (!ks.isEmpty()) {
          EngineSnapshot view = natives.views[s];
          scatter.place(s, 0, shards.get(s).directRead((engine, k) -> view.multiGet(k), ks, 0));
        }
      }
      return scatter.values();
    } finally {
      l.unlock();
      Reference.reachabilityFence(this);
    }
  }

  /**
   * Ordered read at the cut, on the caller's thread.
   *
   * @param lower inclusive lower bound or null
   * @param upper exclusive upper bound or null
   * @param limit most pairs, at least 0
   * @return a new mutable list in key order
   */
  public List<KeyValue> range(byte[] lower, byte[] upper, int limit) {
    Lock l = natives.lock.readLock();
    l.lock();
    try {
      checkUsable();
      List<KeyValue> out = new ArrayList<>(Math.min(limit, 1024));
      if (limit == 0 || ShardSet.isEmptyRange(lower, upper)) {
        return out;
      }
      if (limit <= StoreIterator.SESSION_PAIRS) {
        StoreIterator.readOnce(
            shards.forRange(lower, upper), shards.sequential(), lower, upper, out, limit, natives.views, storeName);
        return out;
      }
      try (StoreIterator it = registry.open(shards, lower, upper, false, natives.views)) {
        it.drainTo(out, limit);
      }
      return out;
    } finally {
      l.unlock();
      Reference.reachabilityFence(this);
    }
  }

  /**
   * A merged iterator at the cut, registered with the store like any iterator.
   *
   * @param lower inclusive lower bound or null
   * @param upper exclusive upper bound or null
   * @param reverse true for descending order
   * @return the iterator
   */
  public StoreIterator openIterator(byte[] lower, byte[] upper, boolean reverse) {
    Lock l = natives.lock.readLock();
    l.lock();
    try {
      checkUsable();
      return registry.open(shards, lower, upper, reverse, natives.views);
    } finally {
      l.unlock();
      Reference.reachabilityFence(this);
    }
  }

  private void checkUsable() {
    int s = natives.state.get();
    if (s == CLOSED) {
      throw new IllegalStateException("snapshot is closed");
    }
    if (s == FORCE_CLOSED) {
      throw new StoreClosedException("store " + storeName + " is closed, and its open snapshots with it");
    }
  }

  /** Frees the engine snapshots. Idempotent; safe from any thread; waits for reads in progress. */
  @Override
  public void close() {
    Lock l = natives.lock.writeLock();
    l.lock();
    try {
      natives.closeLocked();
    } finally {
      l.unlock();
    }
    cleanable.clean();
  }

  /**
   * The native side of a snapshot: its engine views and close state, apart from the {@link
   * StoreSnapshot} the application reaches (see {@link StoreIterator.Cursors}, the same shape).
   */
  static final class Views implements Runnable, OpenIterators.Registered {
    private final Shard[] shards;
    final EngineSnapshot[] views;
    /** 1 where the view was freed (whoever sets it frees it). */
    private final AtomicIntegerArray released;
    final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    final AtomicInteger state = new AtomicInteger(OPEN);
    private final OpenIterators registry;
    private final Throwable createdAt;

    Views(Shard[] shards, EngineSnapshot[] views, OpenIterators registry, Throwable createdAt) {
      this.shards = shards;
      this.views = views;
      this.released = new AtomicIntegerArray(views.length);
      this.registry = registry;
      this.createdAt = createdAt;
    }

    /** The cleaner's action: closes a snapshot dropped open, as the application would, and reports it. */
    @Override
    public void run() {
      if (state.get() == OPEN) {
        registry.reclaim(this, lock.writeLock(), this::closeLocked);
      }
    }

    /**
     * Closes if open, freeing each view inside its shard's guard; a shard whose guard refuses (the
     * store is closing) is left to {@link #forceClose()}. Call holding the write lock.
     *
     * @return true if this call closed it
     */
    boolean closeLocked() {
      if (!state.compareAndSet(OPEN, CLOSED)) {
        return false;
      }
      boolean all = Shard.releaseEach(shards, views, released, EngineSnapshot::close);
      if (all) {
        registry.remove(this);
      }
      return true;
    }

    @Override
    public boolean forceClose() {
      boolean wasOpen = state.compareAndSet(OPEN, FORCE_CLOSED);
      for (int i = 0; i < views.length; i++) {
        if (released.compareAndSet(i, 0, 1)) {
          views[i].close();
        }
      }
      return wasOpen;
    }

    @Override
    public Throwable createdAt() {
      return createdAt;
    }

    @Override
    public String kind() {
      return "snapshot";
    }
  }
}
