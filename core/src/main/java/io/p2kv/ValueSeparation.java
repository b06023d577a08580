package io.p2kv;

import java.util.Locale;
import java.util.Objects;

/**
 * Immutable and thread-safe: the policy that decides which values a store keeps inline in its
 * LSM-trees and which it separates into blob files (key-value separation), applied to every shard.
 *
 * <p>Separating a value means compactions move only its key and a small reference, which saves
 * I/O for large values; but every overwrite or delete leaves the old value behind as garbage that
 * has to be collected by copying the live values out of old blob files, which costs I/O for small
 * ones. The policies:
 *
 * <ul>
 *   <li>{@link #none()}: every value inline (plain RocksDB);
 *   <li>{@link #all()}: every value in blob files (BlobDB-like);
 *   <li>{@link #threshold(int)}: values of at least a fixed size in blob files;
 *   <li>{@link #sizeAware()} (the default): small, medium and large values, placed differently
 *       (after Parallax, DiffKV and SplitKV), with thresholds retuned while the store runs from
 *       the sizes and update ratio each shard sees, unless {@link #fixed()}.
 * </ul>
 *
 * <p>Every policy can be changed between opens of a store: values already written stay readable
 * wherever they are, and move to their new place as compaction rewrites them. How each policy maps
 * onto RocksDB, and the measurements behind the defaults, are in {@code docs/VALUE-SEPARATION.md}.
 */
public final class ValueSeparation {
  /** The kinds of policy. */
  public enum Mode {
    /** Every value inline. */
    NONE,
    /** Every value in blob files. */
    ALL,
    /** Values of at least {@link #thresholdBytes()} in blob files. */
    THRESHOLD,
    /** Small, medium and large classes placed differently. */
    SIZE_AWARE
  }

  /**
   * Default oldest fraction of blob files whose live values compaction relocates (garbage
   * collection during compaction). RocksDB's default is 0.25; 0.1 measured 20-50 % less write
   * amplification on the papers' mixes at a similar garbage ratio (see docs/VALUE-SEPARATION.md).
   */
  public static final double DEFAULT_GC_AGE_CUTOFF = 0.1;

  /**
   * Default garbage ratio at which the oldest blob files are reclaimed by forced compactions:
   * DiffKV's 30 %. Parallax's 10 % measured up to 2.5 times the write amplification.
   */
  public static final double DEFAULT_GC_GARBAGE_RATIO = 0.3;

  /**
   * Default smallest medium value of {@link #sizeAware()}: Parallax's T_SM = 0.2 on p = key /
   * (key + value) for the papers' 24-byte keys. The adaptive policy recomputes it from the keys it
   * sees.
   */
  public static final int DEFAULT_MEDIUM_FROM_BYTES = 96;

  /**
   * Default smallest large value of {@link #sizeAware()}: a 1 KB pair with a 24-byte key, as
   * Parallax classifies pairs (its T_ML = 0.02 would say 1176). The adaptive policy recomputes it
   * from the keys it sees.
   */
  public static final int DEFAULT_LARGE_FROM_BYTES = 1000;

  private static final ValueSeparation NONE = new ValueSeparation(Mode.NONE, -1, -1, -1, 0, 1, false, false);

  private final Mode mode;
  private final int thresholdBytes;
  private final int mediumFromBytes;
  private final int largeFromBytes;
  private final double gcAgeCutoff;
  private final double gcGarbageRatio;
  private final boolean adaptive;
  private final boolean thresholdsGiven;

  private ValueSeparation(
      Mode mode,
      int thresholdBytes,
      int mediumFromBytes,
      int largeFromBytes,
      double gcAgeCutoff,
      double gcGarbageRatio,
      boolean adaptive,
      boolean thresholdsGiven) {
    this.mode = mode;
    this.thresholdBytes = thresholdBytes;
    this.mediumFromBytes = mediumFromBytes;
    this.largeFromBytes = largeFromBytes;
    this.gcAgeCutoff = gcAgeCutoff;
    this.gcGarbageRatio = gcGarbageRatio;
    this.adaptive = adaptive;
    this.thresholdsGiven = thresholdsGiven;
  }

  /**
   * Every value inline, next to its key: plain RocksDB. Best for small values and for scans.
   *
   * @return the policy
   */
  public static ValueSeparation none() {
    return NONE;
  }

  /**
   * Every value, even an empty one, in blob files from the first flush on, with garbage
   * collection during compaction: the BlobDB-like baseline of the papers.
   *
   * @return the policy
   */
  public static ValueSeparation all() {
    return new ValueSeparation(Mode.ALL, 0, -1, -1, DEFAULT_GC_AGE_CUTOFF, DEFAULT_GC_GARBAGE_RATIO, false, false);
  }

  /**
   * Values of at least {@code minBlobBytes} in blob files from the first flush on, smaller ones
   * inline, with garbage collection during compaction ({@link #withGarbageCollection} changes
   * it).
   *
   * @param minBlobBytes smallest separated value, 0 to {@link P2kv#MAX_VALUE_BYTES}
   * @return the policy
   * @throws IllegalArgumentException if out of range
   */
  public static ValueSeparation threshold(int minBlobBytes) {
    if (minBlobBytes < 0 || minBlobBytes > P2kv.MAX_VALUE_BYTES) {
      throw new IllegalArgumentException(
          "minBlobBytes must be between 0 and " + P2kv.MAX_VALUE_BYTES + ": " + minBlobBytes);
    }
    return new ValueSeparation(
        Mode.THRESHOLD, minBlobBytes, -1, -1, DEFAULT_GC_AGE_CUTOFF, DEFAULT_GC_GARBAGE_RATIO, false, false);
  }

  /**
   * The default: values are small (below {@link #DEFAULT_MEDIUM_FROM_BYTES}), medium or large
   * (from {@link #DEFAULT_LARGE_FROM_BYTES}); small ones stay inline, large ones go to blob files
   * with garbage collection, and medium ones go where the model of I/O and per-record work says
   * they cost least for the workload (inline unless the shard's writes are inserts into a deep
   * tree). Adaptive: each shard retunes the thresholds and garbage collection from the key and
   * value sizes and the update ratio it sees (see {@link #fixed()}).
   *
   * @return the policy
   */
  public static ValueSeparation sizeAware() {
    return new ValueSeparation(
        Mode.SIZE_AWARE,
        -1,
        DEFAULT_MEDIUM_FROM_BYTES,
        DEFAULT_LARGE_FROM_BYTES,
        DEFAULT_GC_AGE_CUTOFF,
        DEFAULT_GC_GARBAGE_RATIO,
        true,
        false);
  }

  /**
   * This size-aware policy with other initial class thresholds.
   *
   * @param mediumFromBytes smallest medium value, at least 1
   * @param largeFromBytes smallest large value, at least {@code mediumFromBytes}
   * @return a new policy
   * @throws IllegalStateException if this is not a size-aware policy
   * @throws IllegalArgumentException if out of range
   */
  public ValueSeparation withThresholds(int mediumFromBytes, int largeFromBytes) {
    requireMode(Mode.SIZE_AWARE, "withThresholds");
    if (mediumFromBytes < 1 || largeFromBytes < mediumFromBytes || largeFromBytes > P2kv.MAX_VALUE_BYTES) {
      throw new IllegalArgumentException(
          "need 1 <= mediumFromBytes <= largeFromBytes <= " + P2kv.MAX_VALUE_BYTES + ": " + mediumFromBytes
              + ", " + largeFromBytes);
    }
    return new ValueSeparation(
        mode, thresholdBytes, mediumFromBytes, largeFromBytes, gcAgeCutoff, gcGarbageRatio, adaptive, true);
  }

  /**
   * This size-aware policy without adaptive retuning: the initial thresholds and garbage
   * collection settings stay as they are.
   *
   * @return a new policy
   * @throws IllegalStateException if this is not a size-aware policy
   */
  public ValueSeparation fixed() {
    requireMode(Mode.SIZE_AWARE, "fixed");
    return new ValueSeparation(
        mode, thresholdBytes, mediumFromBytes, largeFromBytes, gcAgeCutoff, gcGarbageRatio, false, thresholdsGiven);
  }

  /**
   * This policy with other garbage-collection settings (the initial ones, for an adaptive policy).
   *
   * @param ageCutoff fraction (0 to 1) of the oldest blob files whose live values compaction
   *     relocates; 0 turns garbage collection off
   * @param garbageRatio garbage ratio (0 to 1) of those files at which compactions are forced to
   *     reclaim them; 1 means never forced
   * @return a new policy
   * @throws IllegalStateException for {@link #none()}
   * @throws IllegalArgumentException if out of range
   */
  public ValueSeparation withGarbageCollection(double ageCutoff, double garbageRatio) {
    if (mode == Mode.NONE) {
      throw new IllegalStateException("none() keeps every value inline: it has no garbage collection");
    }
    if (!(ageCutoff >= 0 && ageCutoff <= 1) || !(garbageRatio >= 0 && garbageRatio <= 1)) {
      throw new IllegalArgumentException(
          "ageCutoff and garbageRatio must be between 0 and 1: " + ageCutoff + ", " + garbageRatio);
    }
    return new ValueSeparation(
        mode, thresholdBytes, mediumFromBytes, largeFromBytes, ageCutoff, garbageRatio, adaptive, thresholdsGiven);
  }

  private void requireMode(Mode required, String method) {
    if (mode != required) {
      throw new IllegalStateException(method + "() applies to sizeAware() only, not to " + this);
    }
  }

  /**
   * The kind of policy.
   *
   * @return the mode
   */
  public Mode mode() {
    return mode;
  }

  /**
   * The fixed threshold of {@link Mode#THRESHOLD} (0 for {@link Mode#ALL}).
   *
   * @return bytes, or -1 for the other modes
   */
  public int thresholdBytes() {
    return thresholdBytes;
  }

  /**
   * The (initial) smallest medium value of {@link Mode#SIZE_AWARE}.
   *
   * @return bytes, or -1 for the other modes
   */
  public int mediumFromBytes() {
    return mediumFromBytes;
  }

  /**
   * The (initial) smallest large value of {@link Mode#SIZE_AWARE}.
   *
   * @return bytes, or -1 for the other modes
   */
  public int largeFromBytes() {
    return largeFromBytes;
  }

  /**
   * The (initial) fraction of the oldest blob files compaction garbage-collects.
   *
   * @return 0 to 1
   */
  public double gcAgeCutoff() {
    return gcAgeCutoff;
  }

  /**
   * The (initial) garbage ratio that forces compactions of the oldest blob files.
   *
   * @return 0 to 1
   */
  public double gcGarbageRatio() {
    return gcGarbageRatio;
  }

  /**
   * Whether each shard retunes the policy while the store runs.
   *
   * @return true for the default size-aware policy
   */
  public boolean adaptive() {
    return adaptive;
  }

  /**
   * Whether the size classes were given with {@link #withThresholds}; the adaptive policy then
   * keeps them and retunes only where the medium class goes and garbage collection.
   *
   * @return true if given
   */
  public boolean thresholdsGiven() {
    return thresholdsGiven;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ValueSeparation v
        && mode == v.mode
        && thresholdBytes == v.thresholdBytes
        && mediumFromBytes == v.mediumFromBytes
        && largeFromBytes == v.largeFromBytes
        && Double.compare(gcAgeCutoff, v.gcAgeCutoff) == 0
        && Double.compare(gcGarbageRatio, v.gcGarbageRatio) == 0
        && adaptive == v.adaptive
        && thresholdsGiven == v.thresholdsGiven;
  }

  @Override
  public int hashCode() {
    return Objects.hash(
        mode, thresholdBytes, mediumFromBytes, largeFromBytes, gcAgeCutoff, gcGarbageRatio, adaptive, thresholdsGiven);
  }

  @Override
  public String toString() {
    String gc = String.format(Locale.ROOT, ", gc age<=%.2f force@%.2f", gcAgeCutoff, gcGarbageRatio);
    return switch (mode) {
      case NONE -> "none()";
      case ALL -> "all(" + gc.substring(2) + ")";
      case THRESHOLD -> "threshold(" + thresholdBytes + gc + ")";
      case SIZE_AWARE -> "sizeAware(medium>=" + mediumFromBytes + ", large>=" + largeFromBytes + gc
          + (adaptive ? ", adaptive)" : ", fixed)");
    };
  }
}
