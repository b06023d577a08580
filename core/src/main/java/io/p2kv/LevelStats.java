package io.p2kv;

/**
 * Immutable: the size of one level of a shard's LSM tree at the time of a stats snapshot.
 *
 * @param level level number, 0 for the level that receives flushed memtables
 * @param files number of SST files in the level
 * @param bytes bytes of the level's SST files
 */
public record LevelStats(int level, int files, long bytes) {}
