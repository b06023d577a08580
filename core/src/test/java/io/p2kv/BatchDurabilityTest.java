package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A batch's own durability ({@link P2kv#write(Batch, Durability)}): a batch written without the
 * log into a logged store is in checkpoints (which must flush it, since no log holds it) and
 * survives a clean close. What a crash does to it is {@code CrashTest}'s (src-test).
 */
class BatchDurabilityTest {
  @TempDir Path tmp;

  private static Batch batch(String prefix, int n) {
    Batch b = new Batch();
    for (int i = 0; i < n; i++) {
      b.put(Keys.key(prefix + i), Keys.key("v" + i));
    }
    return b;
  }

  @Test
  void shouldPutAnUnloggedBatchIntoCheckpointsAndKeepItAcrossACleanClose() {
    Path dir = tmp.resolve("store");
    Path copy = tmp.resolve("copy");
    try (P2kv store = P2kv.builder().shards(3).durability(Durability.WAL).open(dir)) {
      store.put(Keys.key("logged"), Keys.key("1"));
      store.write(batch("bulk-", 50), Durability.NO_WAL); // across shards
      store.writeAsync(batch("one-", 1), Durability.NO_WAL).join(); // one shard
      store.write(batch("synced-", 5), Durability.SYNC);
      store.checkpoint(copy);
    }
    for (Path p : new Path[] {copy, dir}) {
      try (P2kv store = P2kv.builder().open(p)) {
        assertEquals(57, store.range(null, null).size(), p.getFileName().toString());
        assertArrayEquals(Keys.key("v49"), store.get(Keys.key("bulk-49")));
        assertArrayEquals(Keys.key("v0"), store.get(Keys.key("one-0")));
      }
    }
  }

  /**
   * A writer alternates an unlogged batch {@code k} and a logged marker {@code k} while checkpoints
   * are taken: a copy that holds marker {@code k} (from the log) must hold batch {@code k}, which
   * completed before the marker was issued. Batches that land between the checkpoint's first flush
   * and its cut live only in memtables, so the cut must flush them (or the copy has the marker
   * without the batch).
   */
  @Test
  void shouldNeverCheckpointALoggedWriteWithoutTheUnloggedBatchBeforeIt() throws Exception {
    Path dir = tmp.resolve("store");
    try (P2kv store = P2kv.builder().shards(2).durability(Durability.WAL).open(dir)) {
      java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
      Thread writer = new Thread(() -> {
        for (int k = 0; !stop.get(); k++) {
          store.write(new Batch().put(Keys.key("bulk-" + k), Keys.key("v")), Durability.NO_WAL);
          store.put(Keys.key("marker-" + k), Keys.key("m"));
        }
      });
      writer.start();
      int checked = 0;
      try {
        for (int c = 0; c < 4; c++) {
          Path copy = tmp.resolve("copy-" + c);
          store.checkpoint(copy);
          try (P2kv cp = P2kv.builder().open(copy)) {
            int markers = 0;
            for (KeyValue kv : cp.range(Keys.key("marker-"), Keys.key("marker."))) {
              String k = new String(kv.key(), java.nio.charset.StandardCharsets.UTF_8).substring("marker-".length());
              assertArrayEquals(Keys.key("v"), cp.get(Keys.key("bulk-" + k)), "copy " + c + " has marker " + k + " but not its batch");
              markers++;
            }
            checked += markers;
          }
        }
      } finally {
        stop.set(true);
        writer.join();
      }
      assertEquals(true, checked > 0, "the copies held markers to check");
    }
  }

  @Test
  void shouldRefuseANullDurability() {
    try (P2kv store = P2kv.builder().shards(1).open(tmp)) {
      NullPointerException e = assertThrows(NullPointerException.class, () -> store.write(new Batch(), null));
      assertEquals("durability is null", e.getMessage());
      assertThrows(NullPointerException.class, () -> store.writeAsync(new Batch(), null));
    }
  }
}
