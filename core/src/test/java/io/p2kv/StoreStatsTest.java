package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link StoreStats}' sums over the shards. */
class StoreStatsTest {
  @Test
  void shouldSumPendingCompactionBytesCountingUnknownShardsAsZero() {
    StoreStats stats =
        new StoreStats(
            List.of(
                ShardStats.builder(0).pendingCompactionBytes(100).build(),
                ShardStats.builder(1).pendingCompactionBytes(-1).build(), // the engine could not tell
                ShardStats.builder(2).pendingCompactionBytes(50).build()),
            List.of(),
            0);
    assertEquals(150, stats.pendingCompactionBytes());
  }
}
