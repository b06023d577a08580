package io.p2kv.ycsb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class YcsbReportTest {
  @TempDir Path raw;

  private void run(String name, double throughput, String op, long ops, String extra) throws IOException {
    Files.writeString(
        raw.resolve(name),
        "YCSB Client 0.17.0\n"
            + "[OVERALL], RunTime(ms), 1000\n"
            + "[OVERALL], Throughput(ops/sec), " + throughput + "\n"
            + "[" + op + "], Operations, " + ops + "\n"
            + "[" + op + "], AverageLatency(us), 12.5\n"
            + "[" + op + "], 99thPercentileLatency(us), " + (int) throughput + "\n"
            + "[" + op + "], Return=OK, " + ops + "\n"
            + extra);
  }

  @Test
  void shouldReportMediansTheirRatioAndTheSpreadOfRoundRatios() throws IOException {
    double[] p2kv = {100, 200, 150};
    for (int r = 1; r <= 3; r++) {
      run("p2kv-t8-load-r" + r + ".txt", p2kv[r - 1], "INSERT", 10, "");
      run("rocksdb-t8-load-r" + r + ".txt", 100, "INSERT", 10, "");
    }
    String md = YcsbReport.render(raw, Path.of("workloads"), null);
    assertTrue(md.contains("| LOAD | 8 | 150 | 100 | 1.50x | 1.00x - 2.00x | 1.5x | met |"), md);
    assertTrue(md.contains("| LOAD | 8 | INSERT | 150 | 100 | 13 | 13 |"), md);
    assertTrue(md.contains("None: every operation of every run returned OK."), md);
  }

  @Test
  void shouldListEveryRunWithAFailedOperation() throws IOException {
    run("p2kv-t32-e-r1.txt", 80, "SCAN", 10, "[SCAN], Return=ERROR, 2\n");
    run("rocksdb-t32-e-r1.txt", 100, "SCAN", 10, "");
    String md = YcsbReport.render(raw, Path.of("workloads"), null);
    assertTrue(md.contains("| E | 32 | 80 | 100 | 0.80x | 0.80x | 0.8x | met |"), md);
    assertTrue(md.contains("- p2kv t=32 E round 1: [SCAN], Return=ERROR, 2"), md);
  }

  @Test
  void shouldKeepTheHandWrittenNotes() throws IOException {
    run("p2kv-t8-c-r1.txt", 90, "READ", 10, "");
    run("rocksdb-t8-c-r1.txt", 100, "READ", 10, "");
    String notes = YcsbReport.NOTES_BEGIN + "\nwhy C misses\n" + YcsbReport.NOTES_END;
    String md = YcsbReport.render(raw, Path.of("workloads"), notes);
    assertTrue(md.contains(notes), md);
    assertTrue(md.contains("| C | 8 | 90 | 100 | 0.90x | 0.90x | 1.5x | **missed** |"), md);
  }

  @Test
  void shouldJudgeARunThatNeverStartedAsFailed() {
    YcsbOutput out = new YcsbOutput("Error initializing datastore bindings.\nsite.ycsb.DBException: p2kv.dir is required\n");
    List<String> problems = out.problems(10, false);
    assertTrue(problems.contains("no [OVERALL] section: the run did not finish"), problems.toString());
    assertTrue(problems.contains("completed 0 operations, expected 10"), problems.toString());
    assertEquals(Double.NaN, out.throughput());
  }

  /** Status lines as YCSB's {@code -s} prints them: a start, then {@code (seconds, operations)} pairs. */
  private static String status(long... secondsAndOps) {
    StringBuilder sb = new StringBuilder("2026-11-28 01:24:37:460 0 sec: 0 operations; est completion in 0 second\n");
    for (int i = 0; i < secondsAndOps.length; i += 2) {
      long s = secondsAndOps[i];
      sb.append(String.format("2026-11-28 01:24:%02d:460 %d sec: %d operations; 1.0 current ops/sec; [READ: Count=1]%n",
          37 + s, s, secondsAndOps[i + 1]));
    }
    return sb.toString();
  }

  @Test
  void shouldCountOnlyTheOperationsAfterTheWarmUp() {
    // 100 operations in the first 4 s, then 900 in the 5 s after the first line 4 s in.
    YcsbOutput out = new YcsbOutput(status(2, 40, 4, 100, 6, 500, 9, 1000) + "[OVERALL], Throughput(ops/sec), 111.1\n");
    assertEquals(180.0, out.throughputAfter(4), 1e-9);
    assertEquals(1000 / 9.0, out.throughputAfter(0), 1e-9);
    assertEquals(Double.NaN, out.throughputAfter(9)); // nothing measured after it
    assertEquals(Double.NaN, new YcsbOutput("[OVERALL], Throughput(ops/sec), 5\n").throughputAfter(4));
  }

  @Test
  void shouldAddTheSteadyTableWhenTheRunsHadAWarmUp() throws IOException {
    run("p2kv-t32-d-r1.txt", 100, "READ", 10, status(4, 100, 9, 1100));
    run("rocksdb-t32-d-r1.txt", 100, "READ", 10, status(4, 100, 9, 600));
    String md = YcsbReport.render(raw, Path.of("workloads"), null);
    assertFalse(md.contains("after the first"), md); // no warm-up in meta.txt: no table
    Files.writeString(raw.resolve("meta.txt"), "threads: 32\nwarmup: 4 s\n");
    md = YcsbReport.render(raw, Path.of("workloads"), null);
    assertTrue(md.contains("| D | 32 | 100 | 100 | 1.00x | 1.00x | 1.5x | **missed** |"), md);
    assertTrue(md.contains("## Throughput after the first 4 s"), md);
    assertTrue(md.contains("| D | 32 | 200 | 100 | 2.00x | 2.00x | 1.5x | met |"), md);
  }
}
