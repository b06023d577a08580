package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Stats as JMX MBeans, LSM levels in the stats, and per-operation latency recording. */
class MetricsTest {
  @TempDir Path tmp;

  private final MBeanServer server = ManagementFactory.getPlatformMBeanServer();

  private static ObjectName storeName(Path dir) throws Exception {
    return new ObjectName("io.p2kv:type=Store,dir=" + ObjectName.quote(dir.toAbsolutePath().normalize().toString()));
  }

  private static ObjectName shardName(Path dir, int shard) throws Exception {
    return new ObjectName(
        "io.p2kv:type=Shard,dir=" + ObjectName.quote(dir.toAbsolutePath().normalize().toString()) + ",shard=" + shard);
  }

  private static P2kv.Builder small() {
    return P2kv.builder().memoryBudgetBytes(32L << 20).pinning(Pinning.NEVER);
  }

  @Test
  void shouldExportTheValueCacheCountersAsStoreAttributes() throws Exception {
    Path dir = tmp.resolve("cached");
    try (P2kv store = small().shards(2).cacheBytes(1L << 20).jmx(true).open(dir)) {
      store.put(Keys.key("a"), Keys.key("1"));
      store.get(Keys.key("a")); // miss, fills
      store.get(Keys.key("a")); // hit
      store.get(Keys.key("a")); // hit
      store.get(Keys.key("never")); // miss, fills an absent entry

      ObjectName bean = storeName(dir);
      CacheStats stats = store.stats().cache();
      assertEquals(2L, stats.hits());
      assertEquals(2L, stats.misses());
      assertEquals(1L << 20, server.getAttribute(bean, "CacheCapacityBytes"));
      assertEquals(stats.hits(), server.getAttribute(bean, "CacheHits"));
      assertEquals(stats.misses(), server.getAttribute(bean, "CacheMisses"));
      assertEquals(stats.evictions(), server.getAttribute(bean, "CacheEvictions"));
      assertEquals(stats.entries(), server.getAttribute(bean, "CacheEntries"));
      assertEquals(stats.bytes(), server.getAttribute(bean, "CacheBytes"));
      assertEquals(0.5, (Double) server.getAttribute(bean, "CacheHitRatio"), 1e-9);
    }
  }

  @Test
  void shouldExportStoreAndShardStatsAsMBeansWhileOpenAndRemoveThemOnClose() throws Exception {
    Path dir = tmp.resolve("store, with \"quotes\" = and *");
    try (P2kv store = small().shards(2).jmx(true).open(dir)) {
      for (int i = 0; i < 100; i++) {
        store.put(Keys.key("k" + i), Keys.key("v" + i));
      }
      store.flush();

      ObjectName storeBean = storeName(dir);
      assertTrue(server.isRegistered(storeBean));
      assertEquals(store.dir().toString(), server.getAttribute(storeBean, "Dir"));
      assertEquals(2, server.getAttribute(storeBean, "Shards"));
      assertEquals(100L, server.getAttribute(storeBean, "Puts"));
      assertEquals(store.stats().writeCalls(), server.getAttribute(storeBean, "WriteCalls"));
      assertEquals(0L, server.getAttribute(storeBean, "LeakedIterators"));
      assertEquals(0L, server.getAttribute(storeBean, "LeakedSnapshots"));
      assertEquals(0L, server.getAttribute(storeBean, "CutCount"));
      store.snapshot().close();
      CutStats cuts = store.stats().cuts();
      assertEquals(1L, cuts.count());
      assertEquals(cuts.count(), server.getAttribute(storeBean, "CutCount"));
      assertEquals(cuts.totalHoldNanos(), server.getAttribute(storeBean, "CutTotalHoldNanos"));
      assertEquals(cuts.maxHoldNanos(), server.getAttribute(storeBean, "CutMaxHoldNanos"));

      Set<ObjectName> shards = server.queryNames(new ObjectName("io.p2kv:type=Shard,*"), null);
      assertTrue(shards.contains(shardName(dir, 0)) && shards.contains(shardName(dir, 1)), shards.toString());
      long putsOverShards = 0;
      for (int s = 0; s < 2; s++) {
        ShardStats expected = store.stats().shards().get(s);
        AttributeList read = server.getAttributes(shardName(dir, s), new String[] {"Shard", "Puts", "SstBytes", "LevelFiles"});
        assertEquals(4, read.size(), "all attributes from one snapshot");
        List<Object> values = read.asList().stream().map(Attribute::getValue).toList();
        assertEquals(s, values.get(0));
        assertEquals(expected.puts(), values.get(1));
        assertTrue((Long) values.get(2) > 0, "flushed: SST bytes");
        assertTrue(((int[]) values.get(3))[0] > 0, "flushed: files in level 0");
        putsOverShards += (Long) values.get(1);
      }
      assertEquals(100, putsOverShards);
    }
    assertFalse(server.isRegistered(storeName(dir)));
    assertFalse(server.isRegistered(shardName(dir, 0)));
    assertFalse(server.isRegistered(shardName(dir, 1)));
  }

  @Test
  void shouldRegisterNoMBeansUnlessAsked() throws Exception {
    try (P2kv store = small().shards(1).open(tmp)) {
      store.put(Keys.key("a"), Keys.key("b"));
      assertFalse(server.isRegistered(storeName(tmp)));
      assertFalse(server.isRegistered(shardName(tmp, 0)));
    }
  }

  @Test
  void shouldUnregisterTheMBeansItRegisteredAndUnlockTheStoreWhenOpenFails() throws Exception {
    ObjectName taken = shardName(tmp, 1);
    server.registerMBean(new StandardMBean(() -> {}, Runnable.class), taken);
    try {
      P2kvException e = assertThrows(P2kvException.class, () -> small().shards(2).jmx(true).open(tmp));
      assertTrue(e.getMessage().contains("cannot register the JMX MBeans"), e.getMessage());
      assertFalse(server.isRegistered(storeName(tmp)), "the store bean registered before the failure");
      assertFalse(server.isRegistered(shardName(tmp, 0)), "the shard bean registered before the failure");
    } finally {
      server.unregisterMBean(taken);
    }
    try (P2kv store = small().jmx(true).open(tmp)) {
      assertEquals(2, store.shardCount(), "the failed open left a complete, unlocked store");
      assertTrue(server.isRegistered(shardName(tmp, 1)));
    }
  }

  @Test
  void shouldReportTheLevelsOfEachShardsLsmTree() {
    try (P2kv store = small().shards(1).open(tmp)) {
      assertEquals(List.of(), store.stats().shards().get(0).levels(), "no files yet");
      for (int i = 0; i < 1000; i++) {
        store.put(Keys.key("k" + i), new byte[100]);
      }
      store.compact();
      List<LevelStats> levels = store.stats().shards().get(0).levels();
      LevelStats last = levels.get(levels.size() - 1);
      assertTrue(last.files() > 0 && last.bytes() > 0, levels.toString());
      assertEquals(0, levels.get(0).level());
      assertEquals(levels.size() - 1, last.level(), "levels are listed from 0 without gaps");
    }
  }

  @Test
  void shouldRecordNoLatenciesUnlessAsked() {
    try (P2kv store = small().shards(1).open(tmp)) {
      store.put(Keys.key("a"), Keys.key("b"));
      assertEquals(List.of(), store.stats().latencies());
      assertTrue(store.stats().latency(OperationType.PUT).isEmpty());
    }
  }

  @ParameterizedTest
  @EnumSource(ReadPath.class)
  void shouldRecordTheLatencyOfEverySuccessfulOperationByType(ReadPath readPath) throws Exception {
    try (P2kv store = small().shards(2).readPath(readPath).recordLatency(true).jmx(true).open(tmp)) {
      byte[] k = Keys.key("k");
      for (int i = 0; i < 10; i++) {
        store.put(Keys.key("k" + i), k);
      }
      CompletableFuture.allOf(store.putAsync(k, k), store.putAsync(Keys.key("x"), k)).join();
      CompletableFuture<Void> callback = new CompletableFuture<>();
      store.putAsync(Keys.key("y"), k, (v, e) -> callback.complete(null));
      callback.join();
      store.delete(Keys.key("k0"));
      store.deleteAsync(Keys.key("k1")).join();
      store.write(new Batch().put(k, k).delete(k));
      store.writeAsync(new Batch().put(k, k)).join();
      assertArrayEquals(k, store.get(k));
      assertArrayEquals(k, store.getAsync(k).join());
      store.multiGet(List.of(k, Keys.key("k5"), Keys.key("absent")));
      store.multiGetAsync(List.of(k, Keys.key("k6"))).join();
      store.update(k, v -> v);
      store.updateAsync(k, v -> v).join();
      store.increment(Keys.key("n"), 1);
      assertThrows(UpdateFunctionException.class, () -> store.update(k, v -> {
        throw new IllegalStateException("not recorded");
      }));
      assertThrows(IllegalArgumentException.class, () -> store.put(new byte[P2kv.MAX_KEY_BYTES + 1], k));

      StoreStats stats = store.stats();
      assertEquals(List.of(OperationType.values()), stats.latencies().stream().map(LatencyStats::operation).toList());
      assertEquals(13, count(stats, OperationType.PUT));
      assertEquals(2, count(stats, OperationType.DELETE));
      assertEquals(2, count(stats, OperationType.WRITE));
      assertEquals(2, count(stats, OperationType.GET));
      assertEquals(2, count(stats, OperationType.MULTI_GET));
      assertEquals(3, count(stats, OperationType.UPDATE));
      for (LatencyStats l : stats.latencies()) {
        assertTrue(0 < l.p50Nanos() && l.p50Nanos() <= l.p90Nanos() && l.p90Nanos() <= l.p99Nanos()
            && l.p99Nanos() <= l.p999Nanos() && l.p999Nanos() <= l.maxNanos() && l.meanNanos() > 0, l.toString());
      }
      ObjectName bean = storeName(tmp);
      assertEquals(13L, server.getAttribute(bean, "PutCount"));
      assertEquals(2L, server.getAttribute(bean, "MultiGetCount"));
      assertEquals(3L, server.getAttribute(bean, "UpdateCount"));
      assertEquals(4L, server.getAttribute(bean, "Updates"));
      assertEquals(stats.latency(OperationType.WRITE).orElseThrow().maxNanos(), server.getAttribute(bean, "WriteMaxNanos"));
    }
  }

  private static long count(StoreStats stats, OperationType type) {
    return stats.latency(type).orElseThrow().count();
  }
}
