package io.p2kv.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.p2kv.bench.report.ScalingModel.Bound;
import io.p2kv.bench.report.ScalingModel.Projection;
import io.p2kv.internal.StoreConfig;
import org.junit.jupiter.api.Test;

/**
 * {@link ScalingModel}: the three bounds, worked by hand for round costs, and the batch size that
 * shrinks as callers spread over more shards.
 */
class ScalingModelTest {
  /** 1000 ns caller, 500 hand-off, 1000 per key, 3200 per batch, 500 background, 0 JVM. */
  private static ScalingModel puts(double batchFraction, int inFlight) {
    return new ScalingModel("puts", 1000, 0, 500, 1000, 3200, 500, 0, batchFraction, inFlight, 32, 1.0);
  }

  @Test
  void shouldBeBoundByOneShardsSerialCostWhenCoresAreMany() {
    // 16 callers x 64 in flight: batch 32, serial = 500 + 1000 + 100 = 1600 ns; total 3100 ns
    Projection p = puts(1.0, 64).project(32, 1, 16);
    assertEquals(32, p.batch(), 1e-9);
    assertEquals(1600, p.serialNanos(), 1e-9);
    assertEquals(3100, p.totalNanos(), 1e-9);
    assertEquals(Bound.SHARDS, p.bound());
    assertEquals(1e9 / 1600, p.opsPerSecond(), 1e-6);
  }

  @Test
  void shouldBeBoundByTheCoresUntilTheShardsRunOut() {
    Projection p = puts(1.0, 64).project(2, 4, 16);
    assertEquals(Bound.CORES, p.bound());
    assertEquals(2e9 / 3100, p.opsPerSecond(), 1e-6);
    // 8 cores, 4 shards: the cores allow 8/3100 ns (2.58 M/s), the shards 4/1600 ns (2.5 M/s)
    Projection q = puts(1.0, 64).project(8, 4, 16);
    assertEquals(Bound.SHARDS, q.bound());
    assertEquals(4e9 / 1600, q.opsPerSecond(), 1e-6);
  }

  @Test
  void shouldShrinkSyncBatchesAsCallersSpreadOverShards() {
    ScalingModel sync = puts(0.5, 1);
    assertEquals(8, sync.batch(1, 16), 1e-9); // half of 16 callers queued
    assertEquals(2, sync.batch(4, 16), 1e-9);
    assertEquals(1, sync.batch(16, 16), 1e-9); // never below one request
    // smaller batches spread the per-batch cost over fewer keys: 500 + 1000 + 3200 / 2
    assertEquals(3100, sync.serialNanos(4, 16), 1e-9);
    assertEquals(32, puts(1.0, 1).batch(1, 64), 1e-9); // never above maxBatch
  }

  @Test
  void shouldBoundReadsOnCallerThreadsByCallersAndCores() {
    ScalingModel gets = new ScalingModel("gets", 4000, 0, 0, 0, 0, 0, 0, 1, 1, 32, 1.0);
    Projection few = gets.project(2, 8, 16);
    assertEquals(2e9 / 4000, few.opsPerSecond(), 1e-6);
    assertEquals(Bound.CORES, few.bound());
    Projection many = gets.project(32, 1, 16); // 16 callers use at most 16 of 32 cores
    assertEquals(16e9 / 4000, many.opsPerSecond(), 1e-6);
    assertEquals(Bound.CALLERS, many.bound());
  }

  @Test
  void shouldPickTheFewestShardsNearTheBest() {
    ScalingModel async = puts(1.0, 64);
    // cores bound 8/3100 = 2.58 M/s; shards bound s/1600: s = 2 gives 1.25 M, 4 gives 2.5 M
    // (within 5 % of 2.58 M), 5 reaches the cores bound
    assertEquals(4, async.fewestShardsNearBest(8, 16, 16, 0.05));
    assertEquals(5, async.fewestShardsNearBest(8, 16, 16, 0.0));
    assertEquals(1, async.fewestShardsNearBest(1, 16, 16, 0.05));
  }

  @Test
  void shouldChargeEveryFurtherShardToAScan() {
    ScalingModel scans = new ScalingModel("scans", 20000, 3000, 0, 0, 0, 0, 0, 1, 1, 32, 1.0);
    assertEquals(29000, scans.project(2, 4, 4).totalNanos(), 1e-9);
    assertEquals(2e9 / 29000, scans.project(2, 4, 4).opsPerSecond(), 1e-6);
    assertEquals(4e9 / 20000, scans.project(32, 1, 4).opsPerSecond(), 1e-6); // 4 callers
  }

  @Test
  void shouldCountOnlyTheUsableShareOfTheCores() {
    ScalingModel gets = new ScalingModel("gets", 4000, 0, 0, 0, 0, 0, 0, 1, 1, 32, 0.8);
    assertEquals(0.8 * 2e9 / 4000, gets.project(2, 1, 16).opsPerSecond(), 1e-6);
  }

  @Test
  void shouldRejectNonsense() {
    assertThrows(IllegalArgumentException.class, () -> new ScalingModel("x", 1, 0, 0, 0, 0, 0, 0, 1, 1, 32, 0));
    assertThrows(IllegalArgumentException.class, () -> new ScalingModel("x", -1, 0, 0, 0, 0, 0, 0, 1, 1, 32, 1.0));
    assertThrows(IllegalArgumentException.class, () -> new ScalingModel("x", Double.NaN, 0, 0, 0, 0, 0, 0, 1, 1, 32, 1.0));
    assertThrows(IllegalArgumentException.class, () -> new ScalingModel("x", 1, 0, 0, 0, 0, 0, 0, 0, 1, 32, 1.0));
    assertThrows(IllegalArgumentException.class, () -> puts(1, 1).project(0, 1, 1));
  }

  @Test
  void shouldBeTheRuleBehindTheStoresDefaultShardCount() {
    // The first calibration's async-put parameters (SCALING.md, "The default shard count"): the
    // core's closed form (StoreConfig.defaultShards) must pick what the model's search picks, for
    // every core count.
    ScalingModel async = new ScalingModel("async puts", 1146, 0, 0, 1165, 2262, 1060, 484, 1.0, 64, 32, 0.87);
    for (int cores = 1; cores <= 128; cores++) {
      assertEquals(async.fewestShardsNearBest(cores, 16, 16, 0.05), StoreConfig.defaultShards(cores), cores + " cores");
    }
  }
}
