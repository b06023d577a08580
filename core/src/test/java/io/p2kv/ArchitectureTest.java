package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * RocksDB types stay behind the engine interface: only the RocksDB engine package and the public
 * tuning hook package may import {@code org.rocksdb}.
 */
class ArchitectureTest {
  @Test
  void shouldKeepRocksDbTypesInTheEnginePackageAndTheTuningHook() throws IOException {
    Path root = Path.of("src/main/java");
    List<String> offenders;
    try (Stream<Path> files = Files.walk(root)) {
      offenders =
          files
              .filter(p -> p.toString().endsWith(".java"))
              .filter(p -> !p.startsWith(root.resolve("io/p2kv/internal/engine/rocksdb")))
              .filter(p -> !p.startsWith(root.resolve("io/p2kv/rocksdb")))
              .filter(ArchitectureTest::mentionsRocksDb)
              .map(Path::toString)
              .toList();
    }
    assertEquals(List.of(), offenders);
  }

  private static boolean mentionsRocksDb(Path p) {
    try {
      return Files.readString(p).contains("org.rocksdb");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
