package io.p2kv.ycsb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Renders {@code docs/benchmarks/YCSB.md} from the raw YCSB output that {@code
 * ycsb-binding/run-ycsb.sh} keeps: one file per store, thread count, phase and round ({@code
 * p2kv-t32-a-r2.txt}), plus {@code meta.txt}, {@code loadavg.txt}, {@code settle.txt}, {@code
 * commands.txt} and an optional {@code sweep/} directory of the same shape. Rounds are summarised
 * by their median; the ratio is the ratio of the medians, and the spread of the per-round ratios
 * (round i of p2kv against round i of the baseline, run back to back) is shown beside it. A
 * hand-written block between {@value #NOTES_BEGIN} and {@value #NOTES_END} in an existing report
 * is kept.
 *
 * <pre>{@code java -cp ... io.p2kv.ycsb.YcsbReport docs/benchmarks/ycsb-raw docs/benchmarks/YCSB.md ycsb-binding/workloads}</pre>
 */
public final class YcsbReport {
  static final String NOTES_BEGIN = "<!-- notes: kept when the report is regenerated -->";
  static final String NOTES_END = "<!-- /notes -->";

  private static final Pattern RAW_FILE = Pattern.compile("^(.+)-t(\\d+)-(load|[a-f]|es)(?:-r(\\d+))?\\.txt$");
  private static final Pattern WARMUP = Pattern.compile("^warmup: ([0-9.]+) s$");
  private static final List<String> PHASES = List.of("load", "a", "b", "c", "d", "e", "es", "f");
  private static final Map<String, String> WHAT =
      Map.of(
          "load", "100% insert, hashed (uniform) key order",
          "a", "50% update (read, merge, write) / 50% read, Zipfian",
          "b", "5% update / 95% read, Zipfian",
          "c", "100% read, Zipfian",
          "d", "5% insert / 95% read, latest",
          "e", "5% insert / 95% scan of 1-100 records, uniform",
          "es", "100% scan of 1-100 records, uniform (E without its inserts; not in Table 1)",
          "f", "50% read-modify-write / 50% read, Zipfian");

  private YcsbReport() {}

  /** One YCSB run: store label, client threads, phase, round. */
  record Run(String label, int threads, String phase, int round, YcsbOutput output) {}

  /**
   * Writes the report.
   *
   * @param args raw directory, report file, workload directory
   * @throws IOException if reading or writing fails
   */
  public static void main(String[] args) throws IOException {
    if (args.length != 3) {
      System.err.println("usage: YcsbReport <raw-dir> <report.md> <workloads-dir>");
      System.exit(2);
    }
    Path raw = Path.of(args[0]);
    Path report = Path.of(args[1]);
    Path workloads = Path.of(args[2]);
    String notes = null;
    if (Files.exists(report)) {
      String old = Files.readString(report);
      int b = old.indexOf(NOTES_BEGIN);
      int e = old.indexOf(NOTES_END);
      if (b >= 0 && e > b) {
        notes = old.substring(b, e + NOTES_END.length());
      }
    }
    Files.writeString(report, render(raw, workloads, notes), StandardCharsets.UTF_8);
  }

  static List<Run> runs(Path dir) throws IOException {
    List<Run> runs = new ArrayList<>();
    if (!Files.isDirectory(dir)) {
      return runs;
    }
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.sorted().toList()) {
        Matcher m = RAW_FILE.matcher(f.getFileName().toString());
        if (m.matches()) {
          int round = m.group(4) == null ? 1 : Integer.parseInt(m.group(4));
          runs.add(new Run(m.group(1), Integer.parseInt(m.group(2)), m.group(3), round, new YcsbOutput(Files.readString(f))));
        }
      }
    }
    runs.sort((x, y) -> Integer.compare(x.round, y.round));
    return runs;
  }

  /** The rounds of one store, thread count and phase, in round order. */
  static List<Run> rounds(List<Run> runs, String label, int threads, String phase) {
    List<Run> out = new ArrayList<>();
    for (Run r : runs) {
      if (r.label.equals(label) && r.threads == threads && r.phase.equals(phase)) {
        out.add(r);
      }
    }
    return out;
  }

  static double median(List<Run> runs, ToDoubleFunction<Run> metric) {
    double[] v = runs.stream().mapToDouble(metric).filter(d -> !Double.isNaN(d)).sorted().toArray();
    if (v.length == 0) {
      return Double.NaN;
    }
    return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
  }

  static String workloadName(String phase) {
    return phase.equals("load") ? "LOAD" : phase.toUpperCase(Locale.ROOT);
  }

  static double target(String phase) {
    return phase.equals("e") || phase.equals("es") ? 0.8 : 1.5;
  }

  static Properties workload(Path dir, String phase) throws IOException {
    Properties p = new Properties();
    Path f = dir.resolve("p2kvs-" + phase);
    if (Files.exists(f)) {
      try (var in = Files.newBufferedReader(f)) {
        p.load(in);
      }
    }
    return p;
  }

  private static String count(Properties p, String name) {
    String v = p.getProperty(name);
    return v == null ? "?" : String.format(Locale.ROOT, "%,d", Long.parseLong(v.trim()));
  }

  static String render(Path raw, Path workloads, String notes) throws IOException {
    List<Run> runs = runs(raw);
    StringBuilder md = new StringBuilder();
    md.append("# YCSB: p2kv against plain RocksDB\n\n");
    md.append("Generated by `ycsb-binding/run-ycsb.sh` (renderer `io.p2kv.ycsb.YcsbReport`) from YCSB's own output,\n");
    md.append("kept in [`ycsb-raw/`](ycsb-raw/). The workloads are the p2KVS paper's Table 1 (EuroSys '22),\n");
    md.append("scaled to this machine: `ycsb-binding/workloads/p2kvs-*`.\n\n");
    md.append("```\n").append(readOr(raw.resolve("meta.txt"), "(no meta.txt)")).append("```\n\n");
    md.append(loadSummary(raw.resolve("loadavg.txt"))).append('\n');

    md.append("| workload | what (Table 1) | records | operations |\n| --- | --- | ---: | ---: |\n");
    for (String phase : PHASES) {
      Properties w = workload(workloads, phase);
      md.append("| ").append(workloadName(phase)).append(" | ").append(WHAT.get(phase)).append(" | ")
          .append(count(w, "recordcount")).append(" | ")
          .append(phase.equals("load") ? "-" : count(w, "operationcount")).append(" |\n");
    }
    md.append("\nA record is one 96-byte field: a ~23-byte key (`user` + up to 19 digits) and 105 encoded bytes,\n");
    md.append("~128 B as in the paper. E runs 1/6 of the operations of the others, as in the paper (20 M vs.\n");
    md.append("120 M). `RECORDS`, `OPS` and `QUICK=1` override these counts: the settings above give the ones run.\n\n");
    md.append("Each round loads a fresh store per binding and thread count, then runs A to F in that order on it\n");
    md.append("(D and E add records), each phase a fresh YCSB JVM; for each phase both stores run back to\n");
    md.append("back, which goes first alternating from phase to phase and from round to round. Before each run\n");
    md.append("phase (A-F) both stores are settled\n");
    md.append("(`io.p2kv.ycsb.Settle`: open, flush, wait until RocksDB estimates no pending compaction, close;\n");
    md.append("[`ycsb-raw/settle.txt`](ycsb-raw/settle.txt)), so that on 2 cores no phase pays for the previous\n");
    md.append("one's compactions. The baseline is one RocksDB instance opened with exactly the options of a\n");
    md.append("p2kv shard (`RocksDbYcsbClient`): same record encoding, same update merge, same block cache\n");
    md.append("and memtable budget. An update is atomic per key in both: p2kv's is one `P2kv.update`, read,\n");
    md.append("merged and written by the shard worker with no lock; the baseline's is a get and a put under a\n");
    md.append("striped per-key lock, as a RocksDB user in Java must write it.\n\n");

    TreeSet<Integer> threads = new TreeSet<>();
    int maxRound = 0;
    for (Run r : runs) {
      if (r.label.equals("p2kv") || r.label.equals("rocksdb")) {
        threads.add(r.threads);
        maxRound = Math.max(maxRound, r.round);
      }
    }
    md.append("## Throughput\n\n");
    md.append("Operations per second as YCSB reports them (`[OVERALL], Throughput(ops/sec)`), median of ")
        .append(maxRound).append(" round(s);\n");
    md.append("the ratio is p2kv / RocksDB of the medians, all from this run. \"Rounds\" is the range of the\n");
    md.append("per-round ratios (each p2kv run against the baseline run right after it): it shows how much one\n");
    md.append("round can mislead. Targets: 1.5x on LOAD, A, B, C, D, F; 0.8x on E. \"Other CPU\" is the most CPU\n");
    md.append("(in cores) that every other process on the machine used during any p2kv / baseline round.\n\n");
    Map<String, Double> others = othersByRun(raw.resolve("loadavg.txt"));
    md.append("| workload | threads | p2kv ops/s | RocksDB ops/s | ratio | rounds | target | | other CPU |\n");
    md.append("| --- | ---: | ---: | ---: | ---: | --- | ---: | --- | ---: |\n");
    List<String> problems = new ArrayList<>();
    for (String phase : PHASES) {
      for (int t : threads) {
        List<Run> p = rounds(runs, "p2kv", t, phase);
        List<Run> b = rounds(runs, "rocksdb", t, phase);
        if (p.isEmpty() && b.isEmpty()) {
          continue;
        }
        md.append(String.format(Locale.ROOT, "| %s | %d | %s | %s / %s |%n", workloadName(phase), t,
            throughputCells(p, b, phase, r -> r.output.throughput()), maxOthers(others, p), maxOthers(others, b)));
        for (Run r : concat(p, b)) {
          for (String problem : r.output.problems(-1, false)) {
            problems.add(r.label + " t=" + r.threads + " " + workloadName(r.phase) + " round " + r.round + ": " + problem);
          }
        }
      }
    }
    double warmup = warmupSeconds(raw.resolve("meta.txt"));
    if (warmup > 0) {
      md.append(steadyTable(runs, threads, warmup));
    }
    md.append("\n## Latency\n\n");
    md.append("99th percentile and mean latency per operation in microseconds (YCSB's HdrHistogram, measured\n");
    md.append("around each DB call; a read-modify-write includes its read and its update), median of the rounds.\n");
    md.append("With 8-32 client threads on 2 cores, a thread that is runnable but not running waits several\n");
    md.append("scheduler slices: tails of milliseconds are mostly that wait, for both stores.\n\n");
    md.append("| workload | threads | operation | p2kv p99 | RocksDB p99 | p2kv mean | RocksDB mean |\n");
    md.append("| --- | ---: | --- | ---: | ---: | ---: | ---: |\n");
    for (String phase : PHASES) {
      for (int t : threads) {
        List<Run> p = rounds(runs, "p2kv", t, phase);
        List<Run> b = rounds(runs, "rocksdb", t, phase);
        List<Run> both = concat(p, b);
        for (String op : YcsbOutput.OPERATIONS) {
          if (both.isEmpty() || median(both, r -> r.output.operations(op)) == 0) {
            continue;
          }
          md.append(String.format(Locale.ROOT, "| %s | %d | %s | %s | %s | %s | %s |%n",
              workloadName(phase), t, op,
              us(p, op, "99thPercentileLatency(us)"), us(b, op, "99thPercentileLatency(us)"),
              us(p, op, "AverageLatency(us)"), us(b, op, "AverageLatency(us)")));
        }
      }
    }
    md.append("\n## Errors\n\n");
    Path retries = raw.resolve("retries.txt");
    if (Files.exists(retries)) {
      md.append("Phases whose JVM died before reporting and that ran again (the failed output is kept as\n");
      md.append("`*.txt.failed`):\n\n");
      for (String line : Files.readAllLines(retries)) {
        md.append("- ").append(line).append('\n');
      }
      md.append('\n');
    }
    if (problems.isEmpty()) {
      md.append("None: every operation of every run returned OK.\n");
    } else {
      for (String problem : problems) {
        md.append("- ").append(problem).append('\n');
      }
    }

    List<Run> sweep = runs(raw.resolve("sweep"));
    if (!sweep.isEmpty()) {
      md.append("\n## p2kv configuration sweep\n\n");
      md.append("p2kv alone (`run-ycsb.sh sweep`: a separate run of one round each, so compare rows with each\n");
      md.append("other, with the 15-30 % noise of a single round in mind, not with the tables above), 32 threads,\n");
      md.append("ops/s:\n\n");
      Map<String, Map<String, Double>> byVariant = new TreeMap<>();
      for (Run r : sweep) {
        byVariant.computeIfAbsent(r.label, k -> new TreeMap<>()).put(r.phase, r.output.throughput());
      }
      TreeSet<String> phases = new TreeSet<>((x, y) -> PHASES.indexOf(x) - PHASES.indexOf(y));
      sweep.forEach(r -> phases.add(r.phase));
      md.append("| variant |");
      phases.forEach(ph -> md.append(' ').append(workloadName(ph)).append(" |"));
      md.append("\n| --- |");
      phases.forEach(ph -> md.append(" ---: |"));
      md.append('\n');
      byVariant.forEach((variant, values) -> {
        md.append("| ").append(variant.replaceFirst("^p2kv-", "")).append(" |");
        phases.forEach(ph -> md.append(' ').append(ops(values.getOrDefault(ph, Double.NaN))).append(" |"));
        md.append('\n');
      });
      md.append("\n```\n").append(readOr(raw.resolve("sweep/meta.txt"), "")).append("```\n\n");
      md.append(loadSummary(raw.resolve("sweep/loadavg.txt")));
    }

    md.append("\n## Notes\n\n");
    md.append(notes != null ? notes : NOTES_BEGIN + "\n(none yet)\n" + NOTES_END).append('\n');

    md.append("\n## Commands\n\nEvery command of the comparison, in order ([`ycsb-raw/commands.txt`](ycsb-raw/commands.txt)):\n\n```\n");
    md.append(readOr(raw.resolve("commands.txt"), "")).append("```\n");
    return md.toString();
  }

  /** The {@code warmup: N s} line of meta.txt (written when the phases ran with status lines), or 0. */
  static double warmupSeconds(Path meta) throws IOException {
    if (!Files.exists(meta)) {
      return 0;
    }
    for (String line : Files.readAllLines(meta)) {
      Matcher m = WARMUP.matcher(line);
      if (m.matches()) {
        return Double.parseDouble(m.group(1));
      }
    }
    return 0;
  }

  /** The throughput table again, for the operations after the first {@code warmup} seconds of each run. */
  private static String steadyTable(List<Run> runs, TreeSet<Integer> threads, double warmup) {
    StringBuilder md = new StringBuilder();
    String w = String.format(Locale.ROOT, "%.0f", warmup);
    md.append("\n## Throughput after the first ").append(w).append(" s\n\n");
    md.append("The same runs, counting only the operations after the first ").append(w)
        .append(" s of each (YCSB's status lines, `-s -p status.interval=1`:\n");
    md.append("operations from the first line at least ").append(w)
        .append(" s in to the last line, over that span). Those seconds are mostly the JIT\n");
    md.append("compiling YCSB's client, the binding and the store, which a long-running application pays once; a phase\n");
    md.append("of a few seconds is mostly that warm-up. Both tables are from the same runs; neither replaces the other.\n\n");
    md.append("| workload | threads | p2kv ops/s | RocksDB ops/s | ratio | rounds | target | |\n");
    md.append("| --- | ---: | ---: | ---: | ---: | --- | ---: | --- |\n");
    ToDoubleFunction<Run> steady = r -> r.output.throughputAfter(warmup);
    for (String phase : PHASES) {
      for (int t : threads) {
        List<Run> p = rounds(runs, "p2kv", t, phase);
        List<Run> b = rounds(runs, "rocksdb", t, phase);
        if (Double.isNaN(median(p, steady)) && Double.isNaN(median(b, steady))) {
          continue; // no status lines: runs without a warm-up
        }
        md.append(String.format(Locale.ROOT, "| %s | %d | %s |%n", workloadName(phase), t, throughputCells(p, b, phase, steady)));
      }
    }
    return md.toString();
  }

  private static List<Run> concat(List<Run> a, List<Run> b) {
    List<Run> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  /**
   * The cells both throughput tables share, for one phase and thread count: the medians of p2kv and
   * the baseline, their ratio, the rounds' ratios, the target and the verdict.
   *
   * @param metric the throughput of a run (whole phase, or after the warm-up)
   */
  private static String throughputCells(List<Run> p, List<Run> b, String phase, ToDoubleFunction<Run> metric) {
    double pt = median(p, metric);
    double bt = median(b, metric);
    double ratio = pt / bt;
    String verdict = Double.isNaN(ratio) ? "" : ratio >= target(phase) ? "met" : "**missed**";
    return String.format(Locale.ROOT, "%s | %s | %s | %s | %.1fx | %s",
        ops(pt), ops(bt), times(ratio), roundRatios(p, b, metric), target(phase), verdict);
  }

  /** "1.2x-1.6x": the range of round i of p2kv over round i of the baseline, by {@code metric}. */
  private static String roundRatios(List<Run> p, List<Run> b, ToDoubleFunction<Run> metric) {
    double min = Double.POSITIVE_INFINITY;
    double max = Double.NEGATIVE_INFINITY;
    int n = 0;
    for (Run x : p) {
      for (Run y : b) {
        if (x.round == y.round) {
          double r = metric.applyAsDouble(x) / metric.applyAsDouble(y);
          if (!Double.isNaN(r)) {
            min = Math.min(min, r);
            max = Math.max(max, r);
            n++;
          }
        }
      }
    }
    if (n == 0) {
      return "-";
    }
    return n == 1 ? times(min) : times(min) + " - " + times(max);
  }

  /**
   * One line of {@code loadavg.txt}: {@code label t=N phase r=R load1 load5 load15 others=C}, where
   * {@code others} is the CPU (in cores) that every other process on the machine used while the
   * phase ran. Older files have no {@code r=} column (round 1) or no {@code others=}.
   *
   * @param run {@code "label t=N phase r=R"}
   * @param load1 the 1-minute load average before the phase, or NaN if the line has none
   * @param others the other processes' CPU, or NaN if not recorded
   */
  record LoadLine(String run, double load1, double others) {}

  static List<LoadLine> loadLines(Path loadavg) throws IOException {
    List<LoadLine> out = new ArrayList<>();
    if (!Files.exists(loadavg)) {
      return out;
    }
    for (String line : Files.readAllLines(loadavg)) {
      String[] parts = line.trim().split("\\s+");
      boolean hasRound = parts.length > 3 && parts[3].startsWith("r=");
      int first = hasRound ? 4 : 3;
      double load1 = parts.length > first ? Double.parseDouble(parts[first]) : Double.NaN;
      String last = parts[parts.length - 1];
      double others = last.startsWith("others=") ? Double.parseDouble(last.substring("others=".length())) : Double.NaN;
      String run = parts.length >= 3
          ? parts[0] + " " + parts[1] + " " + parts[2] + " " + (hasRound ? parts[3] : "r=1")
          : line.trim();
      out.add(new LoadLine(run, load1, others));
    }
    return out;
  }

  /** Summarises {@code loadavg.txt} (see {@link LoadLine}). */
  static String loadSummary(Path loadavg) throws IOException {
    List<Double> loads = new ArrayList<>();
    List<Double> others = new ArrayList<>();
    for (LoadLine l : loadLines(loadavg)) {
      if (!Double.isNaN(l.load1())) {
        loads.add(l.load1());
      }
      if (!Double.isNaN(l.others())) {
        others.add(l.others());
      }
    }
    if (loads.isEmpty()) {
      return "";
    }
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT,
        "Load average (1 minute) before each of the %d phases: %s. It includes the previous phases' own%n"
            + "threads (waiting p2kv callers yield, so they count as runnable), so it overstates other users.%n",
        loads.size(), stats(loads)));
    if (!others.isEmpty()) {
      sb.append(String.format(Locale.ROOT,
          "CPU used by every other process on the machine while a phase ran, in cores (of %d): %s.%n",
          Runtime.getRuntime().availableProcessors(), stats(others)));
    }
    return sb.toString();
  }

  /** {@code "label t=N phase r=R"} to the other processes' CPU during that run. */
  static Map<String, Double> othersByRun(Path loadavg) throws IOException {
    Map<String, Double> out = new TreeMap<>();
    for (LoadLine l : loadLines(loadavg)) {
      if (!Double.isNaN(l.others())) {
        out.put(l.run(), l.others());
      }
    }
    return out;
  }

  private static String maxOthers(Map<String, Double> others, List<Run> runs) {
    double max = Double.NaN;
    for (Run r : runs) {
      Double v = others.get(r.label + " t=" + r.threads + " " + r.phase + " r=" + r.round);
      if (v != null) {
        max = Double.isNaN(max) ? v : Math.max(max, v);
      }
    }
    return Double.isNaN(max) ? "-" : String.format(Locale.ROOT, "%.2f", max);
  }

  private static String stats(List<Double> values) {
    double[] v = values.stream().mapToDouble(Double::doubleValue).toArray();
    return String.format(Locale.ROOT, "min %.2f, mean %.2f, max %.2f",
        Arrays.stream(v).min().orElse(0), Arrays.stream(v).average().orElse(0), Arrays.stream(v).max().orElse(0));
  }

  private static String times(double ratio) {
    return Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2fx", ratio);
  }

  private static String ops(double v) {
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%,.0f", v);
  }

  private static String us(List<Run> runs, String op, String metric) {
    double v = median(runs, r -> r.output.operations(op) == 0 ? Double.NaN : r.output.metric(op, metric));
    return Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%,.0f", v);
  }

  private static String readOr(Path file, String fallback) throws IOException {
    return Files.exists(file) ? Files.readString(file) : fallback;
  }
}
