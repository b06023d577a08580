package io.p2kv.internal.separation;

import io.p2kv.SeparationSettings;
import java.util.Locale;

/**
 * The size-aware policy's model: which values are small, medium and large, and where each class
 * goes, from Parallax's I/O-amplification model (Xanthakis et al., section 2, equation 4) extended
 * with the cost of garbage collection and with RocksDB's per-value overheads. Pure functions: the
 * tuner feeds it what a shard measured; tests feed it numbers.
 *
 * <h2>Classes (Parallax section 2.2)</h2>
 * With key size k and value size v, p = k / (k + v). Parallax calls a pair small when p &gt;
 * T_SM = 0.2 and large when p &lt;= T_ML = 0.02; its code also makes every pair of 1 KB or more
 * large, which its own evaluation relies on (24-byte keys with 1004-byte values are "large").
 * So, with the mean key size k seen by the shard (rounded to a byte): {@code mediumFrom = k (1 -
 * T_SM) / T_SM} (96 bytes for 24-byte keys) and {@code largeFrom = min(k (1 - T_ML) / T_ML, 1024
 * - k)} (1000 bytes). They move only when one of them changes by more than 12.5 %, so a mean key
 * size that wavers does not move them. Thresholds given by the user stay as given.
 *
 * <h2>Placement (the mapping onto RocksDB)</h2>
 * RocksDB has one {@code min_blob_size} per column family, so a value is either inline or in
 * a blob file, and every separated value shares one starting level and one garbage collection.
 * Hence:
 *
 * <ul>
 *   <li>small: inline (never worth a blob record: more space and more write amplification,
 *       measured in docs/VALUE-SEPARATION.md);
 *   <li>large: blob files from the first flush, garbage-collected during compaction;
 *   <li>medium: inline, unless the shard's writes are mostly inserts into a tree whose write
 *       amplification is high enough that separating them saves more than their blob records
 *       cost ({@link #BLOB_RECORD_WORK_BYTES}): about 4.9 for 104-byte values and 24-byte keys.
 *       Separated medium values go back inline once updates would make their garbage collection
 *       cost more than it saves: garbage collection rewrites the old medium blobs inline as
 *       compaction meets them, Parallax's "transient log merged back in place", in time rather
 *       than by level.
 * </ul>
 *
 * <h2>The cost model</h2>
 * Parallax's equation 4 compares the traffic of a pair kept in place, D = S A, with the traffic of
 * a separated pair, D' = K A + S, where A is the LSM-tree's amplification. Written per pair with
 * RocksDB's overheads and a garbage-collection term:
 *
 * <pre>
 *   inline:    (k + v + E) A
 *   separated: (k + E + R) A + (k + v + H + W) (1 + G)
 * </pre>
 *
 * E = 8 bytes of sequence and type per entry, R = 12 bytes of blob reference, H = 32 bytes of
 * blob record header (the blob file also repeats the key), W the work of a blob record beyond its
 * bytes ({@link #BLOB_RECORD_WORK_BYTES}), and G the garbage-collection traffic
 * per byte appended to blob files. Parallax's A = l - 1 + f l assumes full merges and counts reads;
 * RocksDB's leveled compaction rewrites far less (docs/VALUE-SEPARATION.md compares the two), so A
 * is the shard's measured SST write amplification (flush plus compaction SST bytes per
 * flushed SST byte, over the last few windows), but at least the number of LSM levels: each level
 * rewrites a byte about once, and a young tree has not done its compactions yet. G is the steady-state relocation needed to keep
 * garbage at the collection threshold g: each garbage byte costs (1 - g) / g bytes of live data
 * copied, and u of every appended byte becomes garbage, where u is the fraction of writes that
 * overwrite or delete a key written before (estimated from distinct-key sketches, so repeated
 * overwrites inside one memtable, which never reach a blob file, do not count). Medium values are
 * separated when the inline cost exceeds the separated cost, with a 5 % margin either way.
 *
 * <h2>Reads</h2>
 * A read of a separated value reads its blob file too (or the blob cache); inline, the value
 * comes with the data block the key lookup reads anyway. With r reads (point reads and pairs
 * iterators step onto) per written pair in the window, a separated pair is charged {@code r x
 * READ_BYTES} (one 4 KiB page) more. Medium values are weighed with that charge; large values are
 * too, below {@link #INLINE_CAP_BYTES} (from a page up they stay separated: reading one costs its
 * own pages wherever it is). Since RocksDB has one {@code min_blob_size}, the result is one of three
 * thresholds: the medium class (both separated), the large class (medium inline), or a page (both
 * inline). A proposal says whether reads moved the threshold up ({@link Proposal#readDriven()}):
 * the tuner then brings values already separated back inline. Without reads the model is the write
 * model above.
 *
 * <h2>Garbage collection</h2>
 * RocksDB's garbage collection relocates every live value of the oldest blob files that a
 * compaction meets, whether those files hold garbage or not, so it costs I/O even when nothing is
 * overwritten. The adaptive policy therefore turns it off while the shard sees (almost) no updates
 * and no garbage has built up, and back on, at the policy's age cutoff and garbage ratio, when
 * updates come or garbage reaches half the ratio.
 */
public final class SeparationModel {
  /** Parallax's small/medium threshold on p = key / (key + value). */
  public static final double T_SM = 0.2;

  /** Parallax's medium/large threshold on p. */
  public static final double T_ML = 0.02;

  /** Pairs at least this large are large whatever p says (Parallax's code). */
  public static final int LARGE_PAIR_BYTES = 1024;

  /** Bytes of sequence number and type per LSM-tree entry. */
  static final double ENTRY_BYTES = 8;

  /** Bytes of a blob reference stored in place of a separated value. */
  static final double BLOB_REF_BYTES = 12;

  /** Bytes of a blob record's header (the record also repeats the key). */
  static final double BLOB_HEADER_BYTES = 32;

  /**
   * The work a blob record costs beyond its bytes, counted as bytes of compaction work: the blob
   * file builder compresses and checksums every value on its own, each separated value adds a blob
   * index to decode and a second lookup to every read of it, and when values come back inline each
   * is fetched on its own. Small and medium pairs are CPU-bound on a fast SSD (the reason p2kv
   * exists), and a model of bytes alone separated 104-byte values from an LSM amplification of
   * 1.75, which measured slower than keeping them inline on this machine: YCSB LOAD of 128-byte
   * records at 8 threads 1.24-1.55x of plain RocksDB separated against 1.96x inline, the read
   * phase after it 0.89-1.04x against 1.46x (it paid for bringing 446 MiB back inline);
   * docs/VALUE-SEPARATION.md, "The cost of a blob record". With 256 bytes, 104-byte values
   * (24-byte keys) are separated from an amplification of 4.9 (the 5 % margin included), 1 KB
   * values still from 1.4.
   */
  static final double BLOB_RECORD_WORK_BYTES = 256;

  /**
   * Bytes of read I/O a read of a separated value adds: one device page from its blob file (inline,
   * the value comes with the data block the key lookup reads anyway). Charged per read, and per
   * pair an iterator steps onto.
   */
  static final double READ_BYTES = 4096;

  /**
   * Values of at least this size stay separated whatever the reads: reading one costs its own
   * pages wherever it is, so the extra blob-file read adds little.
   */
  public static final int INLINE_CAP_BYTES = 4096;

  /** Relative change of a class threshold needed to move it. */
  static final double CLASS_STEP = 0.125;

  /** Relative cost difference needed to change the medium class's placement. */
  static final double MARGIN = 0.05;

  /** Update ratio below which garbage collection may be turned off. */
  static final double GC_OFF_UPDATE_RATIO = 0.02;

  /** Update ratio from which garbage collection is turned on. */
  static final double GC_ON_UPDATE_RATIO = 0.05;

  private SeparationModel() {}

  /**
   * The size classes for a mean key size (Parallax's thresholds).
   *
   * @param meanKeyBytes mean key size, bytes
   * @return {mediumFrom, largeFrom}, 1 &lt;= mediumFrom &lt;= largeFrom
   */
  public static int[] classes(double meanKeyBytes) {
    long k = Math.max(1, Math.round(meanKeyBytes));
    long medium = (long) Math.ceil(k * (1 - T_SM) / T_SM - 1e-9);
    long large = Math.min((long) Math.ceil(k * (1 - T_ML) / T_ML - 1e-9), LARGE_PAIR_BYTES - k);
    int m = (int) Math.max(1, Math.min(Integer.MAX_VALUE, medium));
    int l = (int) Math.max(m, Math.min(Integer.MAX_VALUE, large));
    return new int[] {m, l};
  }

  /**
   * The classes to use: the current ones unless the key size moved one of them by more than
   * {@link #CLASS_STEP}.
   *
   * @param current settings in force (their classes, if any)
   * @param meanKeyBytes mean key size of the window
   * @return {mediumFrom, largeFrom}
   */
  static int[] stableClasses(SeparationSettings current, double meanKeyBytes) {
    int[] proposed = classes(meanKeyBytes);
    if (current.mediumFromBytes() > 0
        && current.largeFromBytes() > 0
        && near(proposed[0], current.mediumFromBytes())
        && near(proposed[1], current.largeFromBytes())) {
      return new int[] {current.mediumFromBytes(), current.largeFromBytes()};
    }
    return proposed;
  }

  private static boolean near(int a, int b) {
    return Math.abs(a - b) <= CLASS_STEP * b;
  }

  /**
   * The settings a fixed size-aware shard keeps: small and medium inline, large separated from
   * the first flush, garbage collection on. A fixed policy cannot tell inserts from updates, and
   * keeping medium values inline is what measured best for a load followed by updates
   * (docs/VALUE-SEPARATION.md).
   *
   * @param mediumFromBytes smallest medium value
   * @param largeFromBytes smallest large value
   * @param gcAgeCutoff garbage-collection age cutoff
   * @param gcGarbageRatio garbage ratio that forces collection
   * @return the settings
   */
  public static SeparationSettings initial(
      int mediumFromBytes, int largeFromBytes, double gcAgeCutoff, double gcGarbageRatio) {
    return new SeparationSettings(true, largeFromBytes, 0, gcAgeCutoff, gcGarbageRatio, mediumFromBytes, largeFromBytes);
  }

  /**
   * The settings an adaptive size-aware shard opens with: large values separated, small and
   * medium inline, garbage collection off (a fresh store is usually being loaded, which leaves no
   * garbage). The first windows separate medium values too if the shard's writes are inserts into
   * a tree that amplifies them enough (see {@link #BLOB_RECORD_WORK_BYTES}), and turn garbage
   * collection on if the writes are updates or garbage is already there.
   *
   * @param mediumFromBytes smallest medium value
   * @param largeFromBytes smallest large value
   * @param gcGarbageRatio garbage ratio that forces collection once collection is on
   * @return the settings
   */
  public static SeparationSettings initialAdaptive(int mediumFromBytes, int largeFromBytes, double gcGarbageRatio) {
    return new SeparationSettings(true, largeFromBytes, 0, 0, gcGarbageRatio, mediumFromBytes, largeFromBytes);
  }

  /**
   * Per-pair write cost of a value kept inline (the model's D, per pair).
   *
   * @param k key bytes
   * @param v value bytes
   * @param a LSM-tree write amplification
   * @return bytes written
   */
  static double inlineCost(double k, double v, double a) {
    return (k + v + ENTRY_BYTES) * a;
  }

  /**
   * Per-pair write cost of a separated value (the model's D', per pair).
   *
   * @param k key bytes
   * @param v value bytes
   * @param a LSM-tree write amplification
   * @param g garbage-collection bytes per byte appended to blob files
   * @return bytes written
   */
  static double separatedCost(double k, double v, double a, double g) {
    return (k + ENTRY_BYTES + BLOB_REF_BYTES) * a + (k + v + BLOB_HEADER_BYTES + BLOB_RECORD_WORK_BYTES) * (1 + g);
  }

  /**
   * Garbage-collection traffic per appended blob byte when a fraction of writes overwrites.
   *
   * @param updateRatio fraction of writes that overwrite or delete earlier keys
   * @param garbageRatio garbage ratio at which blob files are collected
   * @return the factor G
   */
  static double gcFactor(double updateRatio, double garbageRatio) {
    double g = Math.max(0.05, garbageRatio);
    return updateRatio * (1 - g) / g;
  }

  /**
   * What the shard measured in one window, as the model needs it.
   *
   * @param meanKeyBytes mean key size of the puts (0 without puts)
   * @param mediumCount medium-class puts (by the current classes)
   * @param mediumValueBytes their value bytes
   * @param updateRatio fraction of writes that overwrite or delete a key written before
   * @param lsmAmplification measured SST write amplification (at least 1)
   * @param blobGarbageRatio the engine's current garbage ratio in blob files
   * @param writes puts and deletes
   * @param reads keys read by point reads plus pairs stepped onto by iterators
   * @param largeCount large-class puts (by the current classes)
   * @param largeValueBytes their value bytes
   * @param updateRatioKnown whether the window sampled enough writes for its update ratio to
   *     count (a read-heavy window may have few writes)
   */
  public record Inputs(
      double meanKeyBytes,
      long mediumCount,
      long mediumValueBytes,
      double updateRatio,
      double lsmAmplification,
      double blobGarbageRatio,
      long writes,
      long reads,
      long largeCount,
      long largeValueBytes,
      boolean updateRatioKnown) {
    /**
     * A window of writes only (no reads, no large values counted).
     *
     * @param meanKeyBytes mean key size of the puts
     * @param mediumCount medium-class puts
     * @param mediumValueBytes their value bytes
     * @param updateRatio fraction of writes that overwrite or delete a key written before
     * @param lsmAmplification measured SST write amplification
     * @param blobGarbageRatio the engine's current garbage ratio in blob files
     */
    public Inputs(
        double meanKeyBytes,
        long mediumCount,
        long mediumValueBytes,
        double updateRatio,
        double lsmAmplification,
        double blobGarbageRatio) {
      this(meanKeyBytes, mediumCount, mediumValueBytes, updateRatio, lsmAmplification, blobGarbageRatio,
          Math.max(1, mediumCount), 0, 0, 0, true);
    }

    /**
     * Reads per written pair in the window.
     *
     * @return reads / writes; infinite for reads without writes, 0 without reads
     */
    public double readsPerWrite() {
      if (reads <= 0) {
        return 0;
      }
      return writes <= 0 ? Double.POSITIVE_INFINITY : (double) reads / writes;
    }
  }

  /**
   * A proposed change and why.
   *
   * @param settings the proposed settings
   * @param reason a sentence for the log
   * @param readDriven whether reads placed values inline that the write model alone would have
   *     separated (values already separated should then be brought back inline)
   */
  public record Proposal(SeparationSettings settings, String reason, boolean readDriven) {}

  /**
   * The settings the model proposes for a shard, given its current settings and one window.
   *
   * @param current the settings in force
   * @param in the window's measurements
   * @param fixedClasses the user's {mediumFrom, largeFrom}, or null to follow the key size
   * @param gcAgeCutoff the policy's age cutoff when garbage collection is on
   * @param gcGarbageRatio the policy's garbage ratio
   * @return the proposal (equal to {@code current} when nothing should change)
   */
  public static Proposal propose(
      SeparationSettings current, Inputs in, int[] fixedClasses, double gcAgeCutoff, double gcGarbageRatio) {
    StringBuilder why = new StringBuilder();
    int[] cls;
    if (fixedClasses != null) {
      cls = fixedClasses;
    } else if (in.meanKeyBytes() > 0) {
      cls = stableClasses(current, in.meanKeyBytes());
    } else {
      cls = new int[] {current.mediumFromBytes(), current.largeFromBytes()}; // no puts to judge keys by
    }
    int mediumFrom = cls[0];
    int largeFrom = cls[1];
    if (mediumFrom != current.mediumFromBytes() || largeFrom != current.largeFromBytes()) {
      why.append(String.format(Locale.ROOT, "mean key %.0f B moves the classes to medium>=%d large>=%d; ",
          in.meanKeyBytes(), mediumFrom, largeFrom));
    }
    double u = Math.max(0, Math.min(1, in.updateRatio()));
    double a = Math.max(1, in.lsmAmplification());
    double gc = gcFactor(u, gcGarbageRatio);
    // The key size for the costs: measured, or the one the medium class was derived from.
    double k = in.meanKeyBytes() > 0 ? in.meanKeyBytes() : Math.max(1, mediumFrom * T_SM / (1 - T_SM));
    double r = in.readsPerWrite();
    double readPenalty = r == 0 ? 0 : r * READ_BYTES;
    Placement withReads = place(current, in, k, a, gc, readPenalty, mediumFrom, largeFrom);
    Placement writesOnly = readPenalty == 0 ? withReads : place(current, in, k, a, gc, 0, mediumFrom, largeFrom);
    boolean mediumSeparated = withReads.medium();
    boolean largeSeparated = withReads.large();
    if (!withReads.equals(Placement.of(current))) {
      why.append(String.format(Locale.ROOT,
          "%d writes, %d reads (%.2f per write, %.0f B of read I/O per written pair), update ratio %.2f, "
              + "LSM amplification %.2f, GC factor %.2f: medium values %s, large values %s; ",
          in.writes(), in.reads(), r, readPenalty, u, a, gc,
          mediumSeparated ? "separated" : "inline", largeSeparated ? "separated" : "inline below " + INLINE_CAP_BYTES + " B"));
    }
    // Garbage collection: off while nothing is overwritten and little garbage is left; left as it
    // is when the window sampled too few writes to tell.
    boolean gcOn = current.gcAgeCutoff() > 0;
    double garbage = Math.max(0, in.blobGarbageRatio());
    if (in.updateRatioKnown()) {
      if (gcOn && u < GC_OFF_UPDATE_RATIO && garbage < gcGarbageRatio / 4) {
        gcOn = false;
        why.append(String.format(Locale.ROOT, "update ratio %.2f and blob garbage %.2f: nothing to collect, GC off; ", u, garbage));
      } else if (!gcOn && (u >= GC_ON_UPDATE_RATIO || garbage >= gcGarbageRatio / 2)) {
        gcOn = true;
        why.append(String.format(Locale.ROOT, "update ratio %.2f, blob garbage %.2f: GC on; ", u, garbage));
      }
    }
    long minBlob = minBlob(mediumSeparated, largeSeparated, mediumFrom, largeFrom);
    SeparationSettings next =
        new SeparationSettings(true, minBlob, 0, gcOn ? gcAgeCutoff : 0, gcGarbageRatio, mediumFrom, largeFrom);
    boolean readDriven = minBlob > minBlob(writesOnly.medium(), writesOnly.large(), mediumFrom, largeFrom);
    String reason = why.length() == 0 ? "no change" : why.substring(0, why.length() - 2);
    return new Proposal(next, reason, readDriven);
  }

  private static long minBlob(boolean medium, boolean large, int mediumFrom, int largeFrom) {
    return medium ? mediumFrom : large ? largeFrom : Math.max(largeFrom, INLINE_CAP_BYTES);
  }

  /** Where the medium and large classes go. */
  private record Placement(boolean medium, boolean large) {
    /** The placement settings stand for; without size classes, both classes count as separated. */
    static Placement of(SeparationSettings s) {
      return new Placement(
          s.minBlobBytes() < s.largeFromBytes() || s.largeFromBytes() < 0,
          s.minBlobBytes() <= s.largeFromBytes() || s.largeFromBytes() < 0);
    }
  }

  /**
   * The placement of both classes for a window, with {@code readPenalty} bytes of read I/O charged
   * to every separated pair written. Hysteresis: a class changes place only when the other place
   * is cheaper by {@link #MARGIN}.
   */
  private static Placement place(
      SeparationSettings current, Inputs in, double k, double a, double gc, double readPenalty, int mediumFrom, int largeFrom) {
    Placement now = Placement.of(current);
    boolean medium = now.medium();
    boolean large = now.large();
    // Large values: separated (they always were before reads counted) unless reads make the inline
    // place cheaper; from a page up, always separated.
    double vLarge = in.largeCount() > 0 ? (double) in.largeValueBytes() / in.largeCount() : largeFrom;
    if (readPenalty == 0 || vLarge >= INLINE_CAP_BYTES) {
      large = true;
    } else {
      double inline = inlineCost(k, vLarge, a);
      double separated = separatedCost(k, vLarge, a, gc) + readPenalty;
      large = large ? separated < inline * (1 + MARGIN) : separated < inline * (1 - MARGIN);
    }
    // Medium values: by the cost model, judged when the window wrote medium values or read
    // anything (without medium writes, at the smallest medium size, the least a separation saves).
    if (in.mediumCount() > 0 || readPenalty > 0) {
      double v = in.mediumCount() > 0 ? (double) in.mediumValueBytes() / in.mediumCount() : mediumFrom;
      double inline = inlineCost(k, v, a);
      double separated = separatedCost(k, v, a, gc) + readPenalty;
      medium = medium ? separated < inline * (1 + MARGIN) : separated < inline * (1 - MARGIN);
    }
    // One min_blob_size: medium values can be separated only with the large ones.
    return new Placement(medium && large, large);
  }
}
