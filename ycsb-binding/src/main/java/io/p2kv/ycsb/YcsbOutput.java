package io.p2kv.ycsb;

import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Immutable: the measurements YCSB's text exporter prints ({@code [SECTION], metric, value}
 * lines), and the checks a run must pass. YCSB's {@code Client} exits 0 even when {@code init()}
 * fails or operations fail, so a run is judged by its output only.
 */
final class YcsbOutput {
  private static final Pattern LINE = Pattern.compile("^\\[([^\\]]+)\\], ([^,]+), (.+)$");
  /** A status line ({@code -s}): {@code 2026-11-28 01:24:53:390 15 sec: 5000000 operations; ...}. */
  private static final Pattern STATUS =
      Pattern.compile("^(\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d:\\d{3}) \\d+ sec: (\\d+) operations;");
  private static final DateTimeFormatter STATUS_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss:SSS");

  /** YCSB's operation sections, in the order the report shows them. */
  static final List<String> OPERATIONS =
      List.of("INSERT", "READ", "UPDATE", "SCAN", "READ-MODIFY-WRITE", "DELETE");

  final String text;
  /** section -> metric -> value, in output order. */
  final Map<String, Map<String, String>> sections = new LinkedHashMap<>();
  /** The status lines' times (epoch milliseconds) and operation counts, in output order. */
  private final List<long[]> status = new ArrayList<>();

  YcsbOutput(String text) {
    this.text = text;
    for (String line : text.split("\\R")) {
      Matcher m = LINE.matcher(line.trim());
      if (m.matches()) {
        sections.computeIfAbsent(m.group(1), k -> new LinkedHashMap<>()).put(m.group(2).trim(), m.group(3).trim());
        continue;
      }
      Matcher st = STATUS.matcher(line.trim());
      if (st.find()) {
        long at = LocalDateTime.parse(st.group(1), STATUS_TIME).toInstant(ZoneOffset.UTC).toEpochMilli();
        status.add(new long[] {at, Long.parseLong(st.group(2))});
      }
    }
  }

  /**
   * A metric as a number.
   *
   * @param section e.g. {@code OVERALL}, {@code READ}
   * @param metric e.g. {@code Throughput(ops/sec)}, {@code 99thPercentileLatency(us)}
   * @return its value, or NaN if absent
   */
  double metric(String section, String metric) {
    Map<String, String> s = sections.get(section);
    String v = s == null ? null : s.get(metric);
    return v == null ? Double.NaN : Double.parseDouble(v);
  }

  /** Throughput of the run in operations per second, or NaN if it did not finish. */
  double throughput() {
    return metric("OVERALL", "Throughput(ops/sec)");
  }

  /**
   * Throughput once the JVM has warmed up: the operations done from the first status line at least
   * {@code warmupSeconds} after the first one to the last status line (YCSB's {@code -s}, printed
   * every {@code status.interval} seconds and once at the end), per second of that span. A YCSB
   * phase of a few seconds is mostly the JIT compiling the client, the binding and the store, which
   * a long-running application pays once; this is the rate after it.
   *
   * @param warmupSeconds seconds from the first status line to leave out
   * @return operations per second after the warm-up, or NaN if the output has no status lines or
   *     the run ended less than a second after the warm-up
   */
  double throughputAfter(double warmupSeconds) {
    if (status.isEmpty()) {
      return Double.NaN;
    }
    long first = status.get(0)[0];
    long[] last = status.get(status.size() - 1);
    for (long[] line : status) {
      if (line[0] - first >= warmupSeconds * 1000) {
        long span = last[0] - line[0];
        return span < 1000 ? Double.NaN : (last[1] - line[1]) * 1000.0 / span;
      }
    }
    return Double.NaN;
  }

  /**
   * Operations measured in a section.
   *
   * @param section the section
   * @return its count, 0 if absent
   */
  long operations(String section) {
    double v = metric(section, "Operations");
    return Double.isNaN(v) ? 0 : (long) v;
  }

  /**
   * Everything wrong with the run: no overall result, a failed section, a return code other than
   * OK, a VERIFY that is not OK, fewer operations than asked, an exception in the output.
   *
   * @param expectedOperations operations the run must have completed (reads, updates, inserts,
   *     scans, deletes; a read-modify-write counts once although YCSB measures its read and its
   *     update too), or -1 for no count check
   * @param verifyExpected whether the run must contain [VERIFY] lines
   * @return the problems, empty if the run is good
   */
  List<String> problems(long expectedOperations, boolean verifyExpected) {
    List<String> problems = new ArrayList<>();
    if (!sections.containsKey("OVERALL")) {
      problems.add("no [OVERALL] section: the run did not finish");
    }
    long done = 0;
    for (Map.Entry<String, Map<String, String>> s : sections.entrySet()) {
      String section = s.getKey();
      if (section.endsWith("-FAILED")) {
        problems.add("[" + section + "] present: operations failed");
      }
      for (Map.Entry<String, String> metric : s.getValue().entrySet()) {
        if (metric.getKey().startsWith("Return=") && !metric.getKey().equals("Return=OK")) {
          problems.add("[" + section + "], " + metric.getKey() + ", " + metric.getValue());
        }
      }
      if (OPERATIONS.contains(section) && !section.equals("READ-MODIFY-WRITE")) {
        done += operations(section);
        String ok = s.getValue().get("Return=OK");
        if (ok == null || Long.parseLong(ok) != operations(section)) {
          problems.add("[" + section + "]: " + ok + " OK of " + operations(section));
        }
      }
    }
    long completed = done - operations("READ-MODIFY-WRITE");
    if (expectedOperations >= 0 && completed < expectedOperations) {
      problems.add("completed " + completed + " operations, expected " + expectedOperations);
    }
    if (verifyExpected) {
      Map<String, String> verify = sections.get("VERIFY");
      if (verify == null || operations("VERIFY") == 0) {
        problems.add("no [VERIFY] measurements");
      } else if (!String.valueOf(operations("VERIFY")).equals(verify.get("Return=OK"))) {
        problems.add("[VERIFY]: " + verify);
      }
    }
    if (text.contains("Exception")) {
      problems.add("an exception in the output");
    }
    return problems;
  }
}
