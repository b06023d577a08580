package io.p2kv;

import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;

/** Test keys and values, and the unsigned byte order that is the model's order. */
final class Keys {
  private Keys() {}

  static final Comparator<byte[]> UNSIGNED = Arrays::compareUnsigned;

  /** A random binary key of 0 to 24 bytes, rich in 0x00 and 0xFF. */
  static byte[] randomKey(Random rnd) {
    byte[] k = new byte[rnd.nextInt(25)];
    for (int i = 0; i < k.length; i++) {
      int c = rnd.nextInt(4);
      k[i] = c == 0 ? 0 : c == 1 ? (byte) 0xFF : (byte) rnd.nextInt(256);
    }
    return k;
  }

  static byte[] randomValue(Random rnd, int maxLen) {
    byte[] v = new byte[rnd.nextInt(maxLen + 1)];
    rnd.nextBytes(v);
    return v;
  }

  static byte[] key(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }
}
