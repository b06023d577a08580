package io.p2kv.ycsb;

import io.p2kv.Durability;
import io.p2kv.IdleMode;
import io.p2kv.P2kv;
import io.p2kv.Pinning;
import io.p2kv.ReadPath;
import io.p2kv.ValueSeparation;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.TreeSet;

/**
 * The {@code p2kv.*} properties of a YCSB run, parsed and checked in one place. Every other
 * property belongs to YCSB and is not looked at; an unknown {@code p2kv.*} property is an error
 * (a typo must not silently fall back to a default). A {@code null} component means "the
 * library's default".
 *
 * <table>
 *   <caption>Properties</caption>
 *   <tr><th>property</th><th>default</th><th>applies to</th></tr>
 *   <tr><td>{@code p2kv.dir}</td><td>required</td><td>both</td></tr>
 *   <tr><td>{@code p2kv.sync}</td><td>{@code false}</td><td>both: true = {@link Durability#SYNC},
 *       false = {@link Durability#WAL}</td></tr>
 *   <tr><td>{@code p2kv.memorybudgetmb}</td><td>512</td><td>both</td></tr>
 *   <tr><td>{@code p2kv.shards}</td><td>p2kv's default (1 up to 3 cores)</td><td>p2kv</td></tr>
 *   <tr><td>{@code p2kv.maxbatch}</td><td>128</td><td>p2kv</td></tr>
 *   <tr><td>{@code p2kv.maxbatchbytes}</td><td>65536</td><td>p2kv</td></tr>
 *   <tr><td>{@code p2kv.maxdurablebatch}</td><td>1024</td><td>p2kv, with {@code p2kv.sync=true}:
 *       most writes per fsync, 1 to 65536</td></tr>
 *   <tr><td>{@code p2kv.maxdurablebatchbytes}</td><td>1048576</td><td>p2kv, with {@code
 *       p2kv.sync=true}: most payload bytes per fsync</td></tr>
 *   <tr><td>{@code p2kv.readpath}</td><td>{@code direct}</td><td>p2kv</td></tr>
 *   <tr><td>{@code p2kv.idlemode}</td><td>{@code park}</td><td>p2kv</td></tr>
 *   <tr><td>{@code p2kv.pinning}</td><td>{@code auto}</td><td>p2kv</td></tr>
 *   <tr><td>{@code p2kv.yieldwaitnanos}</td><td>50000</td><td>p2kv</td></tr>
 *   <tr><td>{@code p2kv.cachemb}</td><td>p2kv's default</td><td>p2kv: its value cache in MiB
 *       (0: off), inside the memory budget</td></tr>
 *   <tr><td>{@code p2kv.valueseparation}</td><td>p2kv: {@code sizeaware}; baseline: {@code
 *       none}</td><td>both (see below)</td></tr>
 * </table>
 *
 * <h2>{@code p2kv.valueseparation}</h2>
 * <ul>
 *   <li>{@code none}: every value inline ({@link ValueSeparation#none()});
 *   <li>{@code all}: every value in blob files ({@link ValueSeparation#all()});
 *   <li>a number of bytes, e.g. {@code 1024}: values at least that large in blob files ({@link
 *       ValueSeparation#threshold(int)});
 *   <li>{@code sizeaware}: p2kv's default, adaptive ({@link ValueSeparation#sizeAware()});
 *   <li>{@code sizeaware-fixed}: the size-aware classes without retuning ({@link
 *       ValueSeparation#fixed()}).
 * </ul>
 * Unset, p2kv uses its default policy and the baseline keeps every value inline, as a user of plain
 * RocksDB runs it. Set, the baseline opens its instance with the same RocksDB blob options a p2kv
 * shard opens with; it has no tuner, so under {@code sizeaware} it keeps the starting placement
 * that p2kv's shards then retune.
 *
 * @param dir the store directory
 * @param durability WAL unless {@code p2kv.sync=true}
 * @param memoryBudgetBytes block cache and memtable budget of the store (or the one instance)
 * @param shards shard count, or null
 * @param maxBatch batching limit in operations, or null
 * @param maxBatchBytes batching limit in payload bytes, or null
 * @param maxDurableBatch batching limit in operations of a durable (SYNC) write run, or null
 * @param maxDurableBatchBytes batching limit in payload bytes of a durable write run, or null
 * @param readPath point-read path, or null
 * @param idleMode worker idle strategy, or null
 * @param pinning worker pinning, or null
 * @param yieldWaitNanos polling window before parking, or null
 * @param valueSeparation value-separation policy, or null (unset: p2kv's default for p2kv, every
 *     value inline for the baseline)
 * @param cacheBytes p2kv's value cache, or null
 */
record BindingConfig(
    Path dir,
    Durability durability,
    long memoryBudgetBytes,
    Integer shards,
    Integer maxBatch,
    Long maxBatchBytes,
    Integer maxDurableBatch,
    Long maxDurableBatchBytes,
    ReadPath readPath,
    IdleMode idleMode,
    Pinning pinning,
    Long yieldWaitNanos,
    ValueSeparation valueSeparation,
    Long cacheBytes) {

  static final String DIR = "p2kv.dir";
  static final String SYNC = "p2kv.sync";
  static final String MEMORY_BUDGET_MB = "p2kv.memorybudgetmb";
  static final String SHARDS = "p2kv.shards";
  static final String MAX_BATCH = "p2kv.maxbatch";
  static final String MAX_BATCH_BYTES = "p2kv.maxbatchbytes";
  static final String MAX_DURABLE_BATCH = "p2kv.maxdurablebatch";
  static final String MAX_DURABLE_BATCH_BYTES = "p2kv.maxdurablebatchbytes";
  static final String READ_PATH = "p2kv.readpath";
  static final String IDLE_MODE = "p2kv.idlemode";
  static final String PINNING = "p2kv.pinning";
  static final String YIELD_WAIT_NANOS = "p2kv.yieldwaitnanos";
  static final String VALUE_SEPARATION = "p2kv.valueseparation";
  static final String CACHE_MB = "p2kv.cachemb";

  /** Every property this binding knows. */
  static final List<String> KNOWN =
      List.of(
          DIR,
          SYNC,
          MEMORY_BUDGET_MB,
          SHARDS,
          MAX_BATCH,
          MAX_BATCH_BYTES,
          MAX_DURABLE_BATCH,
          MAX_DURABLE_BATCH_BYTES,
          READ_PATH,
          IDLE_MODE,
          PINNING,
          YIELD_WAIT_NANOS,
          VALUE_SEPARATION,
          CACHE_MB);

  /** p2kv's default memory budget, given explicitly to both stores so that they match. */
  static final long DEFAULT_MEMORY_BUDGET_MB = 512;

  /**
   * Parses the {@code p2kv.*} properties.
   *
   * @param props YCSB's properties (workload files and {@code -p} merged)
   * @return the configuration
   * @throws IllegalArgumentException naming the property, if one is unknown, missing, malformed
   *     or out of range
   */
  static BindingConfig parse(Properties props) {
    TreeSet<String> unknown = new TreeSet<>();
    for (String name : props.stringPropertyNames()) {
      if (name.startsWith("p2kv.") && !KNOWN.contains(name)) {
        unknown.add(name);
      }
    }
    if (!unknown.isEmpty()) {
      throw new IllegalArgumentException("unknown p2kv properties " + unknown + "; known: " + KNOWN);
    }
    String dir = trimmed(props, DIR);
    if (dir == null || dir.isEmpty()) {
      throw new IllegalArgumentException(DIR + " is required: the store directory");
    }
    return new BindingConfig(
        Path.of(dir).toAbsolutePath().normalize(),
        parseBoolean(props, SYNC, false) ? Durability.SYNC : Durability.WAL,
        parseLong(props, MEMORY_BUDGET_MB, 16, 1L << 20, DEFAULT_MEMORY_BUDGET_MB) << 20,
        intOrNull(props, SHARDS, 1, 1024),
        intOrNull(props, MAX_BATCH, 1, 4096),
        longOrNull(props, MAX_BATCH_BYTES, 1, Long.MAX_VALUE),
        intOrNull(props, MAX_DURABLE_BATCH, 1, 65536),
        longOrNull(props, MAX_DURABLE_BATCH_BYTES, 1, Long.MAX_VALUE),
        enumOrNull(props, READ_PATH, ReadPath.class),
        enumOrNull(props, IDLE_MODE, IdleMode.class),
        enumOrNull(props, PINNING, Pinning.class),
        longOrNull(props, YIELD_WAIT_NANOS, 0, 10_000_000L),
        separation(trimmed(props, VALUE_SEPARATION)),
        mebibytesOrNull(props, CACHE_MB));
  }

  /**
   * Parses {@code p2kv.valueseparation}.
   *
   * @param v the value, or null
   * @return the policy, or null if unset
   */
  private static ValueSeparation separation(String v) {
    if (v == null) {
      return null;
    }
    String name = v.toLowerCase(Locale.ROOT).replace("_", "-");
    switch (name) {
      case "none":
        return ValueSeparation.none();
      case "all":
        return ValueSeparation.all();
      case "sizeaware", "size-aware":
        return ValueSeparation.sizeAware();
      case "sizeaware-fixed", "size-aware-fixed":
        return ValueSeparation.sizeAware().fixed();
      default:
        break;
    }
    if (!name.isEmpty() && name.chars().allMatch(Character::isDigit)) {
      int bytes = intOrNull(VALUE_SEPARATION, name, 0, P2kv.MAX_VALUE_BYTES);
      return ValueSeparation.threshold(bytes);
    }
    throw new IllegalArgumentException(
        VALUE_SEPARATION + " must be none, all, sizeaware, sizeaware-fixed or a threshold in bytes: " + v);
  }

  private static Long mebibytesOrNull(Properties props, String name) {
    Long mb = longOrNull(props, name, 0, 1L << 20);
    return mb == null ? null : mb << 20;
  }

  private static String trimmed(Properties props, String name) {
    String v = props.getProperty(name);
    return v == null ? null : v.trim();
  }

  private static boolean parseBoolean(Properties props, String name, boolean dflt) {
    String v = trimmed(props, name);
    if (v == null) {
      return dflt;
    }
    return switch (v.toLowerCase(Locale.ROOT)) {
      case "true" -> true;
      case "false" -> false;
      default -> throw new IllegalArgumentException(name + " must be true or false: " + v);
    };
  }

  private static long parseLong(Properties props, String name, long min, long max, long dflt) {
    Long v = longOrNull(props, name, min, max);
    return v == null ? dflt : v;
  }

  private static Long longOrNull(Properties props, String name, long min, long max) {
    return longOrNull(name, trimmed(props, name), min, max);
  }

  private static Long longOrNull(String name, String v, long min, long max) {
    if (v == null) {
      return null;
    }
    long n;
    try {
      n = Long.parseLong(v.replace("_", ""));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + " must be an integer: " + v, e);
    }
    if (n < min || n > max) {
      throw new IllegalArgumentException(name + " must be between " + min + " and " + max + ": " + v);
    }
    return n;
  }

  private static Integer intOrNull(Properties props, String name, int min, int max) {
    return intOrNull(name, trimmed(props, name), min, max);
  }

  private static Integer intOrNull(String name, String v, int min, int max) {
    Long n = longOrNull(name, v, min, max);
    return n == null ? null : n.intValue();
  }

  private static <E extends Enum<E>> E enumOrNull(Properties props, String name, Class<E> type) {
    String v = trimmed(props, name);
    if (v == null) {
      return null;
    }
    String constant = v.toUpperCase(Locale.ROOT).replace('-', '_');
    for (E e : type.getEnumConstants()) {
      if (e.name().equals(constant)) {
        return e;
      }
    }
    StringBuilder allowed = new StringBuilder();
    for (E e : type.getEnumConstants()) {
      allowed.append(allowed.length() == 0 ? "" : ", ").append(e.name().toLowerCase(Locale.ROOT));
    }
    throw new IllegalArgumentException(name + " must be one of " + allowed + ": " + v);
  }
}
