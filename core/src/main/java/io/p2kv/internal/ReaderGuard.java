package io.p2kv.internal;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Counts the caller threads inside one shard's engine (direct reads, iterator steps, stats), so
 * that {@code close()} never frees the engine under them.
 *
 * <h2>Why not a LongAdder</h2>
 * A {@code LongAdder} summed by the closer is not a snapshot: a thread that enters late (it will
 * see the store closed and leave without touching the engine) may increment one cell and, after a
 * contention rehash, decrement another, and the closer can count that decrement but not the
 * increment, cancelling out a reader that is really inside. Here a thread always uses the same
 * slot (chosen from its id), so its enter and exit touch the same counter; a slot reads zero only
 * when none of its threads is inside or entering. Slots are padded to separate cache lines, so
 * unrelated threads rarely share one.
 *
 * <h2>Protocol</h2>
 * A caller increments its slot (a full fence), then checks the store state; the closer marks the
 * store closed, then reads every slot. Either the closer sees the caller's increment and waits for
 * its exit, or the caller sees the store closed and leaves.
 */
final class ReaderGuard {
  /** Longs per slot: 128 bytes, so neighbouring slots never share a cache line. */
  private static final int PAD = 16;

  private static final int INSIDE = 0;
  private static final int READS = 1;

  private final AtomicLongArray slots;
  private final int mask;

  ReaderGuard() {
    int n = Integer.highestOneBit(Math.max(8, Runtime.getRuntime().availableProcessors() * 4) - 1) << 1;
    this.slots = new AtomicLongArray(n * PAD);
    this.mask = n - 1;
  }

  @SuppressWarnings("deprecation") // Thread.getId: threadId() is JDK 19+, the library targets 17
  private int slot() {
    long id = Thread.currentThread().getId();
    id *= 0x9E3779B97F4A7C15L;
    return ((int) (id >>> 40) & mask) * PAD;
  }

  void enter() {
    slots.getAndIncrement(slot() + INSIDE);
  }

  void exit() {
    slots.getAndDecrement(slot() + INSIDE);
  }

  /** Adds to the direct-read statistic (same slot, same cache line as the enter just made). */
  void countReads(long n) {
    slots.getAndAdd(slot() + READS, n);
  }

  long reads() {
    long sum = 0;
    for (int i = READS; i < slots.length(); i += PAD) {
      sum += slots.get(i);
    }
    return sum;
  }

  /** Whether no thread is inside (call after marking the store closed). */
  boolean idle() {
    for (int i = INSIDE; i < slots.length(); i += PAD) {
      if (slots.get(i) != 0) {
        return false;
      }
    }
    return true;
  }
}
