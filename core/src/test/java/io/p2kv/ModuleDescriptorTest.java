package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleDescriptor.Exports;
import java.lang.module.ModuleDescriptor.Requires;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The module descriptor as compiled from {@code module-info.java}: the module exports the API and
 * the RocksDB tuning hook and nothing else, so {@code io.p2kv.internal...} stays unreachable on
 * the module path. Exporting or opening an internal package, to everyone or to a named module,
 * fails here; change the expectation only together with a reason in {@code module-info.java}.
 */
class ModuleDescriptorTest {
  /** The descriptor of the compiled module, read from where {@link P2kv} was loaded from. */
  private static ModuleDescriptor compiledDescriptor() throws Exception {
    Path location = Path.of(P2kv.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    return ModuleFinder.of(location).findAll().stream()
        .map(r -> r.descriptor())
        .filter(d -> d.name().equals("io.p2kv"))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no module io.p2kv in " + location));
  }

  @Test
  void shouldExportExactlyTheApiAndTheTuningHookAndOpenNothing() throws Exception {
    ModuleDescriptor d = compiledDescriptor();
    assertFalse(d.isOpen(), "an open module opens every package, internal ones too");
    assertFalse(d.isAutomatic());
    // Package -> targets; an empty set is an unqualified export.
    Map<String, Set<String>> exports = new TreeMap<>();
    for (Exports e : d.exports()) {
      exports.put(e.source(), new TreeSet<>(e.targets()));
    }
    assertEquals(Map.of("io.p2kv", Set.of(), "io.p2kv.rocksdb", Set.of()), exports);
    assertEquals(Set.of(), d.opens(), "opens");
  }

  @Test
  void shouldConcealEveryInternalPackage() throws Exception {
    ModuleDescriptor d = compiledDescriptor();
    Set<String> internal =
        d.packages().stream().filter(p -> p.startsWith("io.p2kv.internal")).collect(Collectors.toSet());
    assertTrue(internal.contains("io.p2kv.internal") && internal.contains("io.p2kv.internal.metrics"), internal.toString());
    Set<String> everyOtherPackage = new TreeSet<>(d.packages());
    everyOtherPackage.removeAll(internal);
    assertEquals(Set.of("io.p2kv", "io.p2kv.rocksdb"), everyOtherPackage, "packages outside internal are the exported ones");
  }

  @Test
  void shouldPassRocksDbOnToReadersOnlyBecauseTheTuningHookNamesItsOptions() throws Exception {
    Set<String> transitive =
        compiledDescriptor().requires().stream()
            .filter(r -> r.modifiers().contains(Requires.Modifier.TRANSITIVE))
            .map(Requires::name)
            .collect(Collectors.toSet());
    assertEquals(Set.of("rocksdbjni"), transitive);
  }

  /**
   * Surefire runs these tests on the module path, patched into {@code io.p2kv} (see core/pom.xml),
   * so they see the module as users on the module path do: JMX and the dependencies as modules,
   * internals not exported. If this fails, the tests ran on the class path and the module went
   * untested by them.
   */
  @Test
  void shouldRunTheseTestsInsideTheNamedModule() throws Exception {
    Module module = P2kv.class.getModule();
    assertEquals("io.p2kv", module.getName(), "core's tests must run on the module path");
    assertEquals(module, getClass().getModule(), "test classes are patched into the module");
    assertEquals(compiledDescriptor().exports(), module.getDescriptor().exports());
    // Surefire opens the test packages to the unnamed module (for JUnit), so check against a named
    // module that nothing opens anything to: the JMX one.
    Module jmx = ModuleLayer.boot().findModule("java.management").orElseThrow();
    for (String p : module.getPackages()) {
      assertEquals(!p.startsWith("io.p2kv.internal"), module.isExported(p, jmx), p);
      assertFalse(module.isOpen(p, jmx), p);
    }
  }
}
