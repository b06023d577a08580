package io.p2kv.kafka;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.Batch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RestoreBuffer#drainSorted} against a model: Java's stable sort of the same records by
 * unsigned store key. The keys are drawn to reach every branch of the sort: a shared prefix of
 * varying length, keys that differ only past their first 8 bytes (and past 16), keys that are
 * prefixes of others, keys equal but for trailing zero bytes, empty keys, repeats (which must keep
 * their arrival order, so a sorted load keeps the last) and tombstones; in runs long enough for the
 * radix sort and short enough for the insertion sort.
 */
class RestoreBufferTest {
  @TempDir Path tmp;

  @Test
  void shouldYieldTheRecordsInStableUnsignedKeyOrder() {
    long seed = Long.getLong("p2kv.seed", System.nanoTime());
    System.out.println("RestoreBufferTest seed: -Dp2kv.seed=" + seed);
    Random r = new Random(seed);
    StoreKeys keys = new StoreKeys("kv", 3);
    for (int round = 0; round < 200; round++) {
      String where = "seed " + seed + ", round " + round;
      RestoreBuffer buffer = new RestoreBuffer(tmp.resolve("restore-" + round));
      List<Batch.Op> model = new ArrayList<>();
      byte[] prefix = randomBytes(r, r.nextInt(4) == 0 ? 0 : 1 + r.nextInt(12));
      int n = r.nextInt(4) == 0 ? r.nextInt(20) : r.nextInt(3000);
      List<byte[]> earlier = new ArrayList<>();
      for (int i = 0; i < n; i++) {
        byte[] key = key(r, prefix, earlier);
        earlier.add(key);
        byte[] value = r.nextInt(5) == 0 ? null : randomBytes(r, r.nextInt(10));
        buffer.add(key, value);
        model.add(new Batch.Op(keys.data(key), value));
      }
      model.sort((a, b) -> Arrays.compareUnsigned(a.key(), b.key())); // stable
      List<String> actual = new ArrayList<>();
      Iterator<Batch.Op> sorted = buffer.drainSorted(keys);
      while (sorted.hasNext()) {
        actual.add(render(sorted.next()));
      }
      assertEquals(model.stream().map(RestoreBufferTest::render).toList(), actual, where);
      assertThrows(NoSuchElementException.class, sorted::next, where);
      assertFalse(Files.exists(tmp.resolve("restore-" + round)), "the file is deleted: " + where);
      assertTrue(buffer.isEmpty(), where);
    }
  }

  /** A key: a repeat, a variation of an earlier key, or new bytes after the shared prefix. */
  private static byte[] key(Random r, byte[] prefix, List<byte[]> earlier) {
    int kind = r.nextInt(10);
    if (!earlier.isEmpty() && kind < 3) {
      byte[] e = earlier.get(r.nextInt(earlier.size()));
      return switch (kind) {
        case 0 -> e; // a repeat
        case 1 -> Arrays.copyOf(e, e.length + 1 + r.nextInt(3)); // trailing zeros
        default -> e.length == 0 ? e : Arrays.copyOf(e, r.nextInt(e.length)); // a prefix of it
      };
    }
    if (kind < 5) {
      // Equal in the 16 bytes after the prefix, different after them.
      byte[] k = Arrays.copyOf(prefix, prefix.length + 16 + 1 + r.nextInt(4));
      Arrays.fill(k, prefix.length, prefix.length + 16, (byte) 0x7f);
      for (int i = prefix.length + 16; i < k.length; i++) {
        k[i] = (byte) r.nextInt(3);
      }
      return k;
    }
    if (kind == 5) {
      return new byte[0];
    }
    byte[] tail = randomBytes(r, r.nextInt(12));
    byte[] k = Arrays.copyOf(prefix, prefix.length + tail.length);
    System.arraycopy(tail, 0, k, prefix.length, tail.length);
    return k;
  }

  /** Bytes from a small alphabet, high bytes among them, so keys collide and compare unsigned. */
  private static byte[] randomBytes(Random r, int n) {
    byte[] b = new byte[n];
    for (int i = 0; i < n; i++) {
      b[i] = (byte) (r.nextInt(4) == 0 ? 0xF0 + r.nextInt(16) : r.nextInt(4));
    }
    return b;
  }

  private static String render(Batch.Op op) {
    HexFormat hex = HexFormat.of();
    return hex.formatHex(op.key()) + (op.isDelete() ? " deleted" : "=" + hex.formatHex(op.value()));
  }
}
