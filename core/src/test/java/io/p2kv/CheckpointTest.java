package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@link P2kv#checkpoint(Path)}: a checkpoint opens as the store at the cut, under every
 * durability mode; under concurrent cross-shard transfers and causal writers every checkpoint
 * keeps the total and never holds an effect without its cause; bad targets and incomplete copies
 * are refused with clear messages. The kill -9 cycles are in src-test ({@code CrashTest}).
 */
class CheckpointTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @EnumSource(Durability.class)
  void shouldOpenACheckpointAsExactlyTheStoreAtTheCut(Durability durability) {
    TestSeeds.run(getClass(), "shouldOpenACheckpointAsExactlyTheStoreAtTheCut: " + durability, seed -> {
      Random rnd = new Random(seed);
      TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);
      Path copy = tmp.resolve("copy");
      try (P2kv store = P2kv.builder().shards(4).durability(durability).open(tmp.resolve("store"))) {
        writeRandomly(store, model, rnd, 2000);
        store.checkpoint(copy);
        writeRandomly(store, new TreeMap<>(Keys.UNSIGNED), rnd, 500); // after the cut
      }
      assertFalse(Files.exists(copy.resolve("INCOMPLETE")), "a finished checkpoint is published");
      try (P2kv opened = P2kv.builder().open(copy)) {
        assertEquals(4, opened.shardCount());
        List<KeyValue> all = opened.range(null, null);
        assertEquals(model.size(), all.size());
        int i = 0;
        for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
          assertArrayEquals(e.getKey(), all.get(i).key());
          assertArrayEquals(e.getValue(), all.get(i++).value());
        }
        opened.put(Keys.key("writable"), Keys.key("yes"));
        assertArrayEquals(Keys.key("yes"), opened.get(Keys.key("writable")));
      }
    });
  }

  private static void writeRandomly(P2kv store, TreeMap<byte[], byte[]> model, Random rnd, int ops) {
    for (int op = 0; op < ops; op++) {
      byte[] key = Keys.key("k" + rnd.nextInt(500));
      if (rnd.nextInt(5) == 0) {
        store.delete(key);
        model.remove(key);
      } else if (rnd.nextInt(5) == 0) {
        byte[] other = Keys.key("k" + rnd.nextInt(500));
        byte[] v = Keys.randomValue(rnd, 100);
        store.write(new Batch().put(key, v).delete(other));
        model.put(key, v);
        model.remove(other);
        if (java.util.Arrays.equals(key, other)) {
          model.remove(key);
        }
      } else {
        byte[] v = Keys.randomValue(rnd, 100);
        store.put(key, v);
        model.put(key, v);
      }
    }
  }

  /**
   * 8 writers transfer between accounts on different shards and 4 writers write A then B on
   * another shard, while checkpoints are taken in a loop; every reopened checkpoint has the
   * accounts' total, no B without its A, and every pair acknowledged before it was asked for.
   */
  @Test
  void shouldKeepTheGuaranteeInEveryCheckpointTakenUnderLoad() throws Exception {
    TestSeeds.run(getClass(), "shouldKeepTheGuaranteeInEveryCheckpointTakenUnderLoad", seed -> {
      int checkpoints = 8;
      byte[][][] owned;
      long total;
      long[][] before = new long[checkpoints][];
      CausalPairs pairs;
      try (P2kv store = P2kv.builder().shards(4).open(tmp.resolve("store"))) {
        owned = Transfers.accounts(store, 8, 3);
        total = Transfers.fund(store, owned, 1000);
        Transfers.Writers transfers = new Transfers.Writers(store, owned, 1000, seed);
        pairs = new CausalPairs(store, 4);
        try {
          for (int c = 0; c < checkpoints; c++) {
            before[c] = pairs.acknowledged();
            store.checkpoint(tmp.resolve("cp" + c));
          }
        } finally {
          pairs.stop();
          transfers.stop();
        }
      }
      for (int c = 0; c < checkpoints; c++) {
        try (P2kv cp = P2kv.builder().open(tmp.resolve("cp" + c))) {
          assertEquals(total, Transfers.total(cp, owned), "total in checkpoint " + c);
          pairs.check(cp::get, before[c], "checkpoint " + c);
        }
      }
    });
  }

  @Test
  void shouldRefuseToOpenAnIncompleteCopy() throws Exception {
    Path copy = tmp.resolve("copy");
    try (P2kv store = P2kv.builder().shards(2).open(tmp.resolve("store"))) {
      store.put(Keys.key("a"), Keys.key("1"));
      store.checkpoint(copy);
    }
    // What a crash before the publishing step leaves: everything written, the marker still there.
    Files.writeString(copy.resolve("INCOMPLETE"), "interrupted");
    StoreCorruptedException e = assertThrows(StoreCorruptedException.class, () -> P2kv.builder().open(copy));
    assertTrue(e.getMessage().contains("incomplete copy") && e.getMessage().contains("INCOMPLETE"), e.getMessage());
    // An interrupted copy that got only as far as the marker is refused the same way, not created.
    Path early = Files.createDirectories(tmp.resolve("early"));
    Files.writeString(early.resolve("INCOMPLETE"), "interrupted");
    assertThrows(StoreCorruptedException.class, () -> P2kv.builder().open(early));
    assertEquals(List.of(early.resolve("INCOMPLETE")), Files.list(early).toList());
  }

  @Test
  void shouldRefuseBadTargets() throws Exception {
    Path storeDir = tmp.resolve("store");
    try (P2kv store = P2kv.builder().shards(2).open(storeDir)) {
      Path full = Files.createDirectories(tmp.resolve("full"));
      Files.writeString(full.resolve("x"), "x");
      IllegalArgumentException notEmpty = assertThrows(IllegalArgumentException.class, () -> store.checkpoint(full));
      assertTrue(notEmpty.getMessage().contains("not empty"), notEmpty.getMessage());
      IllegalArgumentException inside =
          assertThrows(IllegalArgumentException.class, () -> store.checkpoint(storeDir.resolve("cp")));
      assertTrue(inside.getMessage().contains("inside the store"), inside.getMessage());
      assertThrows(IllegalArgumentException.class, () -> store.checkpoint(full.resolve("x")));
      Path empty = Files.createDirectories(tmp.resolve("empty"));
      store.checkpoint(empty);
      assertTrue(Files.exists(empty.resolve("MANIFEST")));
    }
  }

  @Test
  void shouldRefuseACheckpointOfAClosedStore() {
    P2kv store = P2kv.builder().shards(2).open(tmp.resolve("store"));
    store.close();
    assertThrows(StoreClosedException.class, () -> store.checkpoint(tmp.resolve("cp")));
    assertFalse(Files.exists(tmp.resolve("cp")));
  }
}
