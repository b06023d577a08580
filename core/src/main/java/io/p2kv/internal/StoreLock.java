package io.p2kv.internal;

import io.p2kv.P2kvException;
import io.p2kv.StoreLockedException;
import java.io.IOException;
import java.nio.file.Path;

/**
 * An exclusive lock on {@code <dir>/LOCK}, held while the store is open. An OS file lock, so it
 * excludes other processes, and a second open in this JVM is refused before it touches the file
 * ({@link FileLocks}: closing a second descriptor on the file would release the first opener's lock).
 */
public final class StoreLock implements AutoCloseable {
  /** File name inside the store directory. */
  public static final String FILE_NAME = "LOCK";

  private final FileLocks.Held held;

  private StoreLock(FileLocks.Held held) {
    this.held = held;
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
    try {
      return new StoreLock(FileLocks.tryLock(file));
    } catch (FileLocks.Busy e) {
      throw new StoreLockedException("store " + dir + " is already open in "
          + (e.holder == FileLocks.Holder.THIS_PROCESS ? "this process" : "another process"), null);
    } catch (IOException e) {
      throw new P2kvException("cannot lock " + file + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    held.close();
  }
}
