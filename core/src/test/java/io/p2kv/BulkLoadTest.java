package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * {@link P2kv#load} against a TreeMap model in unsigned byte order: random puts, deletes, batches,
 * range deletes and loads (with repeated keys and deletes) under hash and range partitioning, with
 * the value cache on and both read paths, checked by gets (which fill the cache, so a load must
 * drop what it replaces) after every operation, by whole-range reads, by a snapshot taken before a
 * load, and after a reopen, half the loads sorted ({@link P2kv#loadSorted}); sorted loads that
 * find a key out of order or an iterator that fails, which load nothing; a load kept by a copy of
 * a store that writes without its log (a load is durable by itself), failures, leftovers and bad
 * input.
 */
class BulkLoadTest {
  @TempDir Path tmp;

  @ParameterizedTest(name = "{0}")
  @MethodSource("io.p2kv.ModelLayouts#layouts")
  void shouldMatchTheModelWithLoadsAndAfterReopen(ModelLayouts.Layout layout) {
    TestSeeds.run(getClass(), "shouldMatchTheModelWithLoadsAndAfterReopen: " + layout, seed -> {
      Random rnd = new Random(seed);
      TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);
      int loads = 0;
      int sortedLoads = 0;
      int snapshotChecks = 0;
      try (P2kv store = layout.builder().open(tmp)) {
        for (int op = 0; op < 1000; op++) {
          byte[] key = ModelLayouts.randomKey(rnd);
          int kind = rnd.nextInt(10);
          if (kind <= 4) {
            ModelLayouts.Write w = kind < 3 ? ModelLayouts.Write.PUT : kind == 3 ? ModelLayouts.Write.DELETE : ModelLayouts.Write.BATCH;
            ModelLayouts.apply(w, key, rnd, store, model);
          } else if (kind == 5 && rnd.nextInt(4) == 0) {
            byte[] other = ModelLayouts.randomKey(rnd);
            byte[] from = Keys.UNSIGNED.compare(key, other) <= 0 ? key : other;
            byte[] to = from == key ? other : key;
            model.subMap(from, true, to, false).clear();
            store.deleteRange(from, to);
          } else if (kind <= 7) {
            // A load of up to 60 writes, keys repeated (the last write wins) and deletes among them.
            Batch batch = new Batch();
            TreeMap<byte[], byte[]> after = new TreeMap<>(model);
            int n = rnd.nextInt(60);
            for (int i = 0; i < n; i++) {
              byte[] k = ModelLayouts.randomKey(rnd);
              if (rnd.nextInt(4) == 0) {
                batch.delete(k);
                after.remove(k);
              } else {
                byte[] v = Keys.randomValue(rnd, 1 + rnd.nextInt(40));
                batch.put(k, v);
                after.put(k, v);
              }
            }
            // Half the loads go sorted: the same operations in key order, each key's in their order.
            boolean sorted = rnd.nextBoolean();
            if (rnd.nextInt(8) == 0) {
              try (Snapshot before = store.snapshot()) {
                load(store, batch, sorted);
                ModelLayouts.assertMatches(model, before.range(null, null), "a snapshot taken before a load does not see it");
                snapshotChecks++;
              }
            } else {
              load(store, batch, sorted);
            }
            model.clear();
            model.putAll(after);
            loads++;
            sortedLoads += sorted ? 1 : 0;
          } else {
            for (int i = 0; i < 4; i++) {
              byte[] k = ModelLayouts.randomKey(rnd);
              assertArrayEquals(model.get(k), store.get(k), () -> "get " + HexFormat.of().formatHex(k));
            }
          }
          assertArrayEquals(model.get(key), store.get(key), () -> "get " + HexFormat.of().formatHex(key));
          if (op % 250 == 249) {
            assertMatches(model, store, "at op " + op);
          }
        }
        assertTrue(loads > 150 && snapshotChecks > 5, loads + " loads, " + snapshotChecks + " with a snapshot");
        assertTrue(sortedLoads > 50 && loads - sortedLoads > 50, sortedLoads + " of " + loads + " loads sorted");
        assertTrue(store.stats().cache().hits() > 0, "the cache served reads");
        assertMatches(model, store, "before reopen");
        assertStagingEmpty();
      }
      try (P2kv store = layout.builder().open(tmp)) {
        assertMatches(model, store, "after reopen");
      }
    });
  }

  /** {@code batch} as a load, or as a sorted load of its operations in key order. */
  private static void load(P2kv store, Batch batch, boolean sorted) {
    if (sorted) {
      List<Batch.Op> ops = new ArrayList<>(batch.ops());
      ops.sort((a, b) -> Keys.UNSIGNED.compare(a.key(), b.key())); // stable: each key's in order
      store.loadSorted(ops.iterator());
    } else {
      store.load(batch);
    }
  }

  @Test
  void shouldLoadNothingWhenASortedLoadsKeysGoDownOrItsIteratorFails() throws IOException {
    try (P2kv store = P2kv.builder().shards(4).open(tmp)) {
      store.put(Keys.key("k000"), Keys.key("old"));
      // Keys over every shard first, so each has a file open when the bad operation comes.
      List<Batch.Op> ops = new ArrayList<>();
      for (int i = 0; i < 200; i++) {
        ops.add(new Batch.Op(Keys.key(String.format("k%03d", i)), Keys.key("new")));
      }
      List<Batch.Op> descending = new ArrayList<>(ops);
      descending.add(new Batch.Op(Keys.key("k100"), Keys.key("late")));
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> store.loadSorted(descending.iterator()));
      assertTrue(e.getMessage().contains("operation 200") && e.getMessage().contains("ascending"), e.getMessage());
      assertNothingLoaded(store);

      Iterator<Batch.Op> failing = new Iterator<>() {
        int i;

        @Override
        public boolean hasNext() {
          return true;
        }

        @Override
        public Batch.Op next() {
          if (i == ops.size()) {
            throw new IllegalStateException("the source failed");
          }
          return ops.get(i++);
        }
      };
      IllegalStateException f = assertThrows(IllegalStateException.class, () -> store.loadSorted(failing));
      assertEquals("the source failed", f.getMessage());
      assertNothingLoaded(store);

      List<Batch.Op> tooLong = new ArrayList<>(ops);
      tooLong.add(new Batch.Op(Keys.key("k999"), new byte[P2kv.MAX_VALUE_BYTES + 1]));
      assertThrows(IllegalArgumentException.class, () -> store.loadSorted(tooLong.iterator()));
      assertNothingLoaded(store);

      List<Batch.Op> withNull = new ArrayList<>(ops);
      withNull.add(null);
      assertThrows(NullPointerException.class, () -> store.loadSorted(withNull.iterator()));
      assertNothingLoaded(store);

      // Equal keys next to each other: the last one is kept.
      List<Batch.Op> repeated = new ArrayList<>(ops);
      repeated.add(new Batch.Op(Keys.key("k199"), null));
      repeated.add(new Batch.Op(Keys.key("k199"), Keys.key("last")));
      store.loadSorted(repeated.iterator());
      assertEquals(200, store.range(null, null).size());
      assertArrayEquals(Keys.key("new"), store.get(Keys.key("k000")));
      assertArrayEquals(Keys.key("last"), store.get(Keys.key("k199")));
      assertStagingEmpty();
    }
  }

  private void assertNothingLoaded(P2kv store) throws IOException {
    assertEquals(1, store.range(null, null).size(), "only the put before the loads");
    assertArrayEquals(Keys.key("old"), store.get(Keys.key("k000")));
    assertStagingEmpty();
  }

  @Test
  void shouldKeepALoadWithoutTheLogAcrossAnUnflushedReopen() throws IOException {
    // The store writes without its log and is copied while open (as a crash would leave it): its
    // logged-less puts may be gone, the loaded keys may not.
    Path copy = tmp.resolve("copy");
    try (P2kv store = P2kv.builder().shards(2).durability(Durability.NO_WAL).open(tmp.resolve("db"))) {
      Batch batch = new Batch();
      for (int i = 0; i < 5000; i++) {
        batch.put(Keys.key("k" + i), Keys.key("v" + i));
      }
      store.load(batch);
      copyTree(tmp.resolve("db"), copy);
    }
    Files.deleteIfExists(copy.resolve("LOCK"));
    try (P2kv store = P2kv.builder().shards(2).durability(Durability.NO_WAL).open(copy)) {
      for (int i = 0; i < 5000; i += 7) {
        assertArrayEquals(Keys.key("v" + i), store.get(Keys.key("k" + i)), "k" + i);
      }
      assertEquals(5000, store.range(null, null).size());
    }
  }

  @Test
  void shouldRefuseNullAndClosedAndAcceptEmpty() {
    P2kv store = P2kv.builder().shards(2).open(tmp);
    NullPointerException npe = assertThrows(NullPointerException.class, () -> store.load(null));
    assertTrue(npe.getMessage().contains("batch is null"), npe.getMessage());
    npe = assertThrows(NullPointerException.class, () -> store.loadSorted(null));
    assertTrue(npe.getMessage().contains("ops is null"), npe.getMessage());
    store.load(new Batch());
    store.loadSorted(List.<Batch.Op>of().iterator());
    assertTrue(store.range(null, null).isEmpty());
    store.close();
    Batch one = new Batch().put(Keys.key("a"), Keys.key("1"));
    assertThrows(StoreClosedException.class, () -> store.load(one));
    assertThrows(StoreClosedException.class, () -> store.load(new Batch()));
    assertThrows(StoreClosedException.class, () -> store.loadSorted(one.ops().iterator()));
    assertThrows(StoreClosedException.class, () -> store.loadSorted(List.<Batch.Op>of().iterator()));
  }

  @Test
  void shouldFailTheShardThatCannotIngestAndLeaveNoFileBehind() throws IOException {
    FaultyEngines engines = new FaultyEngines();
    try (P2kv store = engines.builder(4).open(tmp)) {
      Batch batch = new Batch();
      List<byte[]> keys = new ArrayList<>();
      for (int i = 0; i < 400; i++) {
        keys.add(Keys.key("key" + i));
        batch.put(keys.get(i), Keys.key("new"));
      }
      engines.faults.put(1, FaultyEngines.Fault.FAIL_WRITES);
      ShardFailedException e = assertThrows(ShardFailedException.class, () -> store.load(batch));
      assertEquals(1, e.shard());
      for (byte[] k : keys) {
        if (store.shardOf(k) == 1) {
          assertNull(store.get(k), "the failed shard's part is not in");
        } else {
          assertArrayEquals(Keys.key("new"), store.get(k), "other shards' parts are (a load is atomic per shard only)");
        }
      }
      assertStagingEmpty();
      ShardFailedException sorted = assertThrows(ShardFailedException.class, () -> store.loadSorted(batch.sortByKey().ops().iterator()));
      assertEquals(1, sorted.shard());
      for (byte[] k : keys) {
        if (store.shardOf(k) == 1) {
          assertNull(store.get(k), "a sorted load fails the same way");
        }
      }
      assertStagingEmpty();
      engines.faults.clear();
      store.load(batch);
      for (byte[] k : keys) {
        assertArrayEquals(Keys.key("new"), store.get(k), "repeating the load completes it");
      }
    }
  }

  @Test
  void shouldDeleteTableFilesACrashLeftWhenItOpens() throws IOException {
    try (P2kv store = P2kv.builder().shards(1).open(tmp)) {
      store.put(Keys.key("a"), Keys.key("1"));
    }
    Path staging = tmp.resolve(".load-staging");
    Files.createDirectories(staging);
    Files.writeString(staging.resolve("0-1.sst"), "half a table");
    try (P2kv store = P2kv.builder().shards(1).open(tmp)) {
      assertFalse(Files.exists(staging.resolve("0-1.sst")), "the leftover table file is gone");
      assertArrayEquals(Keys.key("1"), store.get(Keys.key("a")));
      store.load(new Batch().put(Keys.key("b"), Keys.key("2")));
      assertArrayEquals(Keys.key("2"), store.get(Keys.key("b")));
    }
  }

  private void assertStagingEmpty() throws IOException {
    Path staging = tmp.resolve(".load-staging");
    if (Files.exists(staging)) {
      try (Stream<Path> files = Files.list(staging)) {
        assertEquals(List.of(), files.toList(), "table files left in " + staging);
      }
    }
  }

  private static void copyTree(Path from, Path to) throws IOException {
    try (Stream<Path> all = Files.walk(from)) {
      for (Path p : all.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  private static void assertMatches(TreeMap<byte[], byte[]> model, P2kv store, String when) {
    ModelLayouts.assertMatches(model, store.range(null, null), when);
  }
}
