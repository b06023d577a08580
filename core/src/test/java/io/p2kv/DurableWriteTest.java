package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Durability SYNC with group commit: durable batches have their own caps ({@code maxDurableBatch},
 * {@code maxDurableBatchBytes}), and every acknowledged write is in the store after it reopens.
 * (That an acknowledgement waits for the fsync of its batch is checked step by step in
 * ShardWorkerTest; that it survives a killed process, in src-test's CrashTest.)
 */
class DurableWriteTest {
  @TempDir Path tmp;

  @Test
  void shouldKeepDurableBatchesWithinTheirCapAndEveryAcknowledgedWrite() {
    int writes = 2000;
    List<CompletableFuture<Void>> acks = new ArrayList<>();
    try (P2kv store = P2kv.builder().shards(1).durability(Durability.SYNC).maxBatch(4).maxDurableBatch(50).open(tmp)) {
      for (int i = 0; i < writes; i++) {
        acks.add(store.putAsync(Keys.key("k" + i), Keys.key("v" + i)));
      }
      for (CompletableFuture<Void> ack : acks) {
        ack.join();
      }
      long largest = store.stats().shards().get(0).maxWriteBatch();
      assertTrue(largest <= 50, "a durable batch of " + largest + " writes is over maxDurableBatch 50");
      assertEquals(writes, store.stats().shards().get(0).writeOps(), "each write once");
    }
    try (P2kv store = P2kv.builder().open(tmp)) {
      for (int i = 0; i < writes; i++) {
        assertArrayEquals(Keys.key("v" + i), store.get(Keys.key("k" + i)), "acknowledged write k" + i);
      }
    }
  }

  @Test
  void shouldRejectDurableCapsOutOfRangeNamingThem() {
    P2kv.Builder b = P2kv.builder();
    assertTrue(assertThrows(IllegalArgumentException.class, () -> b.maxDurableBatch(0)).getMessage().contains("maxDurableBatch"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> b.maxDurableBatch(65537)).getMessage().contains("maxDurableBatch"));
    assertTrue(
        assertThrows(IllegalArgumentException.class, () -> b.maxDurableBatchBytes(0)).getMessage().contains("maxDurableBatchBytes"));
  }
}
