package io.p2kv.internal;

import static org.junit.jupiter.api.Assertions.assertSame;

import io.p2kv.Batch;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * {@link KeyOrder#sort} against Java's stable merge sort by unsigned key: keys with and
 * without a shared prefix, of lengths around the 8 compared bytes, with repeats (whose given order
 * must be kept: the load keeps the last write of a key).
 */
class KeyOrderTest {
  @Test
  void shouldOrderAsAStableSortByUnsignedKey() {
    Random rnd = new Random(42);
    for (int round = 0; round < 400; round++) {
      int n = 1 + rnd.nextInt(round < 200 ? 40 : 3000);
      byte[] prefix = new byte[rnd.nextInt(3) == 0 ? 0 : rnd.nextInt(50)];
      rnd.nextBytes(prefix);
      int alphabet = 1 + rnd.nextInt(rnd.nextBoolean() ? 3 : 256);
      Batch.Op[] ops = new Batch.Op[n];
      for (int i = 0; i < n; i++) {
        byte[] key = Arrays.copyOf(prefix, prefix.length + rnd.nextInt(14));
        for (int j = prefix.length; j < key.length; j++) {
          key[j] = (byte) (rnd.nextInt(alphabet) * (256 / alphabet) - (rnd.nextBoolean() ? 0 : 1));
        }
        ops[i] = new Batch.Op(key, new byte[] {(byte) i, (byte) (i >> 8)});
      }
      Batch.Op[] expected = ops.clone();
      Arrays.sort(expected, (a, b) -> Arrays.compareUnsigned(a.key(), b.key()));
      Batch.Op[] actual = KeyOrder.sort(ops.clone());
      for (int i = 0; i < n; i++) {
        String where = "round " + round + " (" + n + " keys): position " + i;
        assertSame(expected[i], actual[i], where);
      }
    }
  }
}
