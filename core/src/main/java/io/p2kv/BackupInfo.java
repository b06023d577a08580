package io.p2kv;

import java.time.Instant;

/**
 * Immutable: one backup in a backup directory ({@link P2kv#backup}, {@link P2kv#listBackups}).
 *
 * @param id the backup's number in its directory, increasing from 1
 * @param created when the backup's consistent cut was taken
 * @param files how many files restoring it writes
 * @param bytes how many bytes restoring it writes
 * @param copiedBytes how many bytes this backup added to the directory when it was made: the files
 *     no earlier backup had (the rest are shared with earlier backups)
 */
public record BackupInfo(long id, Instant created, int files, long bytes, long copiedBytes) {}
