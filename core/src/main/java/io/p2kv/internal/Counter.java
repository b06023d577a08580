package io.p2kv.internal;

import java.util.function.UnaryOperator;

/**
 * The counter encoding of {@code P2kv.increment}: an 8-byte big-endian two's-complement signed
 * long, as {@link java.nio.ByteBuffer#putLong} writes it; an absent key counts as 0.
 */
final class Counter {
  /** Length of an encoded counter. */
  static final int BYTES = Long.BYTES;

  private Counter() {}

  /**
   * The update function that adds {@code delta} to a counter.
   *
   * @param delta the amount, negative to decrement
   * @return the function; it throws {@link IllegalStateException} for a value that is not 8 bytes
   *     and {@link ArithmeticException} on overflow
   */
  static UnaryOperator<byte[]> add(long delta) {
    return current -> encode(Math.addExact(current == null ? 0 : decodeStored(current), delta));
  }

  private static long decodeStored(byte[] value) {
    if (value.length != BYTES) {
      throw new IllegalStateException(
          "the key holds a value of " + value.length + " bytes, not a counter (a counter is " + BYTES
              + " bytes: a big-endian signed long)");
    }
    return decode(value);
  }

  static byte[] encode(long v) {
    byte[] b = new byte[BYTES];
    for (int i = BYTES - 1; i >= 0; i--) {
      b[i] = (byte) v;
      v >>>= 8;
    }
    return b;
  }

  static long decode(byte[] b) {
    long v = 0;
    for (int i = 0; i < BYTES; i++) {
      v = (v << 8) | (b[i] & 0xFF);
    }
    return v;
  }
}
