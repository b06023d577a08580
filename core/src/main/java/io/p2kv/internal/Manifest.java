package io.p2kv.internal;

import io.p2kv.ManifestMismatchException;
import io.p2kv.StoreCorruptedException;
import java.io.IOException;
import java.io.StringReader;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Properties;

/**
 * The store's {@code MANIFEST}: a small text file of {@code key=value} lines that fixes what must
 * never change for the life of a store: format version, shard count, partitioner, and for the hash
 * partitioner its hash function and seed, for the range partitioner its split keys (hex, comma
 * separated, {@code splits=} line). Written once, when the store is created, after every shard
 * directory exists (write to a
 * temporary file, fsync, atomic rename, fsync the directory), so a store with a manifest is always
 * complete.
 *
 * @param formatVersion on-disk format version
 * @param shards number of shards
 * @param partitioner partitioner name
 * @param hash hash function name
 * @param seed hash seed
 * @param splits split keys of the range partitioner; empty for hash partitioning
 */
public record Manifest(int formatVersion, int shards, String partitioner, String hash, int seed, List<byte[]> splits) {
  /** File name inside the store directory. */
  public static final String FILE_NAME = "MANIFEST";

  /** The format this code writes and reads. */
  public static final int FORMAT_VERSION = 1;

  /**
   * The manifest of a new store with the default partitioner.
   *
   * @param shards number of shards
   * @return the manifest
   */
  public static Manifest create(int shards) {
    return new Manifest(FORMAT_VERSION, shards, Partitioner.NAME, Partitioner.HASH, Partitioner.SEED, List.of());
  }

  /**
   * The manifest of a new range-partitioned store.
   *
   * @param splits the split keys, already validated
   * @return the manifest
   */
  public static Manifest createRange(List<byte[]> splits) {
    return new Manifest(FORMAT_VERSION, splits.size() + 1, Partitioner.RANGE, "", 0, List.copyOf(splits));
  }

  /**
   * The partitioner this manifest describes (hash, or range with its split keys).
   *
   * @return the partitioner
   */
  public Partitioner newPartitioner() {
    return Partitioner.RANGE.equals(partitioner) ? Partitioner.range(splits) : new Partitioner(shards);
  }

  /**
   * Checks that the options a store is opened with agree with this manifest.
   *
   * @param dir the store directory, for messages
   * @param config the options
   * @throws ManifestMismatchException naming both values and the fix, if they disagree
   */
  public void checkCompatible(Path dir, StoreConfig config) {
    if (config.shards() > 0 && config.shards() != shards) {
      throw new ManifestMismatchException(
          "store " + dir + " has " + shards + " shards (MANIFEST) but was opened with shards=" + config.shards()
              + "; open it with shards=" + shards + " or leave the shard count unset");
    }
    if (Partitioner.RANGE.equals(partitioner)) {
      if (config.splitKeys() != null && !sameKeys(config.splitKeys(), splits)) {
        throw new ManifestMismatchException(
            "store " + dir + " is range-partitioned with other split keys (" + splits.size() + " in its MANIFEST, "
                + config.splitKeys().size() + " given); open it with the same split keys or with no partitioning option");
      }
      return;
    }
    if (!Partitioner.NAME.equals(partitioner)) {
      throw new ManifestMismatchException(
          "store " + dir + " uses partitioner '" + partitioner + "' (MANIFEST); this p2kv supports '" + Partitioner.NAME
              + "' and '" + Partitioner.RANGE + "'");
    }
    if (config.splitKeys() != null) {
      throw new ManifestMismatchException(
          "store " + dir + " is hash-partitioned (MANIFEST) but was opened with range partitioning; open it without"
              + " rangePartitioning");
    }
    if (!Partitioner.HASH.equals(hash) || seed != Partitioner.SEED) {
      throw new ManifestMismatchException(
          "store " + dir + " uses hash " + hash + " seed " + seed + " (MANIFEST); this p2kv uses "
              + Partitioner.HASH + " seed " + Partitioner.SEED);
    }
  }

  private static boolean sameKeys(List<byte[]> a, List<byte[]> b) {
    if (a.size() != b.size()) {
      return false;
    }
    for (int i = 0; i < a.size(); i++) {
      if (!Arrays.equals(a.get(i), b.get(i))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Reads the manifest of a store.
   *
   * @param dir the store directory
   * @return the manifest, or null if the file does not exist
   * @throws StoreCorruptedException if it exists but cannot be read or understood
   */
  public static Manifest read(Path dir) {
    Path file = dir.resolve(FILE_NAME);
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (NoSuchFileException e) {
      return null;
    } catch (IOException e) {
      throw new StoreCorruptedException("cannot read " + file + ": " + e.getMessage(), e);
    }
    Properties p = new Properties();
    try {
      p.load(new StringReader(text));
    } catch (IOException | IllegalArgumentException e) {
      throw new StoreCorruptedException("malformed manifest " + file + ": " + e.getMessage(), e);
    }
    int version = intField(p, "format.version", file);
    if (version != FORMAT_VERSION) {
      throw new StoreCorruptedException(
          "manifest " + file + " has format.version " + version + "; this p2kv reads version " + FORMAT_VERSION, null);
    }
    int shards = intField(p, "shards", file);
    if (shards < 1) {
      throw new StoreCorruptedException("manifest " + file + " has shards=" + shards, null);
    }
    String partitioner = field(p, "partitioner", file);
    if (!Partitioner.RANGE.equals(partitioner)) {
      return new Manifest(version, shards, partitioner, field(p, "hash", file), intField(p, "hash.seed", file), List.of());
    }
    List<byte[]> splits = new ArrayList<>();
    String splitText = p.getProperty("splits", "").trim();
    try {
      for (String hex : splitText.isEmpty() ? new String[0] : splitText.split(",")) {
        splits.add(HexFormat.of().parseHex(hex.trim()));
      }
    } catch (IllegalArgumentException e) {
      throw new StoreCorruptedException("manifest " + file + " has malformed split keys: " + e.getMessage(), e);
    }
    String problem = Partitioner.checkSplits(splits);
    if (problem == null && splits.size() != shards - 1) {
      problem = shards + " shards need " + (shards - 1) + " split keys, found " + splits.size();
    }
    if (problem != null) {
      throw new StoreCorruptedException("manifest " + file + ": " + problem, null);
    }
    return new Manifest(version, shards, partitioner, "", 0, List.copyOf(splits));
  }

  private static String field(Properties p, String name, Path file) {
    String value = p.getProperty(name);
    if (value == null || value.isBlank()) {
      throw new StoreCorruptedException("manifest " + file + " has no '" + name + "'", null);
    }
    return value.trim();
  }

  private static int intField(Properties p, String name, Path file) {
    String value = field(p, name, file);
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw new StoreCorruptedException("manifest " + file + " has a non-numeric '" + name + "': " + value, e);
    }
  }

  /**
   * Writes this manifest durably.
   *
   * @param dir the store directory
   * @throws IOException on I/O failure
   */
  public void write(Path dir) throws IOException {
    StringBuilder text =
        new StringBuilder("# p2kv store manifest: fixed when the store was created. Do not edit.\n")
            .append("format.version=").append(formatVersion).append('\n')
            .append("shards=").append(shards).append('\n')
            .append("partitioner=").append(partitioner).append('\n');
    if (Partitioner.RANGE.equals(partitioner)) {
      text.append("splits=");
      for (int i = 0; i < splits.size(); i++) {
        text.append(i == 0 ? "" : ",").append(HexFormat.of().formatHex(splits.get(i)));
      }
      text.append('\n');
    } else {
      text.append("hash=").append(hash).append('\n').append("hash.seed=").append(seed).append('\n');
    }
    Path tmp = dir.resolve(FILE_NAME + ".tmp");
    try (FileChannel ch =
        FileChannel.open(tmp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
      ch.write(java.nio.ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8)));
      ch.force(true);
    }
    try {
      Files.move(tmp, dir.resolve(FILE_NAME), StandardCopyOption.ATOMIC_MOVE);
    } catch (AtomicMoveNotSupportedException e) {
      Files.move(tmp, dir.resolve(FILE_NAME), StandardCopyOption.REPLACE_EXISTING);
    }
    fsyncDirectory(dir);
  }

  static void fsyncDirectory(Path dir) {
    try (FileChannel ch = FileChannel.open(dir, StandardOpenOption.READ)) {
      ch.force(true);
    } catch (IOException e) {
      // Some file systems cannot fsync a directory; the rename is still atomic.
    }
  }

  /**
   * The directory of one shard.
   *
   * @param dir store directory
   * @param shard shard index
   * @return {@code dir/shard-NNN}
   */
  public static Path shardDir(Path dir, int shard) {
    return dir.resolve(String.format("shard-%03d", shard));
  }
}
