package io.p2kv.systemtest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.P2kv;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.lang.invoke.MethodHandles;
import java.lang.module.Configuration;
import java.lang.module.FindException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The module boundary seen from outside, as a user on the module path sees it: p2kv core (the jar
 * this build made, or its classes directory) and its dependencies in a module layer of their own,
 * looked at from this test's unnamed module, and a consumer module compiled against it. The
 * internal packages are unreachable; the API and, through {@code requires transitive}, RocksDB's
 * {@code Options} for the tuning hook are reachable.
 */
class ModuleBoundaryTest {
  private static final Set<String> API_PACKAGES = Set.of("io.p2kv", "io.p2kv.rocksdb");

  /** p2kv core (where {@link P2kv} was loaded from), then the modules it requires, from the class path. */
  private static List<Path> modulePath;

  private static ModuleLayer layer;

  @TempDir Path tmp;

  @BeforeAll
  static void putCoreInALayerOfItsOwn() throws Exception {
    Path core = Path.of(P2kv.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    Map<String, Path> byModuleName = new HashMap<>();
    for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
      moduleName(Path.of(entry)).ifPresent(name -> byModuleName.putIfAbsent(name, Path.of(entry)));
    }
    // Core and what it requires, transitively; modules of the JDK come from the boot layer.
    Set<Path> path = new LinkedHashSet<>(List.of(core));
    Deque<ModuleDescriptor> todo = new ArrayDeque<>(List.of(descriptor(core)));
    while (!todo.isEmpty()) {
      for (ModuleDescriptor.Requires r : todo.pop().requires()) {
        if (ModuleFinder.ofSystem().find(r.name()).isPresent()
            || r.modifiers().contains(ModuleDescriptor.Requires.Modifier.STATIC)) {
          continue;
        }
        Path jar = byModuleName.get(r.name());
        assertTrue(jar != null, "module " + r.name() + " required by p2kv is not on the class path");
        if (path.add(jar)) {
          todo.add(descriptor(jar));
        }
      }
    }
    modulePath = List.copyOf(path);
    Configuration cf =
        ModuleLayer.boot().configuration().resolve(ModuleFinder.of(path.toArray(Path[]::new)), ModuleFinder.of(), Set.of("io.p2kv"));
    // The platform loader as parent: the layer's classes never come from this test's class path.
    layer = ModuleLayer.boot().defineModulesWithOneLoader(cf, ClassLoader.getPlatformClassLoader());
  }

  private static Optional<String> moduleName(Path entry) {
    try {
      return ModuleFinder.of(entry).findAll().stream().findFirst().map(r -> r.descriptor().name());
    } catch (FindException e) {
      return Optional.empty(); // not usable as a module (no loss: p2kv does not need it)
    }
  }

  private static ModuleDescriptor descriptor(Path entry) {
    return ModuleFinder.of(entry).findAll().stream().findFirst().map(ModuleReference::descriptor).orElseThrow();
  }

  @Test
  void shouldExportOnlyTheApiPackagesFromTheBuiltArtifact() {
    Module p2kv = layer.findModule("io.p2kv").orElseThrow();
    ModuleDescriptor d = p2kv.getDescriptor();
    assertEquals(
        API_PACKAGES.stream().collect(Collectors.toMap(p -> p, p -> Set.<String>of())),
        d.exports().stream().collect(Collectors.toMap(ModuleDescriptor.Exports::source, ModuleDescriptor.Exports::targets)),
        "exports of " + modulePath.get(0));
    assertEquals(Set.of(), d.opens());
    assertFalse(d.isOpen());
    Module outside = ModuleBoundaryTest.class.getModule();
    for (String pkg : p2kv.getPackages()) {
      assertEquals(API_PACKAGES.contains(pkg), p2kv.isExported(pkg, outside), pkg);
      assertFalse(p2kv.isOpen(pkg, outside), pkg);
    }
    assertTrue(d.packages().stream().anyMatch(p -> p.startsWith("io.p2kv.internal.")), d.packages().toString());
  }

  @Test
  void shouldRefuseAccessToPublicInternalClassesFromOutsideTheModule() throws Exception {
    ClassLoader loader = layer.findLoader("io.p2kv");
    MethodHandles.Lookup lookup = MethodHandles.publicLookup();
    // Public classes with public members, in exported packages: accessible.
    for (String api : List.of("io.p2kv.P2kv", "io.p2kv.rocksdb.RocksDbConfigurer")) {
      Class<?> c = Class.forName(api, false, loader);
      assertEquals("io.p2kv", c.getModule().getName());
      lookup.accessClass(c);
    }
    // Public classes with public members, in internal packages: not accessible, not even by
    // reflection with setAccessible (the packages are not open).
    for (String internal :
        List.of(
            "io.p2kv.internal.StoreCore",
            "io.p2kv.internal.Murmur3",
            "io.p2kv.internal.engine.rocksdb.RocksDbEngineFactory",
            "io.p2kv.internal.metrics.JmxRegistration")) {
      Class<?> c = Class.forName(internal, false, loader);
      assertThrows(IllegalAccessException.class, () -> lookup.accessClass(c), internal);
      assertFalse(c.getMethods()[0].trySetAccessible(), internal);
    }
    Class<?> murmur = Class.forName("io.p2kv.internal.Murmur3", false, loader);
    assertThrows(
        IllegalAccessException.class,
        () -> murmur.getMethod("hash32", byte[].class, int.class).invoke(null, new byte[0], 0));
  }

  @Test
  void shouldLetAConsumerModuleUseTheApiAndRocksDbOptionsButNotTheInternals() throws Exception {
    Path ok = writeModule(tmp.resolve("ok"), """
        import io.p2kv.P2kv;
        import io.p2kv.rocksdb.RocksDbConfigurer;
        public class App {
          static RocksDbConfigurer hook = (shard, options) -> options.setMaxOpenFiles(100);
          static P2kv.Builder builder() { return P2kv.builder(); }
        }
        """);
    Path bad = writeModule(tmp.resolve("bad"), """
        public class App {
          static Object core = io.p2kv.internal.Murmur3.class;
        }
        """);
    // Compiles against the API and, without requiring rocksdbjni itself, RocksDB's Options.
    Compilation okResult = compile(ok);
    assertTrue(okResult.ok(), okResult.output());
    Compilation badResult = compile(bad);
    assertFalse(badResult.ok(), badResult.output());
    assertTrue(badResult.output().contains("package io.p2kv.internal is not visible"), badResult.output());
  }

  private static Path writeModule(Path dir, String app) throws Exception {
    Files.createDirectories(dir.resolve("src/consumer"));
    Files.writeString(dir.resolve("src/module-info.java"), "module consumer { requires io.p2kv; }\n");
    Files.writeString(dir.resolve("src/consumer/App.java"), "package consumer;\n" + app);
    return dir;
  }

  /** What javac said, and whether it succeeded. */
  private record Compilation(boolean ok, String output) {}

  /** Compiles the module in {@code dir/src} against p2kv on the module path. */
  private static Compilation compile(Path dir) {
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    List<String> args = List.of(
        "-d", dir.resolve("classes").toString(),
        "--module-path", modulePath.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator)),
        dir.resolve("src/module-info.java").toString(),
        dir.resolve("src/consumer/App.java").toString());
    int rc = javac.run(null, out, out, args.toArray(String[]::new));
    return new Compilation(rc == 0, out.toString(StandardCharsets.UTF_8));
  }
}
