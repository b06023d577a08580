package io.p2kv.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.bench.report.ScalingReport.EngineFit;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link ScalingReport}: RocksDB's per-key and per-write costs fitted from runs at several batch
 * sizes, the mean write batch of each trial read from a JMH log in trial order, the put model's
 * split of the worker's CPU, the median round of a part run several times, and the generated
 * section spliced into SCALING.md between its markers.
 */
class ScalingReportTest {
  @Test
  void shouldFitPerKeyAndPerWriteCostsExactlyOnCostsOfThatShape() {
    // 900 ns per key + 2400 ns per engine write, at batches 1, 4 and 32
    EngineFit fit = EngineFit.of(List.of(new double[] {1, 3300}, new double[] {4, 1500}, new double[] {32, 975}));
    assertEquals(900, fit.perKeyNanos(), 1e-6);
    assertEquals(2400, fit.perBatchNanos(), 1e-6);
    assertEquals(1200, fit.nanos(8), 1e-6);
  }

  @Test
  void shouldReadEachTrialsMeanBatchInOrderAndNaNForATrialWithout(@TempDir Path dir) throws Exception {
    Path log = dir.resolve("put.log");
    Files.write(log, List.of(
        "# Benchmark: io.p2kv.bench.PutBenchmark.asyncPutCallback",
        "# Parameters: (shards = 1)",
        "# p2kv: mean write batch 31.99 over 109234 engine writes, rejected offers 0",
        "# Benchmark: io.p2kv.bench.BatchLimitBenchmark.writeBatchOf32",
        "# Benchmark: io.p2kv.bench.PutBenchmark.syncPut",
        "# p2kv: mean write batch 2.29 over 919745 engine writes, rejected offers 0"));
    List<Double> b = ScalingReport.batches(log);
    assertEquals(3, b.size());
    assertEquals(31.99, b.get(0), 1e-9);
    assertTrue(Double.isNaN(b.get(1)));
    assertEquals(2.29, b.get(2), 1e-9);
  }

  @Test
  void shouldTakeEachTrialFromTheRoundWithTheMedianThroughput(@TempDir Path dir) throws Exception {
    // three rounds of two trials; per trial the median round is a different one
    double[][] scores = {{300, 600}, {100, 500}, {200, 700}};
    for (int r = 0; r < 3; r++) {
      String name = r == 0 ? "put-c2" : "put-c2-r" + (r + 1);
      Files.writeString(dir.resolve(name + ".json"), "[" + trial(1, scores[r][0], r) + "," + trial(2, scores[r][1], r) + "]");
      Files.write(dir.resolve(name + ".log"), List.of(
          "# Benchmark: io.p2kv.bench.PutBenchmark.syncPut",
          "# p2kv: mean write batch " + (r + 1) + ".5 over 10 engine writes, rejected offers 0",
          "# Benchmark: io.p2kv.bench.PutBenchmark.syncPut",
          "# p2kv: mean write batch " + (r + 1) + ".25 over 10 engine writes, rejected offers 0"));
    }
    List<ScalingReport.Point> points = new ScalingReport(dir).points("put-c2");
    assertEquals(2, points.size());
    // trial 1: 300, 100, 200 -> round 3 (200), with round 3's CPU and batch
    assertEquals(200, points.get(0).result().score(), 1e-9);
    assertEquals(3000, points.get(0).cpu("worker"), 1e-9);
    assertEquals(3.5, points.get(0).meanBatch(), 1e-9);
    assertEquals(1, points.get(0).shards());
    // trial 2: 600, 500, 700 -> round 1 (600)
    assertEquals(600, points.get(1).result().score(), 1e-9);
    assertEquals(1000, points.get(1).cpu("worker"), 1e-9);
    assertEquals(1.25, points.get(1).meanBatch(), 1e-9);
    assertEquals(2, points.get(1).shards());
    // a part that was not run has no points
    assertEquals(List.of(), new ScalingReport(dir).points("get-c2"));

    // a round whose trials are not the first round's is refused, not mixed in
    Files.writeString(dir.resolve("put-c2-r4.json"), "[" + trial(4, 1, 3) + "," + trial(2, 1, 3) + "]");
    assertThrows(IllegalStateException.class, () -> new ScalingReport(dir).points("put-c2"));
  }

  /** A JMH JSON result of syncPut with {@code shards}, the score, and a worker CPU of 1000 x (round + 1). */
  private static String trial(int shards, double score, int round) {
    return "{\"benchmark\":\"io.p2kv.bench.PutBenchmark.syncPut\",\"threads\":16,\"params\":{\"shards\":\"" + shards
        + "\"},\"primaryMetric\":{\"score\":" + score + ",\"scoreError\":1},\"secondaryMetrics\":{\"cpu.worker.ns/op\":{\"score\":"
        + 1000 * (round + 1) + "}}}";
  }

  @Test
  void shouldSplitTheWorkersCpuIntoPerWriteAndPerOperationParts() {
    EngineFit engine = new EngineFit(900, 2400);
    Result r = new Result("PutBenchmark.syncPut", Map.of("maxBatch", "32", "shards", "1"), 16, "17", 250_000, 0, 0, 0,
        Map.of("cpu.worker.ns/op", 2000.0, "cpu.caller.ns/op", 3000.0, "cpu.rocksdb.ns/op", 700.0,
            "cpu.gc.ns/op", 10.0, "cpu.jit.ns/op", 20.0, "cpu.other.ns/op", 70.0, "cpu.cores", 1.8));
    ScalingModel m = ScalingReport.putModel("sync puts", new ScalingReport.Point(r, 2.0), engine, 1);
    // 2000 = 2400 / 2 per write + 800 per operation, all of it RocksDB's per-key cost (<= 900)
    assertEquals(800, m.perKeyNanos(), 1e-9);
    assertEquals(0, m.handoffNanos(), 1e-9);
    assertEquals(2000, m.serialNanos(1, 16), 1e-9); // the calibration point is reproduced
    assertEquals(2.0 / 16, m.batchFraction(), 1e-9);
    assertEquals(100, m.jvmNanos(), 1e-9);
    assertEquals(0.9, m.usableCores(), 1e-9);
    // with a larger worker cost, the excess over RocksDB's per key is the hand-off
    Result r2 = new Result("PutBenchmark.asyncPutCallback", Map.of("maxBatch", "32"), 16, "17", 400_000, 0, 0, 0,
        Map.of("cpu.worker.ns/op", 1475.0, "cpu.caller.ns/op", 1000.0, "cpu.rocksdb.ns/op", 700.0,
            "cpu.gc.ns/op", 0.0, "cpu.jit.ns/op", 0.0, "cpu.other.ns/op", 0.0, "cpu.cores", 2.0));
    ScalingModel a = ScalingReport.putModel("async puts", new ScalingReport.Point(r2, 32.0), engine, 64);
    assertEquals(500, a.handoffNanos(), 1e-9);
    assertEquals(1.0, a.batchFraction(), 1e-9); // a full batch: everything in flight was queued
  }

  @Test
  void shouldReplaceOnlyTheGeneratedSection() {
    String doc = "# Scaling\nprose\n" + ScalingReport.BEGIN + "\nold\n" + ScalingReport.END + "\nmore prose\n";
    String out = ScalingReport.splice(doc, "new table\n");
    assertEquals("# Scaling\nprose\n" + ScalingReport.BEGIN + "\nnew table\n" + ScalingReport.END + "\nmore prose\n", out);
    assertThrows(IllegalArgumentException.class, () -> ScalingReport.splice("no markers", "x"));
  }
}
