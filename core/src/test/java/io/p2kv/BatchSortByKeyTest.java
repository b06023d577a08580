package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Batch#sortByKey}: unsigned key order with each key's operations in the order they were
 * added, and a sorted batch written to a store leaves what the unsorted one leaves in a TreeMap
 * model (random keys rich in 0x00 and 0xFF, repeats and deletes).
 */
class BatchSortByKeyTest {
  @TempDir Path tmp;

  @Test
  void shouldOrderByUnsignedKeyKeepingEachKeysOperationsInOrder() {
    Batch batch = new Batch()
        .put(new byte[] {(byte) 0x80}, new byte[] {1})
        .put(new byte[] {0x01}, new byte[] {2})
        .delete(new byte[] {(byte) 0x80})
        .put(new byte[] {0x01, 0x00}, new byte[] {3})
        .put(new byte[] {0x01}, new byte[] {4});
    assertSame(batch, batch.sortByKey());
    List<String> written = new ArrayList<>();
    for (Batch.Op op : batch.ops()) {
      written.add(Arrays.toString(op.key()) + "=" + Arrays.toString(op.value()));
    }
    // unsigned order (0x80 after 0x01, a key before its extensions), a key's writes as they came
    assertEquals(List.of("[1]=[2]", "[1]=[4]", "[1, 0]=[3]", "[-128]=[1]", "[-128]=null"), written);
    assertEquals(5, batch.size());
    assertEquals(List.of(), new Batch().sortByKey().ops());
  }

  @Test
  void shouldWriteWhatTheUnsortedBatchWrites() {
    TestSeeds.run(getClass(), "shouldWriteWhatTheUnsortedBatchWrites", seed -> {
      Random rnd = new Random(seed);
      TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);
      try (P2kv store = P2kv.builder().shards(2).open(tmp.resolve("s" + seed))) {
        for (int round = 0; round < 20; round++) {
          Batch batch = new Batch();
          List<byte[]> keys = new ArrayList<>();
          for (int i = 0, n = rnd.nextInt(200); i < n; i++) {
            // repeats of earlier keys, so that the order within a key matters
            byte[] key = !keys.isEmpty() && rnd.nextInt(3) == 0 ? keys.get(rnd.nextInt(keys.size())) : Keys.randomKey(rnd);
            keys.add(key);
            if (rnd.nextInt(4) == 0) {
              batch.delete(key);
              model.remove(key);
            } else {
              byte[] value = Keys.randomValue(rnd, 20);
              batch.put(key, value);
              model.put(key, value);
            }
          }
          store.write(batch.sortByKey());
        }
        ModelLayouts.assertMatches(model, store.scan(new byte[0], Integer.MAX_VALUE), "after 20 sorted batches");
      }
    });
  }
}
