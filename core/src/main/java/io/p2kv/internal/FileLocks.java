package io.p2kv.internal;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Exclusive OS file locks that exclude this JVM as well as other processes. The JDK refuses a
 * second lock on a file this JVM has locked ({@link OverlappingFileLockException}), but only after
 * opening a second channel on it, and on Linux closing that channel releases the process's POSIX
 * lock on the file: the first holder keeps a lock object that says it is valid while another
 * process can take the file. So a file locked here is never opened a second time: this JVM's
 * holders are kept in a set, checked first.
 */
final class FileLocks {
  /** The files this JVM holds locks on, by real path. */
  private static final Set<Path> HELD = ConcurrentHashMap.newKeySet();

  private FileLocks() {}

  /** Who holds a lock that could not be taken. */
  enum Holder {
    /** Another opener in this JVM. */
    THIS_PROCESS,
    /** Another process. */
    OTHER_PROCESS
  }

  /** A held lock; closing it releases the lock and closes its file. */
  static final class Held implements AutoCloseable {
    private final Path key;
    private final FileChannel channel;
    private final FileLock lock;

    private Held(Path key, FileChannel channel, FileLock lock) {
      this.key = key;
      this.channel = channel;
      this.lock = lock;
    }

    @Override
    public void close() {
      try {
        lock.release();
      } catch (IOException ignored) {
        // closing the channel releases it anyway
      }
      try {
        channel.close();
      } catch (IOException ignored) {
        // nothing more to do
      } finally {
        HELD.remove(key);
      }
    }
  }

  /** Thrown by {@link #tryLock} when someone else holds the lock. */
  static final class Busy extends Exception {
    private static final long serialVersionUID = 1L;

    /** Who holds it. */
    final Holder holder;

    Busy(Holder holder) {
      super(holder == Holder.THIS_PROCESS ? "locked in this process" : "locked by another process", null, false, false);
      this.holder = holder;
    }
  }

  /**
   * Takes the lock on {@code file} (created if missing) or says who holds it.
   *
   * @param file the lock file; its directory must exist
   * @return the held lock
   * @throws Busy if this JVM or another process holds it
   * @throws IOException if the file cannot be created, opened or locked
   */
  static Held tryLock(Path file) throws Busy, IOException {
    Path key = file.toAbsolutePath().getParent().toRealPath().resolve(file.getFileName());
    if (!HELD.add(key)) {
      throw new Busy(Holder.THIS_PROCESS);
    }
    FileChannel channel = null;
    try {
      channel = FileChannel.open(key, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock;
      try {
        lock = channel.tryLock();
      } catch (OverlappingFileLockException e) { // locked by code of this JVM other than this class
        throw new Busy(Holder.THIS_PROCESS);
      }
      if (lock == null) {
        throw new Busy(Holder.OTHER_PROCESS);
      }
      return new Held(key, channel, lock);
    } catch (Busy | IOException | RuntimeException e) {
      if (channel != null) {
        try {
          channel.close();
        } catch (IOException ignored) {
          // the failure at hand is the one to report
        }
      }
      HELD.remove(key);
      throw e;
    }
  }
}
