package io.p2kv.internal;

import java.util.concurrent.atomic.AtomicLong;
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
 *
 * <h2>One word per slot</h2>
 * A slot is one {@code long}: the low {@value #INSIDE_BITS} bits count the threads inside, the
 * bits above count the direct reads served (the statistic). A point read enters and counts itself
 * with one atomic add ({@link #enterAndCount}), then leaves with another: two atomic updates per
 * get instead of three. So that the read count never runs into the sign bit, a thread that finds
 * its slot's count past {@code 2^38} moves {@code 2^38} of it into {@link #spilled} (once in
 * hundreds of billions of reads).
 */
final class ReaderGuard {
  /** Longs per slot: 128 bytes, so neighbouring slots never share a cache line. */
  private static final int PAD = 16;

  /** Bits of a slot that count the threads inside (16 M threads at once per slot). */
  static final int INSIDE_BITS = 24;

  private static final long INSIDE_MASK = (1L << INSIDE_BITS) - 1;
  private static final long READ = 1L << INSIDE_BITS;

  private final AtomicLongArray slots;
  private final AtomicLong spilled = new AtomicLong();
  private final int mask;
  /** Reads a slot may count before they are moved to {@link #spilled}. */
  private final long spillReads;

  ReaderGuard() {
    this(1L << 38);
  }

  /**
   * A guard whose slots spill their read counts every {@code spillReads} reads (tests; the store
   * uses {@code 2^38}).
   */
  ReaderGuard(long spillReads) {
    if (spillReads <= 0 || spillReads > (1L << 38)) {
      throw new IllegalArgumentException("spillReads " + spillReads);
    }
    this.spillReads = spillReads;
    // Enough slots that a few dozen caller threads rarely share one: threads on different cores
    // sharing a slot bounce its cache line on every read.
    int n = Integer.highestOneBit(Math.max(64, Runtime.getRuntime().availableProcessors() * 8) - 1) << 1;
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
    slots.getAndIncrement(slot());
  }

  void exit() {
    slots.getAndDecrement(slot());
  }

  /**
   * Enters and counts {@code reads} direct reads in one atomic update. Pair with {@link #exit()}
   * if the reads were served, with {@link #exitUncounted} if not.
   *
   * @param reads reads to count, at least 0
   */
  void enterAndCount(long reads) {
    int slot = slot();
    long before = slots.getAndAdd(slot, 1 + reads * READ);
    if (before >= spillReads * READ) {
      spill(slot);
    }
  }

  /** Leaves after {@link #enterAndCount} without counting its reads (they failed). */
  void exitUncounted(long reads) {
    slots.getAndAdd(slot(), -1 - reads * READ);
  }

  /** Adds to the direct-read statistic (same slot, same cache line as the enter just made). */
  void countReads(long n) {
    slots.getAndAdd(slot(), n * READ);
  }

  private void spill(int slot) {
    long v;
    do {
      v = slots.get(slot);
      if (v < spillReads * READ) {
        return;
      }
    } while (!slots.compareAndSet(slot, v, v - spillReads * READ));
    spilled.addAndGet(spillReads);
  }

  long reads() {
    long sum = spilled.get();
    for (int i = 0; i < slots.length(); i += PAD) {
      sum += slots.get(i) >>> INSIDE_BITS;
    }
    return sum;
  }

  /** Whether no thread is inside (call after marking the store closed). */
  boolean idle() {
    for (int i = 0; i < slots.length(); i += PAD) {
      if ((slots.get(i) & INSIDE_MASK) != 0) {
        return false;
      }
    }
    return true;
  }
}
