package io.p2kv.examples;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/**
 * Not thread-safe: the store directory of an example run: the directory given as the first
 * argument (kept afterwards), or a new temporary directory (deleted on {@link #close()}).
 *
 * @param path the directory
 * @param temporary whether {@link #close()} deletes it
 */
record ExampleDir(Path path, boolean temporary) implements AutoCloseable {
  static ExampleDir fromArgs(String[] args, String prefix) throws IOException {
    if (args.length > 0) {
      return new ExampleDir(Path.of(args[0]), false);
    }
    return new ExampleDir(Files.createTempDirectory(prefix), true);
  }

  /**
   * A path in the directory for a copy an example makes (a checkpoint, a restore): {@code name},
   * or {@code name-2}, {@code name-3}, ... when an earlier run in the same directory made those.
   */
  Path fresh(String name) {
    Path p = path.resolve(name);
    for (int n = 2; Files.exists(p); n++) {
      p = path.resolve(name + "-" + n);
    }
    return p;
  }

  @Override
  public void close() {
    if (temporary) {
      deleteTree(path);
    }
  }

  /** Deletes a directory and everything in it; a missing directory is not an error. */
  static void deleteTree(Path dir) {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete " + dir, e);
    }
  }
}
