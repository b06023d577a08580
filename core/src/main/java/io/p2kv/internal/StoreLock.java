package io.p2kv.internal;

import io.p2kv.P2kvException;
import io.p2kv.StoreLockedException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An exclusive lock on {@code <dir>/LOCK}, held while the store is open. An OS file lock, so it
 * excludes other processes; the JDK also refuses a second lock from this process ({@link
 * OverlappingFileLockException}), so it excludes a second open in the same JVM too.
 */
public final class StoreLock implements AutoCloseable {
  /** File name inside the store directory. */
  public static final String FILE_NAME = "LOCK";

  private final FileChannel channel;
  private final FileLock lock;

  private StoreLock(FileChannel channel, FileLock lock) {
    this.channel = channel;
    this.lock = lock;
  }

  /**
   * Takes the lock or fails.
   *
   * @param dir the store directory, which must exist
   * @return the held lock
   * @throws StoreLockedException if another opener holds it
   */
  public static StoreLock acquire(Path dir) {
    Path file = dir.resolve(FILE_NAME);
    FileChannel ch;
    try {
      ch = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new P2kvException("cannot create lock file " + file + ": " + e.getMessage(), e);
    }
    try {
      FileLock lock = ch.tryLock();
      if (lock == null) {
        closeQuietly(ch);
        throw new StoreLockedException("store " + dir + " is already open in another process", null);
      }
      return new StoreLock(ch, lock);
    } catch (OverlappingFileLockException e) {
      closeQuietly(ch);
      throw new StoreLockedException("store " + dir + " is already open in this process", e);
    } catch (IOException e) {
      closeQuietly(ch);
      throw new P2kvException("cannot lock " + file + ": " + e.getMessage(), e);
    }
  }

  private static void closeQuietly(FileChannel ch) {
    try {
      ch.close();
    } catch (IOException ignored) {
      // nothing more to do
    }
  }

  @Override
  public void close() {
    try {
      lock.release();
    } catch (IOException ignored) {
      // closing the channel releases it anyway
    }
    closeQuietly(channel);
  }
}
