package io.p2kv.examples.tools;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Directory trees the tools create and remove. */
final class DirectoryTree {
  private DirectoryTree() {}

  /**
   * Deletes a directory and everything in it; a missing directory is not an error.
   *
   * @param dir the directory
   * @throws IOException if something cannot be deleted
   */
  static void delete(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }

  /**
   * Total size of the regular files under a directory.
   *
   * @param dir the directory
   * @return bytes and number of files
   * @throws IOException if it cannot be walked
   */
  static long[] sizeAndFiles(Path dir) throws IOException {
    long[] sum = new long[2];
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.filter(Files::isRegularFile).toList()) {
        sum[0] += Files.size(p);
        sum[1]++;
      }
    }
    return sum;
  }

  /**
   * Whether a path is absent or an empty directory.
   *
   * @param dir the path
   * @return true if a store could be created there
   * @throws IOException if it cannot be listed
   */
  static boolean isAbsentOrEmpty(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return true;
    }
    if (!Files.isDirectory(dir)) {
      return false;
    }
    try (Stream<Path> list = Files.list(dir)) {
      return list.findAny().isEmpty();
    }
  }
}
