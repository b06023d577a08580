package io.p2kv.internal.engine;

import io.p2kv.LevelStats;
import io.p2kv.SeparationSettings;
import java.nio.file.Path;
import java.util.List;

/**
 * Thread-safe: the administrative side of one engine (statistics, value-separation tuning, flush
 * and compaction), called by stats readers, the separation tuner and tools from any thread, never
 * on the worker's data path.
 */
public interface EngineAdmin {
  /**
   * A numeric engine property.
   *
   * @param property which one
   * @return its value, or -1 if the engine does not know it
   */
  long property(EngineProperty property);

  /**
   * The shape of the engine's LSM tree: file count and bytes of each level, from level 0 up to
   * the last level that holds files.
   *
   * @return the levels, empty if the engine has none or does not report them
   */
  default List<LevelStats> levels() {
    return List.of();
  }

  /**
   * Applies new value-separation settings to the live engine. Called off the worker thread (by the
   * store's separation tuner or at open); must not block the worker's writes for long. The default
   * does nothing (engines without value separation).
   *
   * @param settings the settings
   */
  default void applySeparation(SeparationSettings settings) {}

  /**
   * The value-separation settings in force.
   *
   * @return the settings; {@link SeparationSettings#NONE} for engines without value separation
   */
  default SeparationSettings separation() {
    return SeparationSettings.NONE;
  }

  /**
   * Whether the user's tuning hook changed the value-separation options p2kv set, so that
   * retuning them would override the user's choice.
   *
   * @return true if the hook took over value separation
   */
  default boolean separationOverridden() {
    return false;
  }

  /**
   * Reads of this engine's separated values since open, by whether the blob cache served them.
   * Both counts come from one read of the engine's statistics (for stats readers, not data paths).
   *
   * @return the counts; -1 each if the engine does not know them
   */
  default BlobCacheReads blobCacheReads() {
    return BlobCacheReads.UNKNOWN;
  }

  /**
   * Reads of separated values, by where they were served from.
   *
   * @param hits served by the blob cache
   * @param misses read from a blob file
   */
  record BlobCacheReads(long hits, long misses) {
    /** Counts the engine does not keep. */
    public static final BlobCacheReads UNKNOWN = new BlobCacheReads(-1, -1);
  }

  /**
   * A file number larger than that of every file the engine holds now: files written from now on
   * (flushes, compactions) get larger numbers. Marks where a rewrite with {@link
   * #rewriteFilesBelow} ends.
   *
   * @return the boundary, 0 if the engine has no files or does not number them
   */
  default long fileNumberBoundary() {
    return 0;
  }

  /**
   * Rewrites (compacts, one file at a time; a file of level 1 or deeper into its own level, a
   * level-0 file into the first deeper level holding files, with the files it overlaps there, so
   * that the rewrite leaves no large level-0 file for every read to merge) data files numbered
   * below {@code boundary}, until about {@code maxBytes} of them have been rewritten, and waits.
   * With the value-separation settings in force, a rewrite moves each separated value to where the
   * settings now place it (inline, if below {@code minBlobBytes} and garbage collection covers its
   * blob file). Files a background compaction is rewriting already are skipped; so is everything
   * when the engine holds no blob file.
   *
   * @param boundary rewrite files numbered below this ({@link #fileNumberBoundary()} earlier)
   * @param maxBytes bytes of data files to rewrite in this call (at least one file is rewritten
   *     if any is left)
   * @param bytesPerSecond the pace of the rewrite: each compaction writes its output at this rate
   *     at most, however large it is; {@code Long.MAX_VALUE} for none
   * @return what was rewritten and what is left
   */
  default Rewrite rewriteFilesBelow(long boundary, long maxBytes, long bytesPerSecond) {
    return Rewrite.DONE;
  }

  /**
   * The store is closing: a paced {@link #rewriteFilesBelow} in progress finishes its current
   * compaction at full speed and starts no other, and later calls rewrite nothing, so the close
   * does not wait for the pace. Callable from any thread.
   */
  default void hurryRewrites() {}

  /**
   * Progress of {@link #rewriteFilesBelow}.
   *
   * @param rewrittenBytes bytes the call rewrote: the data files, plus the separated values
   *     their rewrite brought back inline
   * @param filesLeft data files below the boundary still to rewrite (0: done)
   */
  record Rewrite(long rewrittenBytes, long filesLeft) {
    /** Nothing rewritten, nothing left. */
    public static final Rewrite DONE = new Rewrite(0, 0);
  }

  /**
   * The state the value-separation tuner saved with {@link #saveTunerState}, kept with the data
   * across restarts.
   *
   * @return the bytes, or null if none was saved
   */
  default byte[] loadTunerState() {
    return null;
  }

  /**
   * Saves the value-separation tuner's state (durably, with the engine's metadata).
   *
   * @param state the bytes
   */
  default void saveTunerState(byte[] state) {}

  /**
   * Lets background compactions start. An engine opens with them held, so that the settings the
   * value-separation tuner restores ({@link #applySeparation}) are in force before any compaction
   * rewrites a file; the store calls this once they are (or right after open without a tuner).
   * The first call may also flush or compact, on the calling thread, what open left behind (the
   * RocksDB engine flushes writes recovered over many sessions and merges a small shard's small
   * files). Idempotent.
   */
  default void startCompactions() {}

  /** Flushes memtables to disk and waits. */
  void flush();

  /**
   * Starts an openable copy of the engine's state as of this call: fixes which files and which
   * prefix of each log make that state and keeps them from being deleted, without copying anything
   * (the store calls this at a consistent cut, with the shard's worker held, so it must be quick).
   * An engine whose writes skip the log flushes its memtables here first. The copy is written later
   * by {@link Checkpoint#writeTo}, while the engine runs on.
   *
   * @return the started copy; close it, written or not
   */
  Checkpoint beginCheckpoint();

  /** A copy of an engine's state started by {@link #beginCheckpoint()}. */
  interface Checkpoint extends AutoCloseable {
    /**
     * Writes the copy, synced, into {@code target}: immutable files hard-linked where the file
     * system allows, copied otherwise; the rest copied up to the state it was started at.
     *
     * @param target a directory that does not exist yet; its parent exists
     */
    void writeTo(Path target);

    /** Lets the engine delete the files the copy kept. Idempotent. */
    @Override
    void close();
  }

  /**
   * Compacts the whole key range, the bottom level included, collecting blob garbage from every
   * blob file, and waits. Under a size-aware placement, medium values come back inline in this
   * compaction (Parallax merges medium values in place at the last level, and a full compaction
   * moves every pair to the last level); large values stay separated.
   */
  void compact();
}
