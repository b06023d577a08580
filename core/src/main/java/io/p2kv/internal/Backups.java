package io.p2kv.internal;

import io.p2kv.BackupInfo;
import io.p2kv.P2kvException;
import io.p2kv.StoreCorruptedException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

/**
 * Incremental backups of a store in a backup directory, made from a consistent checkpoint (so a
 * backup is exactly the store at one consistent cut) and copied without holding the workers.
 *
 * <h2>Layout</h2>
 * <pre>
 * BACKUPDIR/LOCK                      held while an operation runs (one at a time)
 * BACKUPDIR/shared/SOURCE/shard-NNN/F SST and blob files: immutable, so shared by every backup
 *                                     that has them (RocksDB never reuses a file number in a DB;
 *                                     SOURCE is the store's identity, so two stores, or a store
 *                                     deleted and created again, never share a name)
 * BACKUPDIR/private/ID/...            the other files of backup ID (RocksDB MANIFEST, CURRENT,
 *                                     OPTIONS, WAL, the store MANIFEST)
 * BACKUPDIR/meta/ID                   backup ID's file list: a header (time, source, bytes copied),
 *                                     then "S|P crc32c size path" per file
 * </pre>
 *
 * <h2>Crash safety</h2>
 * A backup exists once its list is in {@code meta/}: the list is written to a temporary file,
 * synced and renamed there only after every file it names is copied and synced. A shared file is
 * copied under a temporary name and renamed, so a file under its real name is always whole (a
 * later backup reuses it by name and size). A crash leaves at most temporary files and a private
 * directory without a list: the next operation deletes them. Deleting backups removes the list
 * first, then the files no remaining list names.
 */
public final class Backups {
  /** Where the store's checkpoint for a backup is staged, inside the store directory. */
  static final String STAGING = ".backup-staging";

  /**
   * The file naming a store's line of backups, written into every copy of a store (a checkpoint,
   * a restore) with a new random id. A copy keeps shard 0's RocksDB {@code IDENTITY}, under which
   * a store's table files are filed in a backup directory: without it, the backups of a store and
   * of its copy, in one directory, would file different table files of the same names together,
   * and one would overwrite the other's. A store that never was a copy has no such file, and its
   * backups keep filing under its {@code IDENTITY}.
   */
  static final String LINE_FILE = "BACKUP-LINE";

  private static final String HEADER = "p2kv-backup 1 created=";
  private static final String TMP = ".tmp";

  private Backups() {}

  /**
   * Gives a copy of a store being made in {@code copy} a line of backups of its own (see {@link
   * #LINE_FILE}).
   *
   * @param copy the copy's directory, not yet published
   * @throws IOException if the file cannot be written
   */
  static void newLine(Path copy) throws IOException {
    Files.writeString(copy.resolve(LINE_FILE), java.util.UUID.randomUUID() + "\n");
  }

  /** One file of a backup. */
  private record Entry(boolean shared, long crc, long size, String path) {
    String line() {
      return (shared ? "S " : "P ") + Long.toHexString(crc) + " " + size + " " + path;
    }

    static Entry parse(String line, Path list) {
      String[] f = line.split(" ", 4);
      if (f.length != 4 || !(f[0].equals("S") || f[0].equals("P"))) {
        throw new StoreCorruptedException("backup list " + list + " has a malformed line: " + line, null);
      }
      return new Entry(f[0].equals("S"), Long.parseLong(f[1], 16), Long.parseLong(f[2]), f[3]);
    }

    /** Where the file is kept in the backup directory. */
    Path in(Path backupDir, Listing l) {
      return shared
          ? backupDir.resolve("shared").resolve(l.source).resolve(path)
          : backupDir.resolve("private").resolve(Long.toString(l.id)).resolve(path);
    }

    /** The key of a shared file: its source store, path and size. */
    String sharedKey(String source) {
      return source + "/" + path + " " + size;
    }
  }

  /** A backup's list as read from {@code meta/}. */
  private record Listing(long id, Instant created, String source, List<Entry> entries, long copiedBytes) {
    BackupInfo info() {
      long bytes = 0;
      for (Entry e : entries) {
        bytes += e.size;
      }
      return new BackupInfo(id, created, entries.size(), bytes, copiedBytes);
    }
  }

  /** A checkpoint writer: makes a consistent checkpoint of the store at the staging path. */
  @FunctionalInterface
  interface Checkpointer {
    void checkpoint();
  }

  // ---------------------------------------------------------------- operations

  /**
   * Adds a backup: takes a checkpoint at {@code staging} (the caller's store, at a consistent
   * cut), copies the files no earlier backup has, publishes the list, deletes the staging copy.
   *
   * @param backupDir the backup directory (created if absent)
   * @param staging where the checkpoint is staged (inside the store, on its file system)
   * @param source the store's identity (letters, digits and '-')
   * @param checkpointer writes the checkpoint at {@code staging}
   * @return the new backup
   */
  static BackupInfo add(Path backupDir, Path staging, String source, Checkpointer checkpointer) {
    try {
      Files.createDirectories(backupDir);
    } catch (IOException e) {
      throw new P2kvException("cannot create backup directory " + backupDir + ": " + e, e);
    }
    return locked(backupDir, () -> {
      List<Listing> existing = readAll(backupDir);
      removeLeftovers(backupDir, existing);
      StoreCopy.deleteWithLeftovers(staging);
      Instant created = Instant.now();
      checkpointer.checkpoint();
      try {
        long id = existing.isEmpty() ? 1 : existing.get(existing.size() - 1).id + 1;
        Map<String, Long> sharedCrc = new HashMap<>();
        for (Listing l : existing) {
          for (Entry e : l.entries) {
            if (e.shared) {
              sharedCrc.put(e.sharedKey(l.source), e.crc);
            }
          }
        }
        Listing shape = new Listing(id, created, source, List.of(), 0);
        List<Entry> entries = new ArrayList<>();
        long copied = 0;
        for (Path file : files(staging)) {
          String rel = relative(staging, file);
          long size = Files.size(file);
          boolean shared = rel.endsWith(".sst") || rel.endsWith(".blob");
          Entry entry;
          Entry unknown = new Entry(shared, 0, size, rel);
          Long known = shared ? sharedCrc.get(unknown.sharedKey(source)) : null;
          if (known != null && Files.exists(unknown.in(backupDir, shape))) {
            entry = new Entry(true, known, size, rel);
          } else {
            Path to = unknown.in(backupDir, shape);
            entry = new Entry(shared, copy(file, to, shared), size, rel);
            copied += size;
          }
          entries.add(entry);
        }
        Listing listing = new Listing(id, created, source, entries, copied);
        writeList(backupDir, listing);
        return listing.info();
      } catch (IOException e) {
        throw new P2kvException("backup to " + backupDir + " failed: " + e, e);
      } finally {
        StoreCopy.deleteQuietly(staging);
      }
    });
  }

  /**
   * The backups in a directory, oldest first.
   *
   * @param backupDir the backup directory
   * @return the backups; empty if the directory has none
   */
  public static List<BackupInfo> list(Path backupDir) {
    List<BackupInfo> out = new ArrayList<>();
    for (Listing l : readAll(backupDir)) {
      out.add(l.info());
    }
    return out;
  }

  /**
   * Deletes all but the newest {@code keep} backups, and the files only they used.
   *
   * @param backupDir the backup directory
   * @param keep how many to keep, at least 1
   * @return the ids deleted
   */
  public static List<Long> keepLast(Path backupDir, int keep) {
    if (keep < 1) {
      throw new IllegalArgumentException("keep at least 1 backup: " + keep);
    }
    return locked(backupDir, () -> {
      List<Listing> all = readAll(backupDir);
      List<Long> deleted = new ArrayList<>();
      try {
        for (int i = 0; i < all.size() - keep; i++) {
          long id = all.get(i).id;
          Files.delete(backupDir.resolve("meta").resolve(Long.toString(id)));
          deleted.add(id);
        }
        Manifest.fsyncDirectory(backupDir.resolve("meta"));
      } catch (IOException e) {
        throw new P2kvException("cannot delete backups in " + backupDir + ": " + e, e);
      }
      removeLeftovers(backupDir, readAll(backupDir));
      return deleted;
    });
  }

  /**
   * Checks that every file of a backup is there with its size and checksum.
   *
   * @param backupDir the backup directory
   * @param id the backup
   * @return the backup
   * @throws StoreCorruptedException naming the first file that is missing or damaged
   */
  public static BackupInfo verify(Path backupDir, long id) {
    return locked(backupDir, () -> {
      Listing l = read(backupDir, id);
      for (Entry e : l.entries) {
        Path file = e.in(backupDir, l);
        try {
          if (!Files.exists(file)) {
            throw new StoreCorruptedException("backup " + id + " in " + backupDir + ": file " + file + " is missing", null);
          }
          long crc = checksum(file);
          if (crc != e.crc || Files.size(file) != e.size) {
            throw new StoreCorruptedException(
                "backup " + id + " in " + backupDir + ": file " + file + " is damaged (size " + Files.size(file) + ", crc32c "
                    + Long.toHexString(crc) + "; the backup recorded " + e.size + ", " + Long.toHexString(e.crc) + ")",
                null);
          }
        } catch (IOException ex) {
          throw new P2kvException("cannot read " + file + ": " + ex, ex);
        }
      }
      return l.info();
    });
  }

  /**
   * Restores a backup into a new store directory, checking every file's checksum as it is
   * copied. The target is marked incomplete until the restore has finished (see {@link
   * StoreCopy}).
   *
   * @param backupDir the backup directory
   * @param id the backup, or 0 for the newest
   * @param target absent or an empty directory
   * @return the backup restored
   */
  public static BackupInfo restore(Path backupDir, long id, Path target) {
    Path to = target.toAbsolutePath().normalize();
    return locked(backupDir, () -> {
      Listing l;
      if (id == 0) {
        List<Listing> all = readAll(backupDir);
        if (all.isEmpty()) {
          throw new IllegalArgumentException("backup directory " + backupDir + " has no backup to restore");
        }
        l = all.get(all.size() - 1);
      } else {
        l = read(backupDir, id);
      }
      StoreCopy.begin(to, "restore of backup " + l.id + " from " + backupDir);
      boolean done = false;
      try {
        for (Entry e : l.entries) {
          Path from = e.in(backupDir, l);
          Path into = to.resolve(e.path);
          Files.createDirectories(into.getParent());
          long crc = copyChecked(from, into);
          if (crc != e.crc) {
            throw new StoreCorruptedException(
                "backup " + l.id + " in " + backupDir + ": file " + from + " is damaged (crc32c " + Long.toHexString(crc)
                    + ", recorded " + Long.toHexString(e.crc) + "); restore an older backup",
                null);
          }
        }
        newLine(to);
        StoreCopy.publish(to);
        done = true;
        return l.info();
      } catch (IOException e) {
        throw new P2kvException("restore of backup " + l.id + " from " + backupDir + " to " + to + " failed: " + e, e);
      } finally {
        if (!done) {
          StoreCopy.deleteQuietly(to);
        }
      }
    });
  }

  // ---------------------------------------------------------------- lists

  private static List<Listing> readAll(Path backupDir) {
    Path meta = backupDir.resolve("meta");
    if (!Files.isDirectory(meta)) {
      return new ArrayList<>();
    }
    List<Listing> out = new ArrayList<>();
    try (Stream<Path> list = Files.list(meta)) {
      for (Path p : list.toList()) {
        String name = p.getFileName().toString();
        if (name.matches("\\d+")) {
          out.add(read(backupDir, Long.parseLong(name)));
        }
      }
    } catch (IOException e) {
      throw new P2kvException("cannot list backups in " + backupDir + ": " + e, e);
    }
    out.sort(Comparator.comparingLong(Listing::id));
    return out;
  }

  private static Listing read(Path backupDir, long id) {
    Path file = backupDir.resolve("meta").resolve(Long.toString(id));
    if (!Files.exists(file)) {
      throw new IllegalArgumentException("backup directory " + backupDir + " has no backup " + id + " (see listBackups)");
    }
    try {
      List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
      if (lines.isEmpty() || !lines.get(0).startsWith(HEADER)) {
        throw new StoreCorruptedException("backup list " + file + " has no valid header", null);
      }
      String[] head = lines.get(0).substring(HEADER.length()).split(" (copied|source)=");
      List<Entry> entries = new ArrayList<>();
      for (String line : lines.subList(1, lines.size())) {
        entries.add(Entry.parse(line, file));
      }
      return new Listing(id, Instant.ofEpochMilli(Long.parseLong(head[0])), head[2], entries, Long.parseLong(head[1]));
    } catch (IOException | RuntimeException e) {
      if (e instanceof StoreCorruptedException s) {
        throw s;
      }
      throw new StoreCorruptedException("cannot read backup list " + file + ": " + e, e);
    }
  }

  /** Publishes a backup: its list, synced, renamed into meta/, the directory synced. */
  private static void writeList(Path backupDir, Listing l) throws IOException {
    Path meta = Files.createDirectories(backupDir.resolve("meta"));
    StringBuilder text = new StringBuilder(HEADER).append(l.created.toEpochMilli()).append(" copied=").append(l.copiedBytes)
        .append(" source=").append(l.source).append('\n');
    for (Entry e : l.entries) {
      text.append(e.line()).append('\n');
    }
    Path tmp = meta.resolve(l.id + TMP);
    try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      ch.write(java.nio.ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8)));
      ch.force(true);
    }
    Path priv = backupDir.resolve("private").resolve(Long.toString(l.id));
    if (Files.isDirectory(priv)) {
      syncTree(priv);
    }
    moveAtomically(tmp, meta.resolve(Long.toString(l.id)));
    Manifest.fsyncDirectory(meta);
  }

  /**
   * Deletes what no published backup names: temporary files, private directories of unpublished
   * or deleted backups, and shared files no list references.
   */
  private static void removeLeftovers(Path backupDir, List<Listing> published) {
    Set<Long> ids = new HashSet<>();
    Set<String> shared = new HashSet<>();
    for (Listing l : published) {
      ids.add(l.id);
      for (Entry e : l.entries) {
        if (e.shared) {
          shared.add(l.source + "/" + e.path);
        }
      }
    }
    try {
      Path meta = backupDir.resolve("meta");
      if (Files.isDirectory(meta)) {
        for (Path p : files(meta)) {
          if (p.getFileName().toString().endsWith(TMP)) {
            Files.delete(p);
          }
        }
      }
      Path priv = backupDir.resolve("private");
      if (Files.isDirectory(priv)) {
        try (Stream<Path> list = Files.list(priv)) {
          for (Path p : list.toList()) {
            String name = p.getFileName().toString();
            if (!name.matches("\\d+") || !ids.contains(Long.parseLong(name))) {
              StoreCopy.deleteQuietly(p);
            }
          }
        }
      }
      Path sharedDir = backupDir.resolve("shared");
      if (Files.isDirectory(sharedDir)) {
        for (Path p : files(sharedDir)) {
          if (!shared.contains(relative(sharedDir, p))) {
            Files.delete(p);
          }
        }
      }
    } catch (IOException e) {
      throw new P2kvException("cannot clean backup directory " + backupDir + ": " + e, e);
    }
  }

  // ---------------------------------------------------------------- files

  /** Copies a file, synced; a shared file under a temporary name first, then renamed. */
  private static long copy(Path from, Path to, boolean atomically) throws IOException {
    Files.createDirectories(to.getParent());
    Path dest = atomically ? to.resolveSibling(to.getFileName() + TMP) : to;
    long crc = copyChecked(from, dest);
    try (FileChannel ch = FileChannel.open(dest, StandardOpenOption.WRITE)) {
      ch.force(true);
    }
    if (atomically) {
      moveAtomically(dest, to);
      Manifest.fsyncDirectory(to.getParent());
    }
    return crc;
  }

  /** Copies a file, returning the CRC32C of what was copied. */
  private static long copyChecked(Path from, Path to) throws IOException {
    CRC32C crc = new CRC32C();
    byte[] buffer = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(from);
        OutputStream out = Files.newOutputStream(to)) {
      for (int n; (n = in.read(buffer)) > 0; ) {
        crc.update(buffer, 0, n);
        out.write(buffer, 0, n);
      }
    }
    return crc.getValue();
  }

  private static long checksum(Path file) throws IOException {
    CRC32C crc = new CRC32C();
    byte[] buffer = new byte[1 << 16];
    try (InputStream in = Files.newInputStream(file)) {
      for (int n; (n = in.read(buffer)) > 0; ) {
        crc.update(buffer, 0, n);
      }
    }
    return crc.getValue();
  }

  private static void syncTree(Path dir) throws IOException {
    for (Path p : files(dir)) {
      try (FileChannel ch = FileChannel.open(p, StandardOpenOption.WRITE)) {
        ch.force(true);
      }
      Manifest.fsyncDirectory(p.getParent());
    }
  }

  private static void moveAtomically(Path from, Path to) throws IOException {
    try {
      Files.move(from, to, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(from, to, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  /** Every regular file under dir, sorted, except the copy marker. */
  private static List<Path> files(Path dir) throws IOException {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile).filter(p -> !p.getFileName().toString().equals(StoreCopy.INCOMPLETE)).sorted().toList();
    }
  }

  private static String relative(Path root, Path file) {
    return root.relativize(file).toString().replace('\\', '/');
  }

  // ---------------------------------------------------------------- the lock

  @FunctionalInterface
  private interface Locked<T> {
    T run();
  }

  /** Runs one operation holding the backup directory's lock. */
  private static <T> T locked(Path backupDir, Locked<T> operation) {
    if (!Files.isDirectory(backupDir)) {
      throw new IllegalArgumentException("backup directory " + backupDir + " does not exist");
    }
    FileLocks.Held lock;
    try {
      lock = FileLocks.tryLock(backupDir.resolve("LOCK"));
    } catch (FileLocks.Busy e) {
      throw new P2kvException("backup directory " + backupDir + " is in use by another backup, restore or deletion; try again later");
    } catch (IOException e) {
      throw new P2kvException("cannot lock backup directory " + backupDir + ": " + e, e);
    }
    try (lock) {
      return operation.run();
    }
  }
}
