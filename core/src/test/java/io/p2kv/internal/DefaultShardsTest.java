package io.p2kv.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link StoreConfig#defaultShards(int)}: the scaling model's shard count (docs/benchmarks/SCALING.md,
 * "The default shard count"). The jmh-benchmarks module checks the same rule against the model's own
 * search ({@code ScalingModelTest}).
 */
class DefaultShardsTest {
  @Test
  void shouldGiveTheShardCountsOfTheScalingModelsAsyncPutTable() {
    // SCALING.md, "async puts", last column: 1, 1, 2, 3, 5, 9 shards for 1, 2, 4, 8, 16, 32 cores
    int[][] table = {{1, 1}, {2, 1}, {4, 2}, {8, 3}, {16, 5}, {32, 9}};
    for (int[] row : table) {
      assertEquals(row[1], StoreConfig.defaultShards(row[0]), row[0] + " cores");
    }
  }

  @Test
  void shouldGrowWithTheCoresWithinOneAndTheCap() {
    int previous = 1;
    for (int cores = 1; cores <= 1024; cores++) {
      int shards = StoreConfig.defaultShards(cores);
      assertTrue(shards >= previous && shards <= StoreConfig.MAX_DEFAULT_SHARDS, cores + " cores: " + shards);
      assertTrue(shards <= Math.max(1, cores / 2), cores + " cores: at most one shard per two cores, got " + shards);
      previous = shards;
    }
    assertEquals(StoreConfig.MAX_DEFAULT_SHARDS, StoreConfig.defaultShards(1024));
  }

  @Test
  void shouldUseTheCoresThisJvmMayUse() {
    assertEquals(StoreConfig.defaultShards(Runtime.getRuntime().availableProcessors()), StoreConfig.defaultShards());
    assertThrows(IllegalArgumentException.class, () -> StoreConfig.defaultShards(0));
  }
}
