package io.p2kv.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.bench.report.ResultsReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Proves the benchmarks and the report work: runs a p2kv benchmark and its baseline for one short
 * iteration each, in this JVM, then renders the report from the JSON. Not a measurement.
 */
class BenchmarkJarSmokeTest {
  @TempDir Path tmp;

  @Test
  void shouldRunABenchmarkAndItsBaselineAndRenderTheReport() throws Exception {
    Path json = tmp.resolve("smoke.json");
    Options opts =
        new OptionsBuilder()
            .include("PutBenchmark.syncPut$")
            .include("RocksDbPutBenchmark.put$")
            .param("shards", "1")
            .param("maxBatch", "32")
            .param("valueBytes", "112")
            .param("durability", "WAL")
            .param("baseline", "rocksdb")
            .threads(2)
            .forks(0)
            .warmupIterations(0)
            .measurementIterations(1)
            .measurementTime(TimeValue.milliseconds(300))
            .jvmArgsAppend("-Dp2kv.bench.dir=" + tmp)
            .resultFormat(ResultFormatType.JSON)
            .result(json.toString())
            .build();
    Collection<RunResult> results = new Runner(opts).run();
    assertEquals(2, results.size());
    for (RunResult r : results) {
      assertTrue(r.getPrimaryResult().getScore() > 0, r.getParams().getBenchmark());
    }
    Path cmd = Files.writeString(tmp.resolve("cmd.txt"), "smoke test");
    System.setProperty("java.awt.headless", "true");
    ResultsReport.main(new String[] {tmp.resolve("out").toString(), cmd.toString(), json.toString()});
    String md = Files.readString(tmp.resolve("out/RESULTS.md"));
    // The p2kv row carries its ratio to the baseline measured in the same run.
    assertTrue(
        md.lines().anyMatch(l -> l.startsWith("| PutBenchmark.syncPut | cache=default, durability=WAL, maxBatch=32, shards=1, valueBytes=112, yieldWaitNanos=50000 | 2 |")
            && l.matches(".*\\| [0-9.]+ K \\| [0-9.]+x \\|.*")),
        md);
    assertTrue(Files.size(tmp.resolve("out/results.png")) > 1000);
  }

  @Test
  void shouldRunTheUpdateBenchmarkAgainstBothLockedLoopsAndReportTheRatios() throws Exception {
    Path json = tmp.resolve("update.json");
    Options opts =
        new OptionsBuilder()
            .include("UpdateBenchmark")
            .param("keys", "2000")
            .param("shards", "1")
            .param("distribution", "zipfian")
            .threads(2)
            .forks(0)
            .warmupIterations(0)
            .measurementIterations(1)
            .measurementTime(TimeValue.milliseconds(300))
            .jvmArgsAppend("-Dp2kv.bench.dir=" + tmp)
            .resultFormat(ResultFormatType.JSON)
            .result(json.toString())
            .build();
    Collection<RunResult> results = new Runner(opts).run();
    assertEquals(3, results.size());
    for (RunResult r : results) {
      assertTrue(r.getPrimaryResult().getScore() > 0, r.getParams().getBenchmark());
    }
    Path cmd = Files.writeString(tmp.resolve("cmd.txt"), "smoke test");
    System.setProperty("java.awt.headless", "true");
    ResultsReport.main(new String[] {tmp.resolve("out").toString(), cmd.toString(), json.toString()});
    String md = Files.readString(tmp.resolve("out/RESULTS.md"));
    assertTrue(
        md.lines().anyMatch(l -> l.startsWith("| UpdateBenchmark.p2kvUpdate | cache=default, distribution=zipfian, shards=1 | 2 |")
            && l.matches(".*\\| [0-9.]+x \\| [0-9.]+x \\|$")),
        md);
  }
}
