package io.p2kv.bench;

import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Renders {@link ValueSeparationBenchmark} rows as docs/benchmarks/VALUE-SEPARATION.md. */
final class ValueSeparationReport {
  private ValueSeparationReport() {}

  static String markdown(
      List<ValueSeparationBenchmark.Row> rows,
      Map<String, ValueSeparationBenchmark.Mix> mixes,
      String args,
      int budgetMib,
      long dataBytes,
      int readSeconds,
      double minutes,
      String loadBefore,
      String loadAfter) {
    StringBuilder sb = new StringBuilder();
    sb.append("# Value separation: measurements\n\n");
    sb.append("| mix | policy | keys | load Kops/s | WA load | update Kops/s | WA update | SA | blob garbage | read Kops/s | settings after updates |\n");
    sb.append("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
    for (ValueSeparationBenchmark.Row r : rows) {
      sb.append(String.format(Locale.ROOT, "| %s | %s | %d | %.1f | %.2f | %.1f | %.2f | %.2f | %.2f | %.1f | %s |%n",
          r.mix(), r.policy(), r.keys(), r.loadOps() / 1e3, r.loadWa(), r.updateOps() / 1e3, r.updateWa(),
          r.spaceAmp(), r.blobGarbage(), r.readOps() / 1e3, r.settingsAfterUpdate()));
    }
    sb.append(String.format(Locale.ROOT, "%nArgs: `%s`; budget %d MiB, data %d MiB, reads %d s; took %.1f min; load %s / %s%n",
        args, budgetMib, dataBytes >> 20, readSeconds, minutes, loadBefore, loadAfter));
    return sb.toString();
  }
}
