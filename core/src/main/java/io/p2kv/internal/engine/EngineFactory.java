package io.p2kv.internal.engine;

import java.nio.file.Path;

/**
 * Opens the engines of one store and owns what they share (cache, memory budget, statistics).
 * Closed after every engine it opened.
 */
public interface EngineFactory extends AutoCloseable {
  /**
   * Opens one shard's engine.
   *
   * @param shard shard index
   * @param dir the shard directory
   * @param create true if the shard is new (the directory may be created), false if it must exist
   * @return the open engine
   * @throws EngineException if it cannot be opened
   */
  Engine open(int shard, Path dir, boolean create);

  /** Frees the shared resources. Idempotent. */
  @Override
  void close();
}
