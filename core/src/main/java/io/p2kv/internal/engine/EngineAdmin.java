package io.p2kv.internal.engine;

import io.p2kv.LevelStats;
import io.p2kv.SeparationSettings;
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

  /** Flushes memtables to disk and waits. */
  void flush();

  /**
   * Compacts the whole key range, the bottom level included, collecting blob garbage from every
   * blob file, and waits.
   */
  void compact();
}
