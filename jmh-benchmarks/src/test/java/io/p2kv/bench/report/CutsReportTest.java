package io.p2kv.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@link CutsReport}: a CutBenchmark run's rounds come from the JSON (throughput per fork) and the
 * log (cut times, writer stall, put latency, in trial order), and the "Consistent cuts" section
 * survives both ways RESULTS.md is written: spliced in place by run-cuts.sh, copied in by
 * run-suite.sh's {@link ResultsReport}.
 */
class CutsReportTest {
  private static final String JSON = """
      [
        {"benchmark": "io.p2kv.bench.CutBenchmark.cuts", "params": {"cut": "none"},
         "secondaryMetrics": {"put": {"rawData": [[100000, 300000], [400000, 400000]]},
                              "cutter": {"rawData": [[900, 900], [900, 900]]}}},
        {"benchmark": "io.p2kv.bench.CutBenchmark.cuts", "params": {"cut": "snapshot"},
         "secondaryMetrics": {"put": {"rawData": [[150000, 150000], [100000, 100000]]},
                              "cutter": {"rawData": [[5000, 7000], [8000, 8000]]}}}
      ]""";

  private static final List<String> LOG = List.of(
      "# Parameters: (cut = none, keys = 200000, shards = 4)",
      "# cut=none: 0 cuts, mean 0.000 ms, max 0.000 ms; writers held 0 times, mean 0.000 ms, max 0.000 ms",
      "# p2kv PUT latency: 10 ops, p50 50.0 us, p99 2000.0 us, p99.9 3000.0 us, max 9000.0 us",
      "# cut=none: 0 cuts, mean 0.000 ms, max 0.000 ms; writers held 0 times, mean 0.000 ms, max 0.000 ms",
      "# p2kv PUT latency: 10 ops, p50 50.0 us, p99 4000.0 us, p99.9 5000.0 us, max 11000.0 us",
      "# cut=snapshot: 100 cuts, mean 0.120 ms, max 19.000 ms; writers held 100 times, mean 0.090 ms, max 18.500 ms",
      "# p2kv PUT latency: 10 ops, p50 60.0 us, p99 3000.0 us, p99.9 6000.0 us, max 20000.0 us",
      "# cut=snapshot: 80 cuts, mean 0.140 ms, max 16.000 ms; writers held 80 times, mean 0.110 ms, max 15.000 ms",
      "# p2kv PUT latency: 10 ops, p50 60.0 us, p99 3500.0 us, p99.9 6500.0 us, max 16000.0 us");

  @Test
  void shouldTakeThroughputFromTheJsonAndTheStallFromTheLogByRound() throws Exception {
    Map<String, List<CutsReport.Round>> rounds = CutsReport.parse(new ObjectMapper().readTree(JSON), LOG);
    assertEquals(List.of("none", "snapshot"), List.copyOf(rounds.keySet()));
    CutsReport.Round s2 = rounds.get("snapshot").get(1);
    assertEquals(100_000, s2.puts, 1e-9);
    assertEquals(8_000, s2.cutsPerSecond, 1e-9);
    assertEquals(80, s2.cuts);
    assertEquals(0.110, s2.meanHeldMs, 1e-9);
    assertEquals(15.0, s2.maxHeldMs, 1e-9);
    assertEquals(3500.0, s2.putP99Us, 1e-9);
    assertEquals(16000.0, s2.putMaxUs, 1e-9);
    assertEquals(200_000, rounds.get("none").get(0).puts, 1e-9);

    String tables = CutsReport.tables(rounds, "java -jar benchmarks.jar CutBenchmark -f 2");
    // Medians: none 300 K (200 K, 400 K), snapshot 125 K, so 0.42x; the longest hold of any round.
    assertTrue(tables.contains("| snapshot | 125 K | 0.42x | 7,000 | 0.130 ms | 0.100 ms | 18.5 ms | 3.3 ms | 18.0 ms |"), tables);
    assertTrue(tables.contains("| none | 300 K | 1.00x | - |"), tables);
  }

  @Test
  void shouldKeepTheSectionWhenEitherScriptWritesResults() {
    String section = "## Consistent cuts (new)\n\nnew tables\n";
    String results = "# p2kv\n\n## p2kv against each baseline\n\nratios\n\n## Consistent cuts (old)\n\nold\n\n## All results\n\nall\n";
    assertEquals("# p2kv\n\n## p2kv against each baseline\n\nratios\n\n## Consistent cuts (new)\n\nnew tables\n\n## All results\n\nall\n",
        CutsReport.splice(results, section));
    String without = "# p2kv\n\nratios\n\n## All results\n\nall\n";
    assertEquals("# p2kv\n\nratios\n\n## Consistent cuts (new)\n\nnew tables\n\n## All results\n\nall\n",
        CutsReport.splice(without, section));

    String generated = new ResultsReport(List.of()).markdown("run-suite.sh", section + "\n");
    int cuts = generated.indexOf("## Consistent cuts (new)");
    assertTrue(cuts > 0 && cuts < generated.indexOf("## All results"), generated);
  }
}
