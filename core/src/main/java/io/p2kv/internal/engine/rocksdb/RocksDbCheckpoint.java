package io.p2kv.internal.engine.rocksdb;

import io.p2kv.internal.engine.EngineAdmin;
import io.p2kv.internal.engine.EngineException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.rocksdb.LogFile;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WalFileType;

/**
 * A checkpoint of one RocksDB instance in two steps, what RocksDB's own {@code Checkpoint} does
 * with {@code log_size_for_flush} set to "never flush" (rocksdbjni exposes only the variant that
 * flushes first, which would hold the shard's worker for a flush, the links and the syncs):
 *
 * <ol>
 *   <li>{@link RocksDbEngine#beginCheckpoint()}, at the cut: {@code DisableFileDeletions}, then the
 *       live files without a flush ({@code GetLiveFiles(false)}: SST and blob files, the MANIFEST
 *       and its size, CURRENT, OPTIONS) and the live write-ahead logs with their sizes. Metadata
 *       only; no I/O on the data.
 *   <li>{@link #writeTo}, later, while the DB runs on: hard-links the SST and blob files (they never
 *       change, and deletions are off, so they are still there), copies the MANIFEST and each
 *       live log up to the size they had at the cut (what the DB appends after that is not part of
 *       the state), writes CURRENT, copies OPTIONS, syncs everything. Opening the copy replays the
 *       logs' prefixes, which holds exactly the writes up to the cut.
 * </ol>
 *
 * <p>A DB that recycles its logs ({@code recycle_log_file_num}, which p2kv sets for {@code SYNC}
 * stores) writes a recycled log over an old file in place, so a log's file size at the cut says
 * nothing about where the writes before the cut end. There the cut records the DB's last sequence
 * number instead, and each log is copied up to its last write batch at or before it ({@link
 * RecycledLogPrefix}). Such a DB keeps logs it could recycle in its directory under their old
 * names, and may rename one for reuse at any time, deletions disabled or not; those are older than
 * the oldest log the DB still needs ({@code rocksdb.min-log-number-to-keep}), and not copied.
 *
 * <p>{@link #close} turns deletions back on (RocksDB counts disables, so concurrent checkpoints are
 * fine).
 */
final class RocksDbCheckpoint implements EngineAdmin.Checkpoint {
  /**
   * A file to link or copy: {@code bytes} to copy, or -1 for all of it (table files are linked);
   * for a log of a DB that recycles its logs, {@code logNumber} >= 0 and its bytes are found at
   * the copy, up to the cut's sequence number.
   */
  private record Part(String name, long bytes, long logNumber) {
    Part(String name, long bytes) {
      this(name, bytes, -1);
    }
  }

  private final RocksDbEngine engine;
  private final RocksDB db;
  private final Path dir;
  /** The files to link or copy, with the bytes to copy (-1: whole, or linked). */
  private final List<Part> parts;
  private final String manifest;
  /** The DB's last sequence number at the cut (read only for a DB that recycles its logs). */
  private final long lastSequence;
  private final AtomicBoolean closed = new AtomicBoolean();

  private RocksDbCheckpoint(RocksDbEngine engine, RocksDB db, Path dir, List<Part> parts, String manifest, long lastSequence) {
    this.engine = engine;
    this.db = db;
    this.dir = dir;
    this.parts = parts;
    this.manifest = manifest;
    this.lastSequence = lastSequence;
  }

  /**
   * Step 1; the caller has flushed first if the DB writes no log.
   *
   * @param recycledLogs whether the DB recycles its logs
   */
  static RocksDbCheckpoint begin(RocksDbEngine engine, RocksDB db, Path dir, boolean recycledLogs) throws RocksDBException {
    db.disableFileDeletions();
    try {
      // After the disable: no log joins the ones the DB may recycle until deletions are back on.
      long lastSequence = recycledLogs ? db.getLatestSequenceNumber() : -1;
      long oldestLog = recycledLogs ? db.getLongProperty("rocksdb.min-log-number-to-keep") : 0;
      RocksDB.LiveFiles live = db.getLiveFiles(false);
      List<Part> parts = new ArrayList<>();
      String manifest = null;
      for (String f : live.files) {
        String name = f.startsWith("/") ? f.substring(1) : f;
        if (name.startsWith("MANIFEST-")) {
          manifest = name;
          parts.add(new Part(name, live.manifestFileSize));
        } else if (!name.equals("CURRENT")) {
          parts.add(new Part(name, -1));
        }
      }
      for (LogFile wal : db.getSortedWalFiles()) {
        if (wal.type() == WalFileType.kAliveLogFile) {
          String name = wal.pathName().startsWith("/") ? wal.pathName().substring(1) : wal.pathName();
          if (!recycledLogs) {
            parts.add(new Part(name, wal.sizeFileBytes()));
          } else if (wal.logNumber() >= oldestLog) {
            parts.add(new Part(name, -1, wal.logNumber()));
          }
        }
      }
      if (manifest == null) {
        throw new IllegalStateException("RocksDB listed no MANIFEST among its live files: " + live.files);
      }
      return new RocksDbCheckpoint(engine, db, dir, parts, manifest, lastSequence);
    } catch (RocksDBException | RuntimeException e) {
      try {
        db.enableFileDeletions();
      } catch (RocksDBException again) {
        e.addSuppressed(again);
      }
      throw e;
    }
  }

  @Override
  public void writeTo(Path target) {
    try {
      Files.createDirectory(target);
      for (Part p : parts) {
        Path from = dir.resolve(p.name);
        Path to = target.resolve(p.name);
        if (p.logNumber >= 0) {
          copy(from, to, RecycledLogPrefix.bytesThrough(from, p.logNumber, lastSequence));
        } else if (p.bytes < 0 && (p.name.endsWith(".sst") || p.name.endsWith(".blob"))) {
          link(from, to);
        } else {
          copy(from, to, p.bytes);
        }
      }
      Path current = target.resolve("CURRENT");
      Files.writeString(current, manifest + "\n", StandardCharsets.UTF_8);
      for (Part p : parts) {
        sync(target.resolve(p.name));
      }
      sync(current);
      syncDirectory(target);
    } catch (IOException e) {
      throw new EngineException("checkpoint of " + dir + " to " + target + " failed: " + e, e);
    }
  }

  private static void link(Path from, Path to) throws IOException {
    try {
      Files.createLink(to, from);
    } catch (IOException | UnsupportedOperationException e) {
      copy(from, to, -1); // another file system, or no hard links
    }
  }

  /** Copies the first {@code bytes} bytes of a file (all of it if negative). */
  private static void copy(Path from, Path to, long bytes) throws IOException {
    byte[] buffer = new byte[1 << 16];
    long left = bytes < 0 ? Long.MAX_VALUE : bytes;
    try (InputStream in = Files.newInputStream(from);
        OutputStream out = Files.newOutputStream(to, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      while (left > 0) {
        int n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
        if (n < 0) {
          break;
        }
        out.write(buffer, 0, n);
        left -= n;
      }
    }
    if (bytes >= 0 && left > 0) {
      throw new IOException(from + " is shorter (" + (bytes - left) + " bytes) than at the cut (" + bytes + ")");
    }
  }

  private static void sync(Path file) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
      ch.force(true);
    }
  }

  private static void syncDirectory(Path d) {
    try (FileChannel ch = FileChannel.open(d, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // Some file systems cannot sync a directory.
    }
  }

  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      engine.checkpointClosed(this);
      try {
        db.enableFileDeletions();
      } catch (RocksDBException e) {
        throw engine.failure("enableFileDeletions after a checkpoint", e);
      }
    }
  }
}
