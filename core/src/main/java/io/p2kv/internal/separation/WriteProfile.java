package io.p2kv.internal.separation;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * What one shard's writes look like: a histogram of value sizes, the key bytes, and how many
 * writes overwrite or delete a key written before. Fed by the shard's worker, which sees every
 * write; read by the separation tuner.
 *
 * <h2>Update ratio: adaptive distinct sampling</h2>
 * A key is sampled when the top {@code level} bits of its 64-bit hash are zero (a fraction
 * 2^-level of all keys, the same keys every time). Sampled keys are tracked exactly in a small
 * open-addressing table together with the tuning window of their last write; when the table is
 * half full, {@code level} goes up by one and the keys that no longer qualify are dropped (about
 * half), so the table holds a uniform sample of the distinct keys whatever their number. A
 * sampled put of a key last written in an earlier window, or a sampled delete of a known key, is
 * "garbage-producing": its previous version is most likely in an SST or blob file already.
 * Repeated puts of one key within a window are not: they overwrite each other in the memtable.
 * The window's update ratio is garbage-producing sampled writes per sampled write: unbiased, with
 * a noise that depends only on the number of samples (the tuner waits for enough).
 *
 * <h2>Cost on the worker (the hot path)</h2>
 * Per put: a bucket index from the value length (a leading-zeros count and two shifts), two array
 * increments, a key-bytes add, two compares against the medium class, a 64-bit hash of the key (8 bytes per step) and one comparison;
 * the rare sampled key also probes the table. Plain fields only: no allocation, no locks, no
 * volatile access per write, and the table and its rebuild scratch (144 KB per shard) are
 * allocated once. The occasional halving (once per doubling of the distinct keys seen) scans the
 * table once.
 *
 * <h2>Concurrency</h2>
 * Single writer (the worker). After each run of writes the worker calls {@link #publish()}: one
 * volatile store and one volatile load. {@link #snapshot()} starts with a volatile load of what
 * was published, so it sees at least every write of the runs published before it; a counter
 * written after that may or may not be seen, which only moves a write from one window to the
 * next. The tuner starts a new window with {@link #nextWindow()}; the worker adopts it at its next
 * publish. Counters are longs written by one thread, never torn on 64-bit JVMs.
 */
public final class WriteProfile {
  /** Buckets: exact sizes below 16 bytes, then four per power of two up to {@code Integer.MAX_VALUE}. */
  public static final int BUCKETS = 16 + 4 * (30 - 4 + 1);

  /** Slots of the sample table (a power of two). */
  private static final int SLOTS = 1 << 13;

  /** Entries at which the sampling level goes up (half the slots). */
  private static final int MAX_ENTRIES = SLOTS / 2;

  /** Window tag of a sampled key whose last write was a delete. */
  private static final int DELETED = -1;

  private static final VarHandle LONGS =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private final long[] valueCounts = new long[BUCKETS];
  private final long[] valueBytes = new long[BUCKETS];
  private long puts;
  private long deletes;
  private long keyBytes;
  // Exact counts of the medium class, against the thresholds adopted at the last publish.
  private int mediumFrom = Integer.MAX_VALUE;
  private int largeFrom = Integer.MAX_VALUE;
  private long mediumPuts;
  private long mediumBytes;

  // Adaptive distinct sample (worker only).
  private final long[] sampleHashes = new long[SLOTS];
  private final int[] sampleWindows = new int[SLOTS];
  private final long[] scratchHashes = new long[MAX_ENTRIES];
  private final int[] scratchWindows = new int[MAX_ENTRIES];
  private int sampleEntries;
  private int level;
  private int window;
  private long sampledWrites;
  private long sampledGarbage;

  private volatile long published;
  private volatile int requestedWindow;
  private volatile long requestedClasses = -1;

  /**
   * The bucket of a value size.
   *
   * @param size bytes, not negative
   * @return 0 to {@link #BUCKETS} - 1
   */
  public static int bucket(int size) {
    if (size < 16) {
      return size;
    }
    int e = 31 - Integer.numberOfLeadingZeros(size);
    return 16 + ((e - 4) << 2) + ((size >>> (e - 2)) & 3);
  }

  /**
   * The smallest size of a bucket.
   *
   * @param bucket the bucket
   * @return bytes
   */
  public static long bucketFloor(int bucket) {
    if (bucket < 16) {
      return bucket;
    }
    int e = 4 + ((bucket - 16) >>> 2);
    int sub = (bucket - 16) & 3;
    return (long) (4 + sub) << (e - 2);
  }

  /**
   * Records a put (worker thread only).
   *
   * @param key the key
   * @param valueLength the value's length
   */
  public void recordPut(byte[] key, int valueLength) {
    int b = bucket(valueLength);
    valueCounts[b]++;
    valueBytes[b] += valueLength;
    keyBytes += key.length;
    puts++;
    if (valueLength >= mediumFrom && valueLength < largeFrom) {
      mediumPuts++;
      mediumBytes += valueLength;
    }
    long h = hash(key);
    if (Long.numberOfLeadingZeros(h) >= level) {
      samplePut(h);
    }
  }

  /**
   * Records a delete (worker thread only).
   *
   * @param key the key
   */
  public void recordDelete(byte[] key) {
    deletes++;
    long h = hash(key);
    if (Long.numberOfLeadingZeros(h) >= level) {
      sampleDelete(h);
    }
  }

  /**
   * Makes what was recorded so far visible to {@link #snapshot()} and adopts a new window if the
   * tuner started one (worker thread, once per run of writes).
   */
  public void publish() {
    published = puts + deletes;
    int w = requestedWindow;
    if (w != window) {
      window = w;
      long c = requestedClasses;
      if (c >= 0) {
        mediumFrom = (int) (c >>> 32);
        largeFrom = (int) c;
      }
    }
  }

  /**
   * Starts a new window and sets the class thresholds its medium counts use: the worker adopts
   * both at its next {@link #publish()} (tuner thread).
   *
   * @param mediumFromBytes smallest medium value
   * @param largeFromBytes smallest large value
   */
  public void nextWindow(int mediumFromBytes, int largeFromBytes) {
    requestedClasses = ((long) mediumFromBytes << 32) | (largeFromBytes & 0xFFFFFFFFL);
    requestedWindow = requestedWindow + 1;
  }

  private void samplePut(long h) {
    h = h == 0 ? 1 : h;
    sampledWrites++;
    int slot = find(h);
    if (sampleHashes[slot] == h) {
      int last = sampleWindows[slot];
      if (last != window && last != DELETED) {
        sampledGarbage++;
      }
      sampleWindows[slot] = window;
      return;
    }
    sampleHashes[slot] = h;
    sampleWindows[slot] = window;
    if (++sampleEntries >= MAX_ENTRIES) {
      raiseLevel();
    }
  }

  private void sampleDelete(long h) {
    h = h == 0 ? 1 : h;
    sampledWrites++;
    int slot = find(h);
    if (sampleHashes[slot] == h && sampleWindows[slot] != DELETED) {
      sampledGarbage++;
      sampleWindows[slot] = DELETED;
    }
  }

  /** The slot holding h, or the empty slot where it would go (linear probing). */
  private int find(long h) {
    int mask = SLOTS - 1;
    int slot = (int) (h ^ (h >>> 29)) & mask;
    while (sampleHashes[slot] != 0 && sampleHashes[slot] != h) {
      slot = (slot + 1) & mask;
    }
    return slot;
  }

  /** Halves the sample: keeps the keys with one more leading zero bit, rebuilds the table. */
  private void raiseLevel() {
    level++;
    long[] hashes = sampleHashes;
    int[] windows = sampleWindows;
    long[] keep = scratchHashes;
    int[] keepWindows = scratchWindows;
    int n = 0;
    for (int i = 0; i < SLOTS; i++) {
      long h = hashes[i];
      if (h != 0 && Long.numberOfLeadingZeros(h) >= level) {
        keep[n] = h;
        keepWindows[n] = windows[i];
        n++;
      }
    }
    Arrays.fill(hashes, 0);
    for (int i = 0; i < n; i++) {
      int slot = find(keep[i]);
      hashes[slot] = keep[i];
      windows[slot] = keepWindows[i];
    }
    sampleEntries = n;
  }

  /**
   * A 64-bit hash of a key: eight bytes a step, each mixed by a multiply and rotate, then a
   * SplitMix64 finalizer. It only needs to be uniform.
   *
   * @param key the key
   * @return the hash
   */
  static long hash(byte[] key) {
    long h = 0x9E3779B97F4A7C15L ^ key.length;
    int i = 0;
    for (; i + 8 <= key.length; i += 8) {
      h = Long.rotateLeft(h ^ ((long) LONGS.get(key, i) * 0xC2B2AE3D27D4EB4FL), 31) * 0x9E3779B97F4A7C15L;
    }
    long tail = 0;
    for (int shift = 0; i < key.length; i++, shift += 8) {
      tail |= (key[i] & 0xFFL) << shift;
    }
    h = Long.rotateLeft(h ^ (tail * 0xC2B2AE3D27D4EB4FL), 31) * 0x9E3779B97F4A7C15L;
    h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
    h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
    return h ^ (h >>> 31);
  }

  /**
   * A copy of the counters (any thread; allocates).
   *
   * @return the snapshot
   */
  public Snapshot snapshot() {
    long seen = published;
    return new Snapshot(
        seen,
        puts,
        deletes,
        keyBytes,
        valueCounts.clone(),
        valueBytes.clone(),
        sampledWrites,
        sampledGarbage,
        mediumPuts,
        mediumBytes);
  }

  /**
   * Counters at one moment; two snapshots give a window ({@link #minus}).
   *
   * @param published writes published when taken
   * @param puts puts
   * @param deletes deletes
   * @param keyBytes key bytes of the puts
   * @param valueCounts puts per value-size bucket
   * @param valueBytes value bytes per bucket
   * @param sampledWrites sampled puts and deletes
   * @param sampledGarbage of those, the garbage-producing ones
   * @param mediumPuts puts of medium values (by the thresholds of their window)
   * @param mediumBytes their value bytes
   */
  public record Snapshot(
      long published,
      long puts,
      long deletes,
      long keyBytes,
      long[] valueCounts,
      long[] valueBytes,
      long sampledWrites,
      long sampledGarbage,
      long mediumPuts,
      long mediumBytes) {

    /** An empty snapshot (before any write). */
    public static final Snapshot EMPTY = new Snapshot(0, 0, 0, 0, new long[BUCKETS], new long[BUCKETS], 0, 0, 0, 0);

    /**
     * The writes between an earlier snapshot and this one.
     *
     * @param earlier the earlier snapshot
     * @return the window
     */
    public Window minus(Snapshot earlier) {
      long[] counts = new long[BUCKETS];
      long[] bytes = new long[BUCKETS];
      for (int i = 0; i < BUCKETS; i++) {
        counts[i] = Math.max(0, valueCounts[i] - earlier.valueCounts[i]);
        bytes[i] = Math.max(0, valueBytes[i] - earlier.valueBytes[i]);
      }
      return new Window(
          Math.max(0, puts - earlier.puts),
          Math.max(0, deletes - earlier.deletes),
          Math.max(0, keyBytes - earlier.keyBytes),
          counts,
          bytes,
          Math.max(0, sampledWrites - earlier.sampledWrites),
          Math.max(0, sampledGarbage - earlier.sampledGarbage),
          Math.max(0, mediumPuts - earlier.mediumPuts),
          Math.max(0, mediumBytes - earlier.mediumBytes));
    }
  }

  /**
   * The writes of one tuning window.
   *
   * @param puts puts
   * @param deletes deletes
   * @param keyBytes key bytes of the puts
   * @param valueCounts puts per value-size bucket
   * @param valueBytes value bytes per bucket
   * @param sampledWrites sampled puts and deletes
   * @param sampledGarbage of those, the garbage-producing ones
   * @param mediumPuts puts of medium values
   * @param mediumBytes their value bytes
   */
  public record Window(
      long puts,
      long deletes,
      long keyBytes,
      long[] valueCounts,
      long[] valueBytes,
      long sampledWrites,
      long sampledGarbage,
      long mediumPuts,
      long mediumBytes) {
    /**
     * Mean key size of the puts.
     *
     * @return bytes, 0 without puts
     */
    public double meanKeyBytes() {
      return puts == 0 ? 0 : (double) keyBytes / puts;
    }

    /**
     * Fraction of writes that overwrite or delete a key written in an earlier window (and so
     * leave garbage behind if the old value was separated).
     *
     * @return 0 to 1, 0 without samples
     */
    public double updateRatio() {
      return sampledWrites == 0 ? 0 : Math.min(1, (double) sampledGarbage / sampledWrites);
    }

    /**
     * Puts and value bytes of the values in the buckets whose smallest size is at least {@code
     * fromBytes} (the bucket holding {@code fromBytes} itself counts only if it starts there).
     *
     * @param fromBytes smallest value size counted
     * @return {puts, value bytes}
     */
    public long[] from(long fromBytes) {
      long count = 0;
      long bytes = 0;
      for (int b = 0; b < BUCKETS; b++) {
        if (bucketFloor(b) >= fromBytes) {
          count += valueCounts[b];
          bytes += valueBytes[b];
        }
      }
      return new long[] {count, bytes};
    }

    /**
     * Total value bytes of the puts.
     *
     * @return bytes
     */
    public long totalValueBytes() {
      long sum = 0;
      for (long b : valueBytes) {
        sum += b;
      }
      return sum;
    }
  }
}
