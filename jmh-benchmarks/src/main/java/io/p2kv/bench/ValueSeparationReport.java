package io.p2kv.bench;

import java.time.LocalDate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Renders {@link ValueSeparationBenchmark} rows as docs/benchmarks/VALUE-SEPARATION.md: the setup,
 * one table per mix, and the goals checked on numbers from the same run.
 */
final class ValueSeparationReport {
  private ValueSeparationReport() {}

  private static String k(double opsPerSecond) {
    return String.format(Locale.ROOT, "%.1f", opsPerSecond / 1e3);
  }

  private static String f2(double v) {
    return String.format(Locale.ROOT, "%.2f", v);
  }

  static String markdown(
      List<ValueSeparationBenchmark.Row> rows,
      Map<String, ValueSeparationBenchmark.Mix> mixes,
      String command,
      int budgetMib,
      long dataBytes,
      int readSeconds,
      boolean scaledShape,
      int repetitions,
      double minutes,
      String loadBefore,
      String loadAfter) {
    StringBuilder sb = new StringBuilder();
    sb.append("# Value separation: measurements\n\n");
    sb.append("Produced by `io.p2kv.bench.ValueSeparationBenchmark` (see its Javadoc for the method); ")
        .append("docs/VALUE-SEPARATION.md explains the policies and what these numbers say.\n\n");
    sb.append("| | |\n| --- | --- |\n");
    sb.append("| command | `").append(command).append("` |\n");
    sb.append("| date | ").append(LocalDate.now()).append(" |\n");
    sb.append("| JDK | ").append(System.getProperty("java.vm.name")).append(' ').append(Runtime.version()).append(" |\n");
    sb.append("| cores | ").append(Runtime.getRuntime().availableProcessors()).append(" (shared with other builds) |\n");
    sb.append("| load average (1, 5, 15 min) | before ").append(loadBefore.replaceAll("\\s+\\S+\\s+\\S+$", ""))
        .append("; after ").append(loadAfter.replaceAll("\\s+\\S+\\s+\\S+$", "")).append(" |\n");
    sb.append(String.format(Locale.ROOT,
        "| store | 1 shard, memory budget %d MiB (memtables %d MiB), %d MiB of keys and values per mix (%.0fx the memtable budget), "
            + "LSM shape %s, WAL on, no fsync |%n",
        budgetMib, budgetMib / 2, dataBytes >> 20, (double) dataBytes / ((long) budgetMib << 19),
        scaledShape ? "scaled to the memtable (level base 4 memtables, SST files of 1 memtable)" : "stock"));
    sb.append(String.format(Locale.ROOT,
        "| repetitions | %d per mix and policy, in opposite policy order, after a discarded warm-up; means shown |%n", repetitions));
    sb.append(String.format(Locale.ROOT, "| run time | %.1f min |%n%n", minutes));
    sb.append("Columns: throughput in thousands of operations per second, load and update counted until the store has "
        + "settled (flushed, no compaction running or pending); reads: uniform random point reads from 2 threads for "
        + readSeconds + " s after the updates, each checked, measured after a read warm-up of "
        + ValueSeparationBenchmark.READ_WARMUP_SECONDS + " s that goes on while the adaptive policy brings separated values back "
        + "inline, then a settle (\"read settle\": its seconds; \"read-phase MiB\": what flushes and compactions wrote meanwhile, "
        + "the cost of bringing values back inline). WA: bytes flushes and compactions wrote (SST and blob files, "
        + "garbage collection included, WAL excluded) per byte of keys and values written, for the load, the update phase "
        + "and both. SA: SST + blob bytes after the updates per live byte. Policies: `threshold:N` is `threshold(N)`, "
        + "`fixed` is `sizeAware().fixed()`, `sizeAware` is the adaptive default. Spread: the largest difference between "
        + "repetitions of the load, update or read throughput, relative to their mean: the noise floor of a comparison.\n\n");

    Map<String, List<ValueSeparationBenchmark.Row>> byMix = new LinkedHashMap<>();
    for (ValueSeparationBenchmark.Row r : rows) {
      byMix.computeIfAbsent(r.mix(), m -> new ArrayList<>()).add(r);
    }
    for (Map.Entry<String, List<ValueSeparationBenchmark.Row>> e : byMix.entrySet()) {
      ValueSeparationBenchmark.Mix mix = mixes.get(e.getKey());
      sb.append("## ").append(e.getKey()).append(": ").append(mix.description())
          .append(String.format(Locale.ROOT, ", mean value %.0f B, %d keys%n%n", mix.meanValueBytes(), e.getValue().get(0).keys()));
      sb.append("| policy | load | update | read | spread | WA load | WA update | WA total | SA | blob garbage | read settle s | read-phase MiB | placement after load -> after updates -> after reads |\n");
      sb.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
      for (ValueSeparationBenchmark.Row r : e.getValue()) {
        String settings = r.settingsAfterLoad().equals(r.settingsAfterUpdate())
            ? r.settingsAfterLoad()
            : r.settingsAfterLoad() + " -> " + r.settingsAfterUpdate();
        if (!r.settingsAfterReads().equals(r.settingsAfterUpdate())) {
          settings += " -> " + r.settingsAfterReads();
        }
        sb.append("| ").append(r.policy()).append(" | ").append(k(r.loadOps())).append(" | ").append(k(r.updateOps()))
            .append(" | ").append(k(r.readOps()))
            .append(" | ").append(String.format(Locale.ROOT, "%.0f %%", 100 * r.spread()))
            .append(" | ").append(f2(r.loadWa())).append(" | ").append(f2(r.updateWa()))
            .append(" | ").append(f2(r.totalWa())).append(" | ").append(f2(r.spaceAmp())).append(" | ")
            .append(f2(r.blobGarbage()))
            .append(" | ").append(String.format(Locale.ROOT, "%.1f", r.readSettleSeconds()))
            .append(" | ").append(r.readPhaseWriteBytes() >> 20)
            .append(" | ").append(settings).append(" |\n");
      }
      sb.append('\n');
    }

    sb.append("## Goals, from this run\n\n");
    sb.append("Throughput of `sizeAware` (adaptive) as a ratio to the better of `none` and `all` in the same run "
        + "(goal: at least 0.95), its read throughput as a ratio to `none` (goal: at least 0.95), "
        + "and its total write amplification as a ratio to `none` (goal on MD and LD: at most 0.50).\n\n");
    sb.append("| mix | load | update | read | read / none | WA total / none | WA load / none | WA update / none |\n");
    sb.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for (Map.Entry<String, List<ValueSeparationBenchmark.Row>> e : byMix.entrySet()) {
      Optional<ValueSeparationBenchmark.Row> none = find(e.getValue(), "none");
      Optional<ValueSeparationBenchmark.Row> all = find(e.getValue(), "all");
      Optional<ValueSeparationBenchmark.Row> adaptive = find(e.getValue(), "sizeAware");
      if (none.isEmpty() || all.isEmpty() || adaptive.isEmpty()) {
        continue;
      }
      ValueSeparationBenchmark.Row n = none.get();
      ValueSeparationBenchmark.Row a = all.get();
      ValueSeparationBenchmark.Row s = adaptive.get();
      boolean waGoal = e.getKey().equals("MD") || e.getKey().equals("LD");
      sb.append("| ").append(e.getKey())
          .append(" | ").append(ratio(s.loadOps(), Math.max(n.loadOps(), a.loadOps()), 0.95, true))
          .append(" | ").append(ratio(s.updateOps(), Math.max(n.updateOps(), a.updateOps()), 0.95, true))
          .append(" | ").append(ratio(s.readOps(), Math.max(n.readOps(), a.readOps()), 0.95, true))
          .append(" | ").append(ratio(s.readOps(), n.readOps(), 0.95, true))
          .append(" | ").append(waGoal ? ratio(s.totalWa(), n.totalWa(), 0.5, false) : f2(s.totalWa() / n.totalWa()))
          .append(" | ").append(f2(s.loadWa() / n.loadWa()))
          .append(" | ").append(f2(s.updateWa() / n.updateWa()))
          .append(" |\n");
    }
    sb.append("\n(met) / (missed) mark each goal.\n");
    return sb.toString();
  }

  private static String ratio(double value, double reference, double goal, boolean atLeast) {
    double r = value / reference;
    boolean met = atLeast ? r >= goal : r <= goal;
    return f2(r) + (met ? " (met)" : " (missed)");
  }

  private static Optional<ValueSeparationBenchmark.Row> find(List<ValueSeparationBenchmark.Row> rows, String policy) {
    return rows.stream().filter(r -> r.policy().equals(policy)).findFirst();
  }
}
