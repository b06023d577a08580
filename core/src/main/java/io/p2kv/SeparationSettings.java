package io.p2kv;

/**
 * Immutable: where one shard currently places values, as its {@link ValueSeparation} policy
 * resolved it. Reported in {@link ShardStats#separation()}; the adaptive policy changes it while the
 * store runs.
 *
 * <p>A value is written to a blob file (separated from its key) when it has at least {@link
 * #minBlobBytes()} bytes and the LSM-tree level it is written to is at least {@link
 * #blobFromLevel()} (0: already when the memtable is flushed); otherwise it stays inline, next to
 * its key. Blob files are garbage-collected during compaction: live values in the oldest {@link
 * #gcAgeCutoff()} fraction of blob files are relocated (and re-placed by the current rule) when the
 * keys that reference them are compacted, and when the garbage in those files reaches {@link
 * #gcGarbageRatio()}, compactions are forced to reclaim it.
 *
 * @param blobFiles whether any value can be separated; false means every value is inline
 * @param minBlobBytes smallest separated value, in bytes (0 = every value); meaningless when
 *     {@code blobFiles} is false
 * @param blobFromLevel first LSM-tree level whose values are written to blob files (0 = at flush)
 * @param gcAgeCutoff fraction (0 to 1) of the oldest blob files whose live values compaction
 *     relocates; 0 turns garbage collection off
 * @param gcGarbageRatio garbage ratio (0 to 1) of those oldest files at which compactions are
 *     forced to reclaim them; 1 means never forced
 * @param mediumFromBytes smallest value of the medium class (size-aware policies), -1 otherwise
 * @param largeFromBytes smallest value of the large class (size-aware policies), -1 otherwise
 */
public record SeparationSettings(
    boolean blobFiles,
    long minBlobBytes,
    int blobFromLevel,
    double gcAgeCutoff,
    double gcGarbageRatio,
    int mediumFromBytes,
    int largeFromBytes) {

  /**
   * Every value inline: plain RocksDB. Garbage collection stays on so that values a previous
   * policy separated move back inline as compaction meets them.
   */
  public static final SeparationSettings NONE = new SeparationSettings(false, 0, 0, 1, 1, -1, -1);

  /**
   * Checks the ranges.
   *
   * @throws IllegalArgumentException if a field is out of range
   */
  public SeparationSettings {
    if (minBlobBytes < 0) {
      throw new IllegalArgumentException("minBlobBytes must not be negative: " + minBlobBytes);
    }
    if (blobFromLevel < 0) {
      throw new IllegalArgumentException("blobFromLevel must not be negative: " + blobFromLevel);
    }
    if (!(gcAgeCutoff >= 0 && gcAgeCutoff <= 1)) {
      throw new IllegalArgumentException("gcAgeCutoff must be between 0 and 1: " + gcAgeCutoff);
    }
    if (!(gcGarbageRatio >= 0 && gcGarbageRatio <= 1)) {
      throw new IllegalArgumentException("gcGarbageRatio must be between 0 and 1: " + gcGarbageRatio);
    }
  }

  /**
   * Whether a value of this size is separated once it reaches {@link #blobFromLevel()}.
   *
   * @param valueBytes value size
   * @return true if it goes to a blob file
   */
  public boolean separates(long valueBytes) {
    return blobFiles && valueBytes >= minBlobBytes;
  }

  /**
   * A copy with another separation boundary and starting level.
   *
   * @param minBlobBytes smallest separated value
   * @param blobFromLevel first level written to blob files
   * @return the copy
   */
  public SeparationSettings withPlacement(long minBlobBytes, int blobFromLevel) {
    return new SeparationSettings(
        blobFiles, minBlobBytes, blobFromLevel, gcAgeCutoff, gcGarbageRatio, mediumFromBytes, largeFromBytes);
  }

  /**
   * A copy with other garbage-collection settings.
   *
   * @param gcAgeCutoff oldest fraction of blob files relocated by compaction
   * @param gcGarbageRatio garbage ratio that forces compactions
   * @return the copy
   */
  public SeparationSettings withGc(double gcAgeCutoff, double gcGarbageRatio) {
    return new SeparationSettings(
        blobFiles, minBlobBytes, blobFromLevel, gcAgeCutoff, gcGarbageRatio, mediumFromBytes, largeFromBytes);
  }

  /**
   * A copy with other size-class thresholds.
   *
   * @param mediumFromBytes smallest medium value
   * @param largeFromBytes smallest large value
   * @return the copy
   */
  public SeparationSettings withClasses(int mediumFromBytes, int largeFromBytes) {
    return new SeparationSettings(
        blobFiles, minBlobBytes, blobFromLevel, gcAgeCutoff, gcGarbageRatio, mediumFromBytes, largeFromBytes);
  }

  @Override
  public String toString() {
    if (!blobFiles) {
      return "inline";
    }
    StringBuilder sb = new StringBuilder();
    if (mediumFromBytes >= 0) {
      sb.append("small<").append(mediumFromBytes).append(" medium<").append(largeFromBytes).append(" large, ");
    }
    sb.append("blob>=").append(minBlobBytes).append("B from L").append(blobFromLevel);
    if (gcAgeCutoff == 0) {
      sb.append(", gc off");
    } else {
      sb.append(String.format(java.util.Locale.ROOT, ", gc age<=%.2f force@%.2f", gcAgeCutoff, gcGarbageRatio));
    }
    return sb.toString();
  }
}
