package io.p2kv.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Runs the real {@code site.ycsb.Client} (it calls {@code System.exit}, hence a forked JVM) with
 * data integrity checks: load, then workloads A and E, for each binding, and judges each run by its
 * output, since YCSB exits 0 even when {@code init()} fails.
 */
class YcsbClientProcessTest {
  private static final int RECORDS = 2000;
  private static final int OPERATIONS = 2000;
  private static final Path WORKLOADS = Path.of("workloads");

  @TempDir Path tmp;

  @ParameterizedTest
  @ValueSource(strings = {"io.p2kv.ycsb.P2kvYcsbClient", "io.p2kv.ycsb.RocksDbYcsbClient"})
  void shouldLoadAndRunWorkloadsAAndEWithEveryVerificationOk(String db) throws Exception {
    Path dir = tmp.resolve("store");
    List<String> common =
        List.of(
            "-db", db,
            "-threads", "4",
            "-p", "p2kv.dir=" + dir,
            "-p", "p2kv.shards=2",
            "-p", "p2kv.memorybudgetmb=32",
            "-p", "dataintegrity=true",
            "-p", "recordcount=" + RECORDS,
            "-p", "operationcount=" + OPERATIONS);

    YcsbOutput load = ycsb("-load", WORKLOADS.resolve("workloada"), common);
    assertEquals(List.of(), load.problems(RECORDS, false), load.text);
    assertEquals(RECORDS, load.operations("INSERT"), load.text);

    YcsbOutput a = ycsb("-t", WORKLOADS.resolve("workloada"), common);
    assertEquals(List.of(), a.problems(OPERATIONS, true), a.text);
    assertTrue(a.operations("READ") > 0 && a.operations("UPDATE") > 0, a.text);

    YcsbOutput e = ycsb("-t", WORKLOADS.resolve("workloade"), common);
    assertEquals(List.of(), e.problems(OPERATIONS, false), e.text);
    assertTrue(e.operations("SCAN") > 0 && e.operations("INSERT") > 0, e.text);
  }

  @Test
  void shouldCatchAFailedInitThatYcsbItselfIgnores() throws Exception {
    List<String> args =
        List.of(
            "-db", "io.p2kv.ycsb.P2kvYcsbClient",
            "-p", "p2kv.dir=" + tmp.resolve("store"),
            "-p", "p2kv.valueseparation=on",
            "-p", "recordcount=10");
    YcsbOutput load = ycsb("-load", WORKLOADS.resolve("workloada"), args);
    assertFalse(load.problems(10, false).isEmpty(), load.text);
    assertTrue(load.text.contains("p2kv.valueseparation must be none, all, sizeaware"), load.text);
  }

  private YcsbOutput ycsb(String phase, Path workload, List<String> args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xmx256m");
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add("site.ycsb.Client");
    cmd.add(phase);
    cmd.add("-P");
    cmd.add(workload.toString());
    cmd.addAll(args);
    Path log = Files.createTempFile(tmp, "ycsb", ".log");
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor();
      throw new AssertionError("YCSB did not finish in 60 s: " + String.join(" ", cmd) + "\n" + Files.readString(log));
    }
    return new YcsbOutput(Files.readString(log, StandardCharsets.UTF_8));
  }
}
