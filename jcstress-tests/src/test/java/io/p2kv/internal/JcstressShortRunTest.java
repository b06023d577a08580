package io.p2kv.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.openjdk.jcstress.infra.collectors.DiskReadCollector;
import org.openjdk.jcstress.infra.collectors.InProcessCollector;
import org.openjdk.jcstress.infra.collectors.TestResult;
import org.openjdk.jcstress.infra.grading.ReportUtils;
import org.openjdk.jcstress.infra.runners.TestList;

/**
 * The short jcstress pass of {@code mvn verify}: runs every jcstress test of this module once, in
 * one JVM configuration (C2 only, {@code -XX:-TieredCompilation}, no split compilation; JDK 17 adds
 * its own +/-UseBiasedLocking pair), one fork, one iteration of {@code p2kv.jcstress.time} ms, and
 * fails if any test had a forbidden outcome, an error or a timeout, or did not run. About 60 s on
 * 2 cores. The full run is {@code java -jar jcstress-tests/target/jcstress.jar -af NONE} (see
 * README.md).
 *
 * <p>{@code -af NONE}: jcstress 0.16 sizes a fork by its actors, so it pins a termination test
 * (one actor) to a single CPU with {@code taskset}, where the actor and the signal could race only
 * through preemption and the nanosecond windows of a lost wake-up are never hit; without affinity
 * they run on both CPUs.
 *
 * <p>jcstress runs in a JVM of its own (the same {@code java} as this test), from the test class
 * path, in {@code target/jcstress-short}; its whole output goes to {@code jcstress.log} there, and
 * its HTML report to {@code results/}. {@code -Dp2kv.jcstress.skip=true} skips the pass.
 */
class JcstressShortRunTest {
  private static final long TIMEOUT_MINUTES = 10;

  @Test
  void noForbiddenOutcomes() throws Exception {
    assumeFalse(Boolean.getBoolean("p2kv.jcstress.skip"), "p2kv.jcstress.skip=true");
    Path dir = Path.of(System.getProperty("p2kv.jcstress.workdir", "target/jcstress-short"));
    deleteRecursively(dir);
    Files.createDirectories(dir);
    Path log = dir.resolve("jcstress.log");

    String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> cmd = new ArrayList<>(List.of(
        java, "-cp", classPath, "org.openjdk.jcstress.Main",
        "-t", "io\\.p2kv\\..*",
        "-m", "quick",
        "-time", Integer.getInteger("p2kv.jcstress.time", 1000).toString(),
        "-iters", "1",
        "-f", "1",
        "-fsm", "1",
        "-sc", "false",
        "-af", "NONE",
        "-jvmArgs", "-XX:-TieredCompilation",
        "-r", dir.resolve("results").toString()));

    long t0 = System.nanoTime();
    Process p = new ProcessBuilder(cmd)
        .directory(dir.toFile())
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
    if (!p.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
      // jcstress's forked test VMs would outlive their host.
      p.descendants().forEach(ProcessHandle::destroyForcibly);
      p.destroyForcibly();
      fail("jcstress did not finish in " + TIMEOUT_MINUTES + " min; see " + log);
    }
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0);

    Path resultFile;
    try (Stream<Path> s = Files.list(dir)) {
      resultFile = s.filter(f -> f.getFileName().toString().matches("jcstress-results-.*\\.bin\\.gz"))
          .findFirst()
          .orElseThrow(() -> new AssertionError("jcstress wrote no result file; see " + log));
    }
    InProcessCollector collector = new InProcessCollector();
    DiskReadCollector reader = new DiskReadCollector(resultFile.toString(), collector);
    reader.dump();
    reader.close();
    List<TestResult> results = ReportUtils.mergedByName(collector.getTestResults());

    SortedSet<String> expected = new TreeSet<>();
    for (String name : TestList.tests()) {
      if (name.startsWith("io.p2kv.")) {
        expected.add(name);
      }
    }
    SortedSet<String> ran = new TreeSet<>();
    StringWriter failures = new StringWriter();
    PrintWriter pw = new PrintWriter(failures);
    StringBuilder summary = new StringBuilder();
    for (TestResult r : results) {
      ran.add(r.getName());
      boolean passed = ReportUtils.statusToPassed(r) && r.getTotalCount() > 0;
      summary.append(String.format("  %-6s %9d samples  %s%n",
          passed ? "OK" : ReportUtils.statusToLabel(r), r.getTotalCount(), r.getName()));
      if (!passed) {
        ReportUtils.printResult(pw, r, true);
      }
    }
    pw.flush();
    System.out.printf("jcstress short pass, %d s (full output: %s):%n%s", seconds, log, summary);

    assertTrue(!expected.isEmpty(), "no jcstress tests on the class path");
    assertEquals(expected, ran, "jcstress tests that ran; see " + log);
    if (failures.getBuffer().length() > 0) {
      fail("jcstress: forbidden outcomes, errors or no samples; see " + log + "\n" + failures);
    }
    // jcstress exits non-zero when a test failed (reported above) or it could not run at all.
    assertEquals(0, p.exitValue(), "jcstress exit code; see " + log);
  }

  private static void deleteRecursively(Path dir) throws IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (Stream<Path> s = Files.walk(dir)) {
      for (Path f : (Iterable<Path>) s.sorted(Comparator.reverseOrder())::iterator) {
        Files.delete(f);
      }
    }
  }
}
