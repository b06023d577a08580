package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The optional key-range partitioner: layout, manifest, reopen checks, shards a range touches. */
class RangePartitioningTest {
  private static final List<byte[]> SPLITS = List.of(Keys.key("g"), Keys.key("n"), Keys.key("t"));

  @TempDir Path tmp;

  private static P2kv.Builder builder() {
    return P2kv.builder().memoryBudgetBytes(64L << 20);
  }

  @Test
  void shouldPlaceKeysByRangeAndKeepTheSplitsInTheManifest() throws IOException {
    try (P2kv store = builder().rangePartitioning(SPLITS).open(tmp)) {
      assertEquals(4, store.shardCount());
      assertEquals(0, store.shardOf(new byte[0]));
      assertEquals(0, store.shardOf(Keys.key("fzzz")));
      assertEquals(1, store.shardOf(Keys.key("g")), "a split key starts its shard");
      assertEquals(2, store.shardOf(Keys.key("n\0")));
      assertEquals(3, store.shardOf(new byte[] {(byte) 0xFF}));
      for (char c = 'a'; c <= 'z'; c++) {
        store.put(Keys.key(c + "-key"), Keys.key("v" + c));
      }
    }
    String manifest = Files.readString(tmp.resolve("MANIFEST"));
    assertTrue(manifest.contains("partitioner=range") && manifest.contains("splits=67,6e,74"), manifest);
    try (P2kv store = builder().open(tmp)) {
      assertEquals(4, store.shardCount(), "no partitioning option adopts the manifest's");
      assertEquals(1, store.shardOf(Keys.key("h")));
      assertEquals(26, store.range(null, null).size());
      assertArrayEquals(Keys.key("vq"), store.get(Keys.key("q-key")));
    }
    try (P2kv store = builder().rangePartitioning(SPLITS).shards(4).open(tmp)) {
      assertEquals(26, store.scan(null, 100).size(), "the same split keys reopen");
    }
  }

  @Test
  void shouldRefuseToReopenWithOtherSplitsOrAnotherPartitioner() {
    builder().rangePartitioning(SPLITS).open(tmp).close();
    ManifestMismatchException other =
        assertThrows(ManifestMismatchException.class, () -> builder().rangePartitioning(List.of(Keys.key("m"))).open(tmp));
    assertTrue(other.getMessage().contains("other split keys"), other.getMessage());
    assertThrows(
        ManifestMismatchException.class,
        () -> builder().rangePartitioning(List.of(Keys.key("g"), Keys.key("n"), Keys.key("u"))).open(tmp));
    assertThrows(ManifestMismatchException.class, () -> builder().shards(2).open(tmp));

    Path hashed = tmp.resolve("hashed");
    builder().shards(4).open(hashed).close();
    ManifestMismatchException e = assertThrows(ManifestMismatchException.class, () -> builder().rangePartitioning(SPLITS).open(hashed));
    assertTrue(e.getMessage().contains("hash-partitioned"), e.getMessage());
    builder().open(hashed).close();
    builder().open(tmp).close();
  }

  @Test
  void shouldRejectInvalidSplitKeysAtOnce() {
    assertThrows(IllegalArgumentException.class, () -> builder().rangePartitioning(List.of(Keys.key("b"), Keys.key("a"))));
    assertThrows(IllegalArgumentException.class, () -> builder().rangePartitioning(List.of(Keys.key("a"), Keys.key("a"))));
    assertThrows(IllegalArgumentException.class, () -> builder().rangePartitioning(List.of(new byte[0])));
    assertThrows(IllegalArgumentException.class, () -> builder().rangePartitioning(List.of(new byte[P2kv.MAX_KEY_BYTES + 1])));
    List<byte[]> nulls = new ArrayList<>();
    nulls.add(null);
    assertThrows(NullPointerException.class, () -> builder().rangePartitioning(nulls));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> builder().rangePartitioning(SPLITS).shards(3).open(tmp));
    assertTrue(e.getMessage().contains("make 4 shards"), e.getMessage());
  }

  @Test
  void shouldReadOnlyTheShardsARangeOverlaps() {
    FaultyEngines engines = new FaultyEngines();
    try (P2kv store = engines.builder(4).rangePartitioning(SPLITS).open(tmp)) {
      for (char c = 'a'; c <= 'z'; c++) {
        store.put(Keys.key(c + "-key"), Keys.key("v" + c));
      }
      engines.faults.put(0, FaultyEngines.Fault.FAIL_ITERATORS);
      engines.faults.put(3, FaultyEngines.Fault.FAIL_ITERATORS);
      // [h, t) lies in shards 1 and 2 only; the end bound equal to a split excludes shard 3.
      assertEquals(12, store.range(Keys.key("h"), Keys.key("t")).size());
      assertEquals(12, store.rangeAsync(Keys.key("h"), Keys.key("t")).join().size());
      try (KvIterator it = store.reverseIterator(Keys.key("g"), Keys.key("t"))) {
        assertArrayEquals(Keys.key("s-key"), it.next().key());
      }
      try (KvIterator it = store.prefixIterator(Keys.key("p"))) {
        assertArrayEquals(Keys.key("p-key"), it.next().key());
      }
      ShardFailedException e = assertThrows(ShardFailedException.class, () -> store.scan(Keys.key("h"), 3));
      assertEquals(3, e.shard(), "an open-ended scan reaches the last shard");
      assertEquals(0, store.core().openIteratorCount());
    }
  }
}
