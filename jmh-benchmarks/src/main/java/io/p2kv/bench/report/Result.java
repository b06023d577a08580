package io.p2kv.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One JMH result row: benchmark, parameters, threads, score and the secondary metrics the suite
 * asks for (allocation per operation, peak RSS, auxiliary counters).
 *
 * @param benchmark short name, e.g. {@code PutBenchmark.syncPut}
 * @param params JMH parameters
 * @param threads caller threads
 * @param jdk JDK version of the run
 * @param score ops/s
 * @param error the 99.9% confidence half-interval, NaN if JMH could not compute one
 * @param allocBytesPerOp {@code gc.alloc.rate.norm}, NaN if not profiled
 * @param rssPeakMiB peak resident memory, NaN if not profiled
 * @param secondary every secondary metric by name
 */
public record Result(
    String benchmark,
    Map<String, String> params,
    int threads,
    String jdk,
    double score,
    double error,
    double allocBytesPerOp,
    double rssPeakMiB,
    Map<String, Double> secondary) {

  static Result of(JsonNode n) {
    String full = n.get("benchmark").asText();
    String[] parts = full.split("\\.");
    String name = parts[parts.length - 2] + "." + parts[parts.length - 1];
    Map<String, String> params = new LinkedHashMap<>();
    JsonNode p = n.get("params");
    if (p != null) {
      for (Iterator<Map.Entry<String, JsonNode>> it = p.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        params.put(e.getKey(), e.getValue().asText());
      }
    }
    JsonNode pm = n.get("primaryMetric");
    Map<String, Double> secondary = new LinkedHashMap<>();
    JsonNode sm = n.get("secondaryMetrics");
    if (sm != null) {
      for (Iterator<Map.Entry<String, JsonNode>> it = sm.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        secondary.put(e.getKey(), e.getValue().get("score").asDouble());
      }
    }
    double error = pm.get("scoreError").asDouble(Double.NaN);
    return new Result(
        name,
        params,
        n.get("threads").asInt(),
        n.path("jdkVersion").asText("?"),
        pm.get("score").asDouble(),
        error,
        secondary.getOrDefault("·gc.alloc.rate.norm", Double.NaN),
        secondary.getOrDefault("rss.peak", Double.NaN),
        secondary);
  }

  /** Whether this row is the given benchmark with every given parameter (threads as "t"). */
  boolean matches(String bench, Map<String, String> want) {
    if (!benchmark.equals(bench)) {
      return false;
    }
    for (Map.Entry<String, String> e : want.entrySet()) {
      String have = e.getKey().equals("t") ? String.valueOf(threads) : params.get(e.getKey());
      if (!e.getValue().equals(have)) {
        return false;
      }
    }
    return true;
  }

  /** The parameters for a table: without the window, the key count, and durable caps of a non-durable run. */
  String paramString() {
    StringBuilder sb = new StringBuilder();
    boolean durable = "SYNC".equals(params.get("durability"));
    params.forEach((k, v) -> {
      if (!k.equals("window") && !k.equals("keys") && (durable || !k.equals("maxDurableBatch"))) {
        sb.append(sb.length() == 0 ? "" : ", ").append(k).append('=').append(v);
      }
    });
    return sb.toString();
  }
}
