package io.p2kv.ycsb;

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

  /** YCSB's operation sections, in the order the report shows them. */
  static final List<String> OPERATIONS =
      List.of("INSERT", "READ", "UPDATE", "SCAN", "READ-MODIFY-WRITE", "DELETE");

  final String text;
  /** section -> metric -> value, in output order. */
  final Map<String, Map<String, String>> sections = new LinkedHashMap<>();

  YcsbOutput(String text) {
    this.text = text;
    for (String line : text.split("\\R")) {
      Matcher m = LINE.matcher(line.trim());
      if (m.matches()) {
        sections.computeIfAbsent(m.group(1), k -> new LinkedHashMap<>()).put(m.group(2).trim(), m.group(3).trim());
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
