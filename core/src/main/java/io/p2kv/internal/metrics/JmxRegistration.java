package io.p2kv.internal.metrics;

import io.p2kv.CacheStats;
import io.p2kv.CutStats;
import io.p2kv.LatencyStats;
import io.p2kv.LevelStats;
import io.p2kv.OperationType;
import io.p2kv.P2kvException;
import io.p2kv.ShardStats;
import io.p2kv.StoreStats;
import io.p2kv.internal.metrics.SnapshotMBean.Attr;
import java.lang.management.ManagementFactory;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;
import java.util.function.Supplier;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JMX MBeans of one open store, on the platform MBean server.
 *
 * <ul>
 *   <li>{@code io.p2kv:type=Store,dir="<dir>"}: {@code Dir}, {@code Shards}, every numeric field
 *       of {@link ShardStats} summed over the shards ({@code max*} fields: the largest), {@code
 *       MeanWriteBatch}, {@code MeanReadBatch}, {@code LeakedIterators} ({@link
 *       StoreStats#leakedIterators()}), {@code Cache<Field>} for every field of {@link CacheStats}
 *       and {@code CacheHitRatio} (the value cache; zeros when it is off), {@code LeakedSnapshots},
 *       {@code Cut<Field>} for every field of {@link CutStats} ({@code CutCount}, {@code
 *       CutTotalHoldNanos}, {@code CutMaxHoldNanos}: how long consistent cuts held the writers),
 *       and, when latencies are recorded, {@code
 *       <Operation><Field>} for every {@link OperationType} and numeric field of {@link
 *       LatencyStats} (for example {@code PutP99Nanos}, {@code MultiGetCount}).
 *   <li>{@code io.p2kv:type=Shard,dir="<dir>",shard=<i>}: every numeric field of {@link
 *       ShardStats} under its capitalized name ({@code Puts}, {@code SstBytes}, ...), {@code
 *       MeanWriteBatch}, {@code MeanReadBatch}, {@code LevelFiles} and {@code LevelBytes}.
 * </ul>
 *
 * Attributes are derived from the stats records by reflection, so a field added to {@link
 * ShardStats} or {@link LatencyStats} appears in JMX without further code.
 *
 * <h2>Life cycle</h2>
 * Registered by the store's open before its workers start, unregistered first thing by its close,
 * and by a failed open. If registering one bean fails, the ones already registered are
 * unregistered before the error is thrown.
 */
public final class JmxRegistration implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(JmxRegistration.class);

  /** The domain of every p2kv MBean. */
  public static final String DOMAIN = "io.p2kv";

  private final MBeanServer server;
  private final List<ObjectName> registered = new ArrayList<>();
  private final AtomicBoolean closed = new AtomicBoolean();

  private JmxRegistration(MBeanServer server) {
    this.server = server;
  }

  /**
   * Registers the MBeans of a store.
   *
   * @param dir the store directory (absolute)
   * @param shardCount number of shards
   * @param storeStats takes a store snapshot
   * @param shardStats takes one shard's snapshot
   * @param latencies whether the store records latencies
   * @return the registration, to close when the store closes
   * @throws P2kvException if a bean cannot be registered (none is left registered then)
   */
  public static JmxRegistration register(
      Path dir, int shardCount, Supplier<StoreStats> storeStats, IntFunction<ShardStats> shardStats, boolean latencies) {
    JmxRegistration r = new JmxRegistration(ManagementFactory.getPlatformMBeanServer());
    try {
      r.add(storeName(dir), new SnapshotMBean<>(
          "io.p2kv.P2kv", "p2kv store " + dir, storeStats, storeAttributes(dir, latencies)));
      for (int i = 0; i < shardCount; i++) {
        int shard = i;
        r.add(shardName(dir, shard), new SnapshotMBean<>(
            "io.p2kv.ShardStats", "shard " + shard + " of p2kv store " + dir, () -> shardStats.apply(shard),
            shardAttributes()));
      }
    } catch (JMException | RuntimeException e) {
      r.close();
      throw new P2kvException("cannot register the JMX MBeans of store " + dir + ": " + e, e);
    }
    return r;
  }

  /**
   * The name of a store's MBean.
   *
   * @param dir the store directory (absolute)
   * @return {@code io.p2kv:type=Store,dir="<dir>"}
   */
  public static ObjectName storeName(Path dir) {
    return name("type=Store,dir=" + ObjectName.quote(dir.toString()));
  }

  /**
   * The name of a shard's MBean.
   *
   * @param dir the store directory (absolute)
   * @param shard shard index
   * @return {@code io.p2kv:type=Shard,dir="<dir>",shard=<shard>}
   */
  public static ObjectName shardName(Path dir, int shard) {
    return name("type=Shard,dir=" + ObjectName.quote(dir.toString()) + ",shard=" + shard);
  }

  private static ObjectName name(String properties) {
    try {
      return new ObjectName(DOMAIN + ":" + properties);
    } catch (MalformedObjectNameException e) {
      throw new IllegalArgumentException("bad MBean name " + properties, e);
    }
  }

  private void add(ObjectName name, Object bean) throws JMException {
    server.registerMBean(bean, name);
    registered.add(name);
  }

  /** Unregisters every bean registered; idempotent, never throws. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    for (int i = registered.size() - 1; i >= 0; i--) {
      ObjectName name = registered.get(i);
      try {
        server.unregisterMBean(name);
      } catch (InstanceNotFoundException e) {
        // Someone else unregistered it: nothing left to do.
      } catch (JMException | RuntimeException e) {
        LOG.warn("cannot unregister MBean {}", name, e);
      }
    }
    registered.clear();
  }

  // ------------------------------------------------------------------ attributes

  static List<Attr<ShardStats>> shardAttributes() {
    List<Attr<ShardStats>> out = new ArrayList<>();
    for (RecordComponent c : ShardStats.class.getRecordComponents()) {
      if (isNumber(c.getType())) {
        out.add(new Attr<>(pascal(c.getName()), c.getType(), "ShardStats." + c.getName(), s -> read(c, s)));
      }
    }
    out.add(new Attr<>("MeanWriteBatch", double.class, "operations per engine write call", ShardStats::meanWriteBatch));
    out.add(new Attr<>("MeanReadBatch", double.class, "keys per engine read call by the worker", ShardStats::meanReadBatch));
    out.add(new Attr<>("LevelFiles", int[].class, "SST files per LSM level, from level 0",
        s -> s.levels().stream().mapToInt(LevelStats::files).toArray()));
    out.add(new Attr<>("LevelBytes", long[].class, "SST bytes per LSM level, from level 0",
        s -> s.levels().stream().mapToLong(LevelStats::bytes).toArray()));
    return out;
  }

  static List<Attr<StoreStats>> storeAttributes(Path dir, boolean latencies) {
    List<Attr<StoreStats>> out = new ArrayList<>();
    String dirName = dir.toString();
    out.add(new Attr<>("Dir", String.class, "store directory", s -> dirName));
    out.add(new Attr<>("Shards", int.class, "number of shards", s -> s.shards().size()));
    for (RecordComponent c : ShardStats.class.getRecordComponents()) {
      if (isNumber(c.getType()) && !c.getName().equals("shard")) {
        boolean max = c.getName().startsWith("max");
        out.add(new Attr<>(pascal(c.getName()), long.class,
            (max ? "largest over shards of ShardStats." : "sum over shards of ShardStats.") + c.getName(),
            s -> aggregate(s, c, max)));
      }
    }
    out.add(new Attr<>("MeanWriteBatch", double.class, "operations per engine write call", StoreStats::meanWriteBatch));
    out.add(new Attr<>("MeanReadBatch", double.class, "keys per engine read call by the workers", s -> {
      long calls = s.shards().stream().mapToLong(ShardStats::readCalls).sum();
      return calls == 0 ? 0.0 : (double) s.shards().stream().mapToLong(ShardStats::workerReads).sum() / calls;
    }));
    out.add(new Attr<>("LeakedIterators", long.class, "iterators dropped without close, closed by p2kv",
        StoreStats::leakedIterators));
    for (RecordComponent c : CacheStats.class.getRecordComponents()) {
      out.add(new Attr<>("Cache" + pascal(c.getName()), c.getType(), "CacheStats." + c.getName() + " of the value cache",
          s -> read(c, s.cache())));
    }
    out.add(new Attr<>("CacheHitRatio", double.class, "value cache hits per point read that looked in it",
        s -> s.cache().hitRatio()));
    out.add(new Attr<>("LeakedSnapshots", long.class, "snapshots dropped without close, closed by p2kv",
        StoreStats::leakedSnapshots));
    for (RecordComponent c : CutStats.class.getRecordComponents()) {
      out.add(new Attr<>("Cut" + pascal(c.getName()), c.getType(), "CutStats." + c.getName() + ": how long consistent cuts held the writers",
          s -> read(c, s.cuts())));
    }
    if (latencies) {
      for (OperationType op : OperationType.values()) {
        for (RecordComponent c : LatencyStats.class.getRecordComponents()) {
          if (isNumber(c.getType())) {
            out.add(new Attr<>(pascal(op.name()) + pascal(c.getName()), c.getType(),
                "LatencyStats." + c.getName() + " of " + op,
                s -> s.latency(op).map(l -> read(c, l)).orElse(0L)));
          }
        }
      }
    }
    return out;
  }

  /** Sum of the shards' values, or the largest; engine properties a shard does not know (-1) are skipped. */
  private static long aggregate(StoreStats s, RecordComponent c, boolean max) {
    long result = -1;
    for (ShardStats shard : s.shards()) {
      long v = ((Number) read(c, shard)).longValue();
      if (v >= 0) {
        result = max ? Math.max(result, v) : Math.max(result, 0) + v;
      }
    }
    return result;
  }

  private static boolean isNumber(Class<?> type) {
    return type == long.class || type == int.class || type == double.class;
  }

  private static Object read(RecordComponent c, Record r) {
    try {
      return c.getAccessor().invoke(r);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("cannot read " + c, e);
    }
  }

  /** {@code maxWriteBatch} to {@code MaxWriteBatch}; {@code MULTI_GET} to {@code MultiGet}. */
  static String pascal(String name) {
    if (name.equals(name.toUpperCase(Locale.ROOT))) {
      return Arrays.stream(name.split("_"))
          .map(w -> w.charAt(0) + w.substring(1).toLowerCase(Locale.ROOT))
          .reduce("", String::concat);
    }
    return Character.toUpperCase(name.charAt(0)) + name.substring(1);
  }
}
