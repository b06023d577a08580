package io.p2kv.internal;

import io.p2kv.P2kvException;
import io.p2kv.StoreCorruptedException;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Comparator;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A whole-store copy being written (a checkpoint, a restore) and how it is published: the target
 * directory comes into being with an {@value #INCOMPLETE} marker file in it, durably (made aside
 * and renamed into place), before anything else, and loses it,
 * durably, only after everything else is written and synced. A crash at any moment in between
 * leaves the marker, and {@link StoreOpener} refuses a directory that has one ({@link
 * #checkComplete}), so an interrupted copy is never opened as a partial store.
 *
 * <h2>Leftovers</h2>
 * A copy's directory is made aside before it is renamed onto the target, and set aside before it is
 * deleted, under a hidden sibling name, {@code .<target>.p2kv-incomplete-<pid>-<n>}, naming the
 * process that made it. A kill at the wrong moment leaves such a sibling. {@link #removeAbandoned}
 * deletes those whose process is gone, and only when they are p2kv's beyond doubt: the name, a
 * directory (not a link) holding the marker, or empty (a deletion that had removed the marker).
 * The store calls it on the target's parent before each checkpoint and restore, and on the
 * store's own directory and its parent when it opens. A sibling of a running process is never
 * touched (it may be a copy in progress), nor one whose process id is in use again (it waits for a
 * later call).
 */
public final class StoreCopy {
  private static final Logger LOG = LoggerFactory.getLogger(StoreCopy.class);

  /** The marker of a copy that is not finished. */
  public static final String INCOMPLETE = "INCOMPLETE";

  /** In the name of a hidden sibling, between the target's name and the process id. */
  private static final String LEFTOVER = ".p2kv-incomplete-";
  /** A hidden sibling's name: the target's name, the id of the process that made it, a hex nonce. */
  private static final Pattern LEFTOVER_NAME = Pattern.compile("\\..+\\.p2kv-incomplete-([0-9]{1,18})-[0-9a-f]+");

  private StoreCopy() {}

  /** A new hidden sibling name for {@code target} (see "Leftovers"). */
  private static Path hiddenSibling(Path target) {
    return target.resolveSibling(
        "." + target.getFileName() + LEFTOVER + ProcessHandle.current().pid() + "-" + Long.toHexString(System.nanoTime()));
  }

  /**
   * Starts a copy: deletes the abandoned leftovers of earlier copies beside it ({@link
   * #removeAbandoned}), checks that {@code target} is absent or an empty directory, creates it and
   * writes the marker durably.
   *
   * @param target the copy's directory, absolute and normalised
   * @param what what is being written, for the marker and messages (e.g. "checkpoint of /data/kv")
   */
  public static void begin(Path target, String what) {
    removeAbandoned(target.getParent());
    if (Files.exists(target)) {
      if (!Files.isDirectory(target)) {
        throw new IllegalArgumentException("target " + target + " of the " + what + " is a file; give a new directory");
      }
      if (!names(target).isEmpty()) {
        throw new IllegalArgumentException(
            "target " + target + " of the " + what + " is not empty; give a new or empty directory");
      }
    }
    // The directory appears with its marker already inside: made as a hidden sibling, then renamed
    // onto the target (rename(2) replaces an empty directory atomically). A crash before the
    // rename leaves only the sibling, itself marked; never a target without its marker, which
    // open would take for an empty directory and make a new, empty store of.
    Path parent = target.getParent();
    Path staging = hiddenSibling(target);
    try {
      Files.createDirectories(parent);
      Files.createDirectory(staging);
      String text =
          "p2kv: this directory holds an unfinished " + what + ". If no copy is running, it was interrupted"
              + " (a crash or an error): delete the directory and make the copy again.\n";
      try (FileChannel ch =
          FileChannel.open(staging.resolve(INCOMPLETE), StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
        ch.write(java.nio.ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8)));
        ch.force(true);
      }
      Manifest.fsyncDirectory(staging);
      Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
      Manifest.fsyncDirectory(parent);
    } catch (IOException e) {
      deleteQuietly(staging);
      throw new P2kvException("cannot start the " + what + " in " + target + ": " + e, e);
    }
  }

  /**
   * Publishes a finished copy: syncs every file and directory under it, then removes the marker
   * durably.
   *
   * @param target the copy's directory
   */
  public static void publish(Path target) {
    try {
      try (Stream<Path> walk = Files.walk(target)) {
        for (Path p : walk.toList()) {
          if (Files.isDirectory(p)) {
            Manifest.fsyncDirectory(p);
          } else if (!p.getFileName().toString().equals(INCOMPLETE)) {
            try (FileChannel ch = FileChannel.open(p, StandardOpenOption.READ)) {
              ch.force(true);
            }
          }
        }
      }
      Files.delete(target.resolve(INCOMPLETE));
      Manifest.fsyncDirectory(target);
    } catch (IOException e) {
      throw new P2kvException("cannot publish the copy in " + target + ": " + e, e);
    }
  }

  /**
   * Refuses a directory that holds an unfinished copy.
   *
   * @param dir a directory about to be opened as a store
   * @throws StoreCorruptedException if it holds the marker
   */
  public static void checkComplete(Path dir) {
    if (Files.exists(dir.resolve(INCOMPLETE))) {
      throw new StoreCorruptedException(
          "directory " + dir + " holds an incomplete copy of a store (a checkpoint or restore that was interrupted:"
              + " its " + INCOMPLETE + " file is still there); it is not a complete store and is not opened. Delete the"
              + " directory and make the copy again",
          null);
    }
  }

  /**
   * Deletes an unfinished copy: renamed aside first (so the target disappears at once), then
   * deleted with the marker last, so a crash meanwhile still leaves it refused. Best effort: what
   * cannot be deleted stays, with the marker.
   *
   * @param target the copy's directory
   */
  public static void deleteQuietly(Path target) {
    if (target.getParent() != null && Files.exists(target.resolve(INCOMPLETE))) {
      // Out of the way first, atomically: a crash while deleting then leaves nothing at the target.
      Path aside = hiddenSibling(target);
      try {
        Files.move(target, aside, StandardCopyOption.ATOMIC_MOVE);
        target = aside;
      } catch (IOException | RuntimeException e) {
        // Deleted in place, the marker last.
      }
    }
    deleteMarked(target);
  }

  /** Deletes a marked directory, the marker last; best effort. */
  private static void deleteMarked(Path target) {
    Path marker = target.resolve(INCOMPLETE);
    try (Stream<Path> walk = Files.walk(target)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        if (!p.equals(marker) && !p.equals(target)) {
          Files.deleteIfExists(p);
        }
      }
      Files.deleteIfExists(marker);
      Files.deleteIfExists(target);
    } catch (IOException | RuntimeException e) {
      // Left in place, still marked incomplete.
    }
  }

  /**
   * Deletes a copy and what an interrupted {@link #begin} of it left beside it (its marked
   * staging directories), as {@link #deleteQuietly} does.
   *
   * @param target the copy's directory
   */
  static void deleteWithLeftovers(Path target) {
    if (Files.exists(target)) {
      deleteQuietly(target);
    }
    String prefix = "." + target.getFileName() + LEFTOVER;
    try (Stream<Path> list = Files.list(target.getParent())) {
      for (Path p : list.filter(p -> p.getFileName().toString().startsWith(prefix)).toList()) {
        deleteMarked(p);
      }
    } catch (IOException e) {
      // Left in place, still marked incomplete.
    }
  }

  /**
   * Deletes the hidden siblings that interrupted copies left in {@code dir} (see "Leftovers"),
   * those whose process is gone and that are p2kv's beyond doubt; logs each at INFO. Best effort:
   * a directory that cannot be listed, or a leftover that cannot be deleted, is left as it is.
   *
   * @param dir a directory that may hold leftovers (a copy target's parent, a store's directory)
   */
  static void removeAbandoned(Path dir) {
    List<Path> entries;
    try (Stream<Path> list = Files.list(dir)) {
      entries = list.filter(p -> LEFTOVER_NAME.matcher(p.getFileName().toString()).matches()).toList();
    } catch (IOException | RuntimeException e) {
      return; // absent, unreadable: nothing we may clean
    }
    for (Path p : entries) {
      if (isAbandoned(p)) {
        LOG.info("p2kv: deleting {}, left by an interrupted copy (a checkpoint, restore or backup) of a process that has ended", p);
        deleteMarked(p);
      }
    }
  }

  /** Whether a hidden sibling's process is gone and it is a marked or empty directory, not a link. */
  private static boolean isAbandoned(Path p) {
    Matcher m = LEFTOVER_NAME.matcher(p.getFileName().toString());
    if (!m.matches() || ProcessHandle.of(Long.parseLong(m.group(1))).isPresent()) {
      return false;
    }
    if (!Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
      return false;
    }
    if (Files.isRegularFile(p.resolve(INCOMPLETE), LinkOption.NOFOLLOW_LINKS)) {
      return true;
    }
    try (Stream<Path> list = Files.list(p)) {
      return list.findAny().isEmpty();
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private static List<String> names(Path dir) {
    try (Stream<Path> list = Files.list(dir)) {
      return list.map(p -> p.getFileName().toString()).toList();
    } catch (IOException e) {
      throw new P2kvException("cannot list " + dir + ": " + e, e);
    }
  }
}
