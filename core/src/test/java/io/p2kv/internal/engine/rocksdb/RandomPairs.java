package io.p2kv.internal.engine.rocksdb;

import io.p2kv.internal.engine.Engine;
import java.util.Arrays;
import java.util.Random;
import java.util.TreeMap;

/** Random pairs written to an engine, for the engine's tests. */
final class RandomPairs {
  private RandomPairs() {}

  /**
   * Puts {@code pairs} random pairs (keys of 8-31 bytes, values of 0-199 bytes) into {@code engine}.
   *
   * @return what was written, last write of each key, in unsigned key order: the model to check against
   */
  static TreeMap<byte[], byte[]> write(Engine engine, Random rnd, int pairs) {
    TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
    for (int i = 0; i < pairs; i++) {
      byte[] key = new byte[8 + rnd.nextInt(24)];
      rnd.nextBytes(key);
      byte[] value = new byte[rnd.nextInt(200)];
      rnd.nextBytes(value);
      engine.put(key, value);
      model.put(key, value);
    }
    return model;
  }
}
