package io.p2kv.rocksdb;

import org.rocksdb.Options;

/**
 * The one tuning hook for the RocksDB instance behind each shard (like Kafka Streams'
 * {@code RocksDBConfigSetter}). Called once per shard on the opening thread, after p2kv has set
 * its defaults (shared block cache and write-buffer manager, bloom filters, durability) and before
 * the instance opens. Implementations must be thread-safe if shared between stores.
 *
 * <p>This package is the only public place that names RocksDB types; the rest of the API is
 * engine-neutral.
 */
@FunctionalInterface
public interface RocksDbConfigurer {
  /**
   * Adjusts the options of one shard.
   *
   * @param shard the shard index, from 0
   * @param options p2kv's options for the shard; change them in place. Do not replace the table
   *     format config's block cache or the write-buffer manager unless you mean to leave the
   *     store's shared memory budget.
   */
  void configure(int shard, Options options);

  /**
   * Frees native objects the hook created for a shard (a custom comparator, a rate limiter, ...),
   * called after the shard closed. The default does nothing.
   *
   * @param shard the shard index, from 0
   * @param options the options passed to {@link #configure}
   */
  default void close(int shard, Options options) {}
}
