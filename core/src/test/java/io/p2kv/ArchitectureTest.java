package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Source-level dependency rules the module descriptor cannot express (it only controls what other
 * modules see; see {@link ModuleDescriptorTest}):
 *
 * <ul>
 *   <li>RocksDB types stay behind the engine interface: only the RocksDB engine package and the
 *       public tuning hook package may import {@code org.rocksdb}.
 *   <li>The public package {@code io.p2kv} does not reach into {@code io.p2kv.internal}, except
 *       {@code P2kv.java}, the entry point whose nested builder assembles the store from internal
 *       parts.
 * </ul>
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
              // module-info.java names the RocksDB module in a requires directive, not a type.
              .filter(p -> !p.equals(root.resolve("module-info.java")))
              .filter(p -> !p.startsWith(root.resolve("io/p2kv/internal/engine/rocksdb")))
              .filter(p -> !p.startsWith(root.resolve("io/p2kv/rocksdb")))
              .filter(ArchitectureTest::mentionsRocksDb)
              .map(Path::toString)
              .toList();
    }
    assertEquals(List.of(), offenders);
  }

  /**
   * The API files (the top level of {@code io.p2kv}, not its subpackages) name no internal type, so
   * the API can be read and changed without the internals; only {@code P2kv.java} (with its nested
   * {@code Builder}) may. Comment lines (starting with {@code //}, {@code /*} or {@code *}) are not
   * code and are skipped: {@code package-info.java} says in its Javadoc that {@code
   * io.p2kv.internal} is not API. Code lines are checked whole, trailing comments included.
   */
  @Test
  void shouldKeepThePublicPackageFreeOfInternalTypesExceptTheEntryPoint() throws IOException {
    Path api = Path.of("src/main/java/io/p2kv");
    List<String> offenders;
    try (Stream<Path> files = Files.list(api)) {
      offenders =
          files
              .filter(p -> p.toString().endsWith(".java") && Files.isRegularFile(p))
              .filter(p -> !p.equals(api.resolve("P2kv.java")))
              .filter(ArchitectureTest::mentionsInternalInCode)
              .map(Path::toString)
              .sorted()
              .toList();
    }
    assertEquals(List.of(), offenders);
  }

  private static boolean mentionsInternalInCode(Path p) {
    try {
      return Files.readAllLines(p).stream()
          .map(String::strip)
          .filter(l -> !(l.startsWith("//") || l.startsWith("/*") || l.startsWith("*")))
          .anyMatch(l -> l.contains("io.p2kv.internal"));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  private static boolean mentionsRocksDb(Path p) {
    try {
      return Files.readString(p).contains("org.rocksdb");
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
