package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.params.provider.Arguments;

/**
 * What the model tests of range deletes and bulk loads share: their store layouts (hash
 * partitioning with 1 and 4 shards, range partitioning with 4, each on both read paths, value
 * cache on), short keys made of bytes around the range splits and the ends, and the check of a
 * whole-range read against the model.
 */
final class ModelLayouts {
  /** Bytes keys are made of: around the split keys of the range-partitioned stores, and the ends. */
  private static final byte[] ALPHABET = {0x00, 0x01, 0x3F, 0x40, 0x41, 0x7F, (byte) 0x80, (byte) 0xBF, (byte) 0xC0, (byte) 0xFE, (byte) 0xFF};

  private static final List<byte[]> SPLITS = List.of(new byte[] {0x40}, new byte[] {(byte) 0x80}, new byte[] {(byte) 0xC0});

  private ModelLayouts() {}

  /** A store layout for a model test. */
  record Layout(String name, int shards, boolean ranged, ReadPath readPath) {
    P2kv.Builder builder() {
      P2kv.Builder b = P2kv.builder().readPath(readPath).cacheBytes(1 << 20).memoryBudgetBytes(64L << 20);
      return ranged ? b.rangePartitioning(SPLITS) : b.shards(shards);
    }

    @Override
    public String toString() {
      return name + " reads=" + readPath;
    }
  }

  /** Every layout, as arguments of a parameterized test. */
  static List<Arguments> layouts() {
    List<Arguments> out = new ArrayList<>();
    for (ReadPath path : ReadPath.values()) {
      out.add(Arguments.of(new Layout("hash, 1 shard", 1, false, path)));
      out.add(Arguments.of(new Layout("hash, 4 shards", 4, false, path)));
      out.add(Arguments.of(new Layout("range, 4 shards", 4, true, path)));
    }
    return out;
  }

  /** A key of 0 to 3 bytes from {@link #ALPHABET}. */
  static byte[] randomKey(Random rnd) {
    byte[] k = new byte[rnd.nextInt(4)];
    for (int i = 0; i < k.length; i++) {
      k[i] = ALPHABET[rnd.nextInt(ALPHABET.length)];
    }
    return k;
  }

  /** The plain writes the model tests mix with the operation they test. */
  enum Write {
    /** A put of the key with a random 16-byte value. */
    PUT,
    /** A delete of the key. */
    DELETE,
    /** An atomic batch of puts of 3 random keys (the key is not used). */
    BATCH
  }

  /** Applies {@code write} of {@code key} to the store and the model. */
  static void apply(Write write, byte[] key, Random rnd, P2kv store, TreeMap<byte[], byte[]> model) {
    switch (write) {
      case PUT -> {
        byte[] v = Keys.randomValue(rnd, 16);
        store.put(key, v);
        model.put(key, v);
      }
      case DELETE -> {
        store.delete(key);
        model.remove(key);
      }
      case BATCH -> {
        Batch batch = new Batch();
        for (int i = 0; i < 3; i++) {
          byte[] k = randomKey(rnd);
          byte[] v = Keys.randomValue(rnd, 16);
          batch.put(k, v);
          model.put(k, v);
        }
        store.write(batch);
      }
    }
  }

  /** Checks a read of every pair, in key order, against the model. */
  static void assertMatches(TreeMap<byte[], byte[]> model, List<KeyValue> all, String when) {
    assertEquals(model.size(), all.size(), when + ": keys");
    int i = 0;
    for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
      assertArrayEquals(e.getKey(), all.get(i).key(), when + ": key " + i);
      assertArrayEquals(e.getValue(), all.get(i).value(), when + ": value " + i);
      i++;
    }
  }
}
