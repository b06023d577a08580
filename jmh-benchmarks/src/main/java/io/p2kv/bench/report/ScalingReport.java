package io.p2kv.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.p2kv.bench.report.ScalingModel.Projection;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.imageio.ImageIO;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * Calibrates {@link ScalingModel} from {@code jmh-benchmarks/run-scaling.sh}'s raw output, checks
 * it against the measured 1- and 2-core points, projects 1-32 cores x 1-16 shards, and writes the
 * generated part of {@code SCALING.md} (between its {@code ScalingReport} markers) and {@code
 * scaling.png}.
 *
 * <p>Calibration uses only the 2-core, 1-shard runs (and, for scans, the 2-core 4-shard run for the
 * cost of a further shard) and the single-thread batch-limit runs; every other measured point is a
 * prediction.
 *
 * <p>Usage: {@code java -cp benchmarks.jar io.p2kv.bench.report.ScalingReport <docs/benchmarks>
 * <raw-dir>}
 */
public final class ScalingReport {
  static final int[] CORES = {1, 2, 4, 8, 16, 32};
  static final int[] SHARDS = {1, 2, 4, 8, 16};
  static final int[] MEASURED_SHARDS = {1, 2, 4};
  static final String BEGIN = "<!-- ScalingReport: begin -->";
  static final String END = "<!-- ScalingReport: end -->";
  private static final Pattern BENCH = Pattern.compile("^# Benchmark: \\S+\\.(\\w+\\.\\w+)$");
  private static final Pattern PARAMS = Pattern.compile("^# Parameters: \\((.*)\\)$");
  private static final Pattern BATCH = Pattern.compile("^# p2kv: mean write batch ([0-9.]+) ");

  /** A measured JMH result with the mean write batch its log printed (NaN if none). */
  record Point(Result result, double meanBatch) {
    double cpu(String group) {
      return result.secondary().getOrDefault("cpu." + group + ".ns/op", Double.NaN);
    }

    int shards() {
      return Integer.parseInt(result.params().getOrDefault("shards", "1"));
    }
  }

  /** A workload: its benchmark, callers, in-flight requests and the model calibrated for it. */
  record Workload(String label, String benchmark, String file, int callers, ScalingModel model) {}

  /** RocksDB's own write cost, fitted over the batch-limit runs: per key plus per batch / batch. */
  record EngineFit(double perKeyNanos, double perBatchNanos) {
    static EngineFit of(List<double[]> batchAndNanos) {
      // least squares of nanos = perKey + perBatch * (1 / batch)
      int n = batchAndNanos.size();
      double sx = 0, sy = 0, sxx = 0, sxy = 0;
      for (double[] p : batchAndNanos) {
        double x = 1 / p[0];
        sx += x;
        sy += p[1];
        sxx += x * x;
        sxy += x * p[1];
      }
      double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
      return new EngineFit((sy - slope * sx) / n, slope);
    }

    double nanos(double batch) {
      return perKeyNanos + perBatchNanos / batch;
    }
  }

  private final Path raw;
  private final StringBuilder md = new StringBuilder();
  private final List<Workload> workloads = new ArrayList<>();
  /** Per workload label: {cores, shards, ops/s} of every measured point. */
  private final Map<String, List<double[]>> measured = new LinkedHashMap<>();

  ScalingReport(Path raw) {
    this.raw = raw;
  }

  public static void main(String[] args) throws IOException {
    if (args.length != 2) {
      System.err.println("usage: ScalingReport <docs/benchmarks> <raw-dir>");
      System.exit(2);
    }
    Path docs = Path.of(args[0]);
    ScalingReport report = new ScalingReport(Path.of(args[1]));
    String generated = report.build();
    Path scaling = docs.resolve("SCALING.md");
    String doc = Files.exists(scaling) ? Files.readString(scaling) : BEGIN + "\n" + END + "\n";
    Files.writeString(scaling, splice(doc, generated));
    report.plot(docs.resolve("scaling.png"));
    System.out.println("wrote the model's section of " + scaling + " and " + docs.resolve("scaling.png"));
  }

  /** {@code doc} with the text between the markers replaced by {@code generated}. */
  static String splice(String doc, String generated) {
    return GeneratedSection.replace(doc, BEGIN, END, generated, "SCALING.md");
  }

  // ------------------------------------------------------------------------------ reading

  /**
   * The results of one part of the run, each with the mean write batch its log printed. A part run
   * in several rounds ({@code name.json}, {@code name-r2.json}, ...; {@code run-scaling.sh} with
   * {@code ROUND}) gives, per trial, the round with the median throughput ({@link #medianRound}), so
   * that the point's CPU split and batch are one run's, not a mix.
   */
  List<Point> points(String name) throws IOException {
    List<List<Point>> rounds = new ArrayList<>();
    List<Point> first = roundPoints(name);
    if (first.isEmpty()) {
      return first;
    }
    rounds.add(first);
    for (int r = 2; ; r++) {
      List<Point> more = roundPoints(name + "-r" + r);
      if (more.isEmpty()) {
        break;
      }
      rounds.add(more);
    }
    List<Point> out = new ArrayList<>();
    for (int i = 0; i < first.size(); i++) {
      List<Point> trial = new ArrayList<>();
      for (List<Point> round : rounds) {
        if (i < round.size()) {
          Point p = round.get(i);
          if (!p.result().benchmark().equals(first.get(i).result().benchmark())
              || !p.result().params().equals(first.get(i).result().params())) {
            throw new IllegalStateException(name + ": trial " + i + " differs between rounds");
          }
          trial.add(p);
        }
      }
      out.add(medianRound(trial));
    }
    return out;
  }

  /** Of one trial's rounds, the one with the median score (the lower of the middle two). */
  static Point medianRound(List<Point> rounds) {
    List<Point> sorted = new ArrayList<>(rounds);
    sorted.sort(Comparator.comparingDouble(p -> p.result().score()));
    return sorted.get((sorted.size() - 1) / 2);
  }

  /** The results of one raw JSON file, each with the mean write batch from the log beside it. */
  private List<Point> roundPoints(String name) throws IOException {
    Path json = raw.resolve(name + ".json");
    if (!Files.exists(json)) {
      return List.of();
    }
    List<Point> out = new ArrayList<>();
    List<Double> batches = batches(raw.resolve(name + ".log"));
    int i = 0;
    for (JsonNode n : new ObjectMapper().readTree(json.toFile())) {
      out.add(new Point(Result.of(n), i < batches.size() ? batches.get(i) : Double.NaN));
      i++;
    }
    return out;
  }

  /** The mean write batch of each trial, in the log's trial order (NaN for a trial without). */
  static List<Double> batches(Path log) throws IOException {
    List<Double> out = new ArrayList<>();
    if (!Files.exists(log)) {
      return out;
    }
    boolean open = false;
    for (String line : Files.readAllLines(log)) {
      if (BENCH.matcher(line).matches()) {
        if (open) {
          out.add(Double.NaN);
        }
        open = true;
      }
      Matcher m = BATCH.matcher(line);
      if (m.find() && open) {
        out.add(Double.parseDouble(m.group(1)));
        open = false;
      }
    }
    if (open) {
      out.add(Double.NaN);
    }
    return out;
  }

  private static Point find(List<Point> points, String bench, String... params) {
    for (Point p : points) {
      Map<String, String> want = new LinkedHashMap<>();
      for (int i = 0; i < params.length; i += 2) {
        want.put(params[i], params[i + 1]);
      }
      if (p.result().matches(bench, want)) {
        return p;
      }
    }
    throw new IllegalStateException("no " + bench + " " + String.join(",", params) + " in the raw results");
  }

  // ------------------------------------------------------------------------------ calibration

  String build() throws IOException {
    List<Point> limit = points("limit-c2");
    EngineFit wal = fit(limit, "WAL");
    EngineFit noWal = fit(limit, "NO_WAL");
    Point limit32 = find(limit, "BatchLimitBenchmark.writeBatchOf32", "batch", "32", "durability", "WAL");

    md.append("### Measured CPU per operation by stage (2 cores, 1 shard; `cpu.<group>.ns/op`)\n\n");
    md.append("| workload | ops/s | callers' threads | shard worker thread | RocksDB flush + compaction | GC + JIT + other | total | mean write batch |\n");
    md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    row("batch limit (1 thread, WriteBatch of 32)", limit32);
    for (String b : new String[] {"1", "4", "32"}) {
      for (String d : new String[] {"WAL", "NO_WAL"}) {
        if (!(b.equals("32") && d.equals("WAL"))) {
          row("1 thread, engine writes of " + b + ", " + d, find(limit, "BatchLimitBenchmark.writeBatchOf32", "batch", b, "durability", d));
        }
      }
    }

    List<Point> putC2 = points("put-c2");
    List<Point> getC2 = points("get-c2");
    List<Point> scanC2 = points("scan-c2");
    Point sync1 = find(putC2, "PutBenchmark.syncPut", "shards", "1");
    Point async1 = find(putC2, "PutBenchmark.asyncPutCallback", "shards", "1");
    Point get1 = find(getC2, "GetBenchmark.p2kvGet", "shards", "1");
    row("sync puts, 16 callers", sync1);
    row("async puts, 16 callers x 64 in flight", async1);
    row("direct gets, 16 callers, 1 M keys", get1);
    Point scan1 = scanC2.isEmpty() ? null : find(scanC2, "ScanBenchmark.p2kvScan", "shards", "1");
    Point scan4 = scanC2.isEmpty() ? null : find(scanC2, "ScanBenchmark.p2kvScan", "shards", "4");
    if (scan1 != null) {
      row("SCAN of 100, 4 callers", scan1);
      row("SCAN of 100, 4 callers, 4 shards", scan4);
    }

    double userBytes = 16 + 112;
    md.append("\n### RocksDB's share, fitted over the single-thread batch-limit runs (engine writes of 1, 4 and 32 puts)\n\n");
    md.append("CPU of the writing thread per put = per key + per engine write / puts per write (least squares).\n\n");
    md.append("| stage | WAL | no WAL | the WAL's share |\n| --- | ---: | ---: | ---: |\n");
    md.append(String.format(Locale.ROOT, "| per key (memtable insert, WAL record) | %.0f ns | %.0f ns | %.0f ns |%n",
        wal.perKeyNanos(), noWal.perKeyNanos(), wal.perKeyNanos() - noWal.perKeyNanos()));
    md.append(String.format(Locale.ROOT, "| per engine write (write group, WAL append) | %.0f ns | %.0f ns | %.0f ns |%n",
        wal.perBatchNanos(), noWal.perBatchNanos(), wal.perBatchNanos() - noWal.perBatchNanos()));
    md.append(String.format(Locale.ROOT,
        "%nFlush and compaction (RocksDB's background threads): %.0f ns per put in the batch-limit run, %.1f ns per written"
            + " user byte (%d-byte pairs); %.0f ns per put (%.1f ns per byte) in p2kv's async-put run.%n",
        limit32.cpu("rocksdb"), limit32.cpu("rocksdb") / userBytes, (int) userBytes, async1.cpu("rocksdb"),
        async1.cpu("rocksdb") / userBytes));

    workloads.add(new Workload("sync puts", "PutBenchmark.syncPut", "put", 16, putModel("sync puts", sync1, wal, 1)));
    workloads.add(new Workload("async puts", "PutBenchmark.asyncPutCallback", "put", 16, putModel("async puts", async1, wal, 64)));
    workloads.add(new Workload("gets", "GetBenchmark.p2kvGet", "get", 16, readModel("gets", get1, null)));
    if (scan1 != null) {
      workloads.add(new Workload("scans", "ScanBenchmark.p2kvScan", "scan", 4, readModel("scans", scan1, scan4)));
    }

    md.append("\n### The model's parameters (ns per operation)\n\n");
    md.append("| workload | callers | caller | per further shard | hand-off (serial) | RocksDB per key (serial) | RocksDB per write (serial) | background | GC + JIT + other | batch fraction | usable cores |\n");
    md.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (Workload w : workloads) {
      ScalingModel m = w.model();
      md.append(String.format(Locale.ROOT, "| %s | %d%s | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.3f | %.2f |%n",
          w.label(), w.callers(), m.inFlightPerCaller() > 1 ? " x " + m.inFlightPerCaller() : "", m.callerNanos(),
          m.perExtraShardNanos(), m.handoffNanos(), m.perKeyNanos(), m.perBatchNanos(), m.backgroundNanos(),
          m.jvmNanos(), m.batchFraction(), m.usableCores()));
    }

    validation();
    projections();
    return md.toString();
  }

  private static EngineFit fit(List<Point> limit, String durability) {
    List<double[]> pts = new ArrayList<>();
    for (Point p : limit) {
      if (durability.equals(p.result().params().get("durability"))) {
        pts.add(new double[] {Double.parseDouble(p.result().params().get("batch")), p.cpu("caller")});
      }
    }
    if (pts.size() < 2) {
      throw new IllegalStateException("need the batch-limit runs at two batch sizes with " + durability);
    }
    return EngineFit.of(pts);
  }

  private static double jvm(Point p) {
    return p.cpu("gc") + p.cpu("jit") + p.cpu("other");
  }

  /**
   * A put workload: the worker thread's CPU per operation is the serial part, of which RocksDB's
   * cost per engine write (from the fit) is shared by the measured batch; the rest is per
   * operation: RocksDB's per-key cost (at most the fit's) and p2kv's hand-off (what is left). A
   * batch at the cap means every in-flight request was queued (fraction 1).
   */
  static ScalingModel putModel(String name, Point p, EngineFit engine, int inFlight) {
    double batch = p.meanBatch();
    double perOp = Math.max(0, p.cpu("worker") - engine.perBatchNanos() / batch);
    double perKey = Math.min(engine.perKeyNanos(), perOp);
    int maxBatch = Integer.parseInt(p.result().params().getOrDefault("maxBatch", "32"));
    double fraction = batch >= maxBatch - 0.5 ? 1.0 : batch / (p.result().threads() * (double) inFlight);
    return new ScalingModel(name, p.cpu("caller"), 0, perOp - perKey, perKey, engine.perBatchNanos(),
        p.cpu("rocksdb"), jvm(p), fraction, inFlight, maxBatch, usable(p));
  }

  /** Busy cores / 2 in a 2-core calibration run. */
  static double usable(Point p) {
    return Math.min(1, p.result().secondary().getOrDefault("cpu.cores", 2.0) / 2);
  }

  /** A read on the caller's thread: no serial part; a further shard costs what 1 -> S shards added. */
  static ScalingModel readModel(String name, Point one, Point more) {
    double perShard = more == null ? 0 : Math.max(0, (more.cpu("caller") - one.cpu("caller")) / (more.shards() - 1));
    return new ScalingModel(
        name, one.cpu("caller"), perShard, 0, 0, 0, one.cpu("rocksdb"), jvm(one) + one.cpu("worker"), 1, 1, 32, usable(one));
  }

  private void row(String label, Point p) {
    double total = p.result().secondary().getOrDefault("cpu.ns/op", Double.NaN);
    md.append(String.format(Locale.ROOT, "| %s | %s | %.0f | %.0f | %.0f | %.0f | %.0f | %s |%n", label, kops(p.result().score()),
        p.cpu("caller"), p.cpu("worker"), p.cpu("rocksdb"), jvm(p), total,
        Double.isNaN(p.meanBatch()) ? "-" : String.format(Locale.ROOT, "%.2f", p.meanBatch())));
  }

  // ------------------------------------------------------------------------------ check and table

  private void validation() throws IOException {
    md.append("\n### Projection against measurement (taskset: 1 core = cpu 0, 2 cores = cpus 0,1)\n\n");
    md.append("Error = (projected - measured) / measured. *calibration*: a point the model's costs were taken from.\n\n");
    md.append("| workload | cores | shards | measured | projected | error | bound | batch measured / projected |\n");
    md.append("| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |\n");
    List<Double> errors = new ArrayList<>();
    for (Workload w : workloads) {
      for (int cores = 1; cores <= 2; cores++) {
        List<Point> pts = points(w.file() + "-c" + cores);
        for (int s : MEASURED_SHARDS) {
          Point p;
          try {
            p = find(pts, w.benchmark(), "shards", String.valueOf(s));
          } catch (IllegalStateException missing) {
            continue;
          }
          measured.computeIfAbsent(w.label(), k -> new ArrayList<>()).add(new double[] {cores, s, p.result().score()});
          Projection pr = w.model().project(cores, s, w.callers());
          double err = (pr.opsPerSecond() - p.result().score()) / p.result().score();
          boolean calibration = cores == 2 && (s == 1 || (w.label().equals("scans") && s == 4));
          if (!calibration) {
            errors.add(Math.abs(err));
          }
          md.append(String.format(Locale.ROOT, "| %s | %d | %d | %s | %s | %+.0f %%%s | %s | %s |%n", w.label(), cores, s,
              kops(p.result().score()), kops(pr.opsPerSecond()), 100 * err, calibration ? " *calibration*" : "",
              pr.bound().name().toLowerCase(Locale.ROOT),
              w.model().serialNanos(s, w.callers()) > 0
                  ? String.format(Locale.ROOT, "%s / %.1f", Double.isNaN(p.meanBatch()) ? "-" : String.format(Locale.ROOT, "%.1f", p.meanBatch()), pr.batch())
                  : "-"));
        }
      }
    }
    errors.sort(Double::compare);
    if (!errors.isEmpty()) {
      double mean = errors.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
      md.append(String.format(Locale.ROOT, "%nPredicted points: %d; mean absolute error %.0f %%, median %.0f %%, largest %.0f %%.%n",
          errors.size(), 100 * mean, 100 * errors.get(errors.size() / 2), 100 * errors.get(errors.size() - 1)));
    }
  }

  private void projections() {
    md.append("\n### Projected throughput, 1-32 cores x 1-16 shards (K ops/s; bound: c = cores, s = shard workers, t = caller threads)\n");
    for (Workload w : workloads) {
      md.append("\n**").append(w.label()).append("** (").append(w.callers()).append(" callers");
      if (w.model().inFlightPerCaller() > 1) {
        md.append(" x ").append(w.model().inFlightPerCaller()).append(" in flight");
      }
      md.append(")\n\n| cores |");
      for (int s : SHARDS) {
        md.append(" ").append(s).append(s == 1 ? " shard |" : " shards |");
      }
      md.append(" fewest shards within 5 % of the best |\n| ---: |");
      for (int ignored : SHARDS) {
        md.append(" ---: |");
      }
      md.append(" ---: |\n");
      for (int c : CORES) {
        md.append("| ").append(c).append(" |");
        for (int s : SHARDS) {
          Projection p = w.model().project(c, s, w.callers());
          String bound = switch (p.bound()) {
            case CORES -> "c";
            case SHARDS -> "s";
            case CALLERS -> "t";
          };
          md.append(String.format(Locale.ROOT, " %.0f %s |", p.opsPerSecond() / 1e3, bound));
        }
        md.append(" ").append(w.model().fewestShardsNearBest(c, w.callers(), 16, 0.05)).append(" |\n");
      }
    }
  }

  static String kops(double opsPerSecond) {
    return String.format(Locale.ROOT, "%.0f K", opsPerSecond / 1e3);
  }

  // ------------------------------------------------------------------------------ plot

  void plot(Path png) throws IOException {
    List<BufferedImage> panels = new ArrayList<>();
    for (Workload w : workloads) {
      XYChart chart = new XYChartBuilder().width(560).height(420).title(w.label() + " (" + w.callers() + " callers)")
          .xAxisTitle("cores").yAxisTitle("thousand ops/s").build();
      chart.getStyler().setXAxisLogarithmic(true);
      chart.getStyler().setYAxisLogarithmic(true);
      chart.getStyler().setLegendPosition(org.knowm.xchart.style.Styler.LegendPosition.InsideNW);
      for (int s : SHARDS) {
        double[] x = new double[CORES.length];
        double[] y = new double[CORES.length];
        for (int i = 0; i < CORES.length; i++) {
          x[i] = CORES[i];
          y[i] = w.model().project(CORES[i], s, w.callers()).opsPerSecond() / 1e3;
        }
        chart.addSeries("model, " + s + " shard" + (s == 1 ? "" : "s"), x, y).setMarker(SeriesMarkers.NONE);
      }
      for (int s : MEASURED_SHARDS) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (double[] m : measured.getOrDefault(w.label(), List.of())) {
          if (m[1] == s) {
            x.add(m[0]);
            y.add(m[2] / 1e3);
          }
        }
        if (!x.isEmpty()) {
          XYSeries m = chart.addSeries("measured, " + s + " shard" + (s == 1 ? "" : "s"), x, y);
          m.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        }
      }
      panels.add(BitmapEncoder.getBufferedImage(chart));
    }
    int cols = 2;
    int rows = (panels.size() + cols - 1) / cols;
    BufferedImage all = new BufferedImage(560 * cols, 420 * rows, BufferedImage.TYPE_INT_RGB);
    Graphics2D g = all.createGraphics();
    g.setColor(java.awt.Color.WHITE);
    g.fillRect(0, 0, all.getWidth(), all.getHeight());
    for (int i = 0; i < panels.size(); i++) {
      g.drawImage(panels.get(i), (i % cols) * 560, (i / cols) * 420, null);
    }
    g.dispose();
    ImageIO.write(all, "png", png.toFile());
  }
}
