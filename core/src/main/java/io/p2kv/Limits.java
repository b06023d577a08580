package io.p2kv;

/** Argument checks shared by the store and {@link Batch}; messages name the problem. */
final class Limits {
  private Limits() {}

  static void checkKey(byte[] key) {
    if (key == null) {
      throw new NullPointerException("key is null");
    }
    if (key.length > P2kv.MAX_KEY_BYTES) {
      throw new IllegalArgumentException(
          "key is " + key.length + " bytes; the maximum is " + P2kv.MAX_KEY_BYTES);
    }
  }

  /** The bounds of a range delete: both given, each a valid key, the start not after the end. */
  static void checkRange(byte[] fromInclusive, byte[] toExclusive) {
    if (fromInclusive == null || toExclusive == null) {
      throw new NullPointerException((fromInclusive == null ? "fromInclusive" : "toExclusive")
          + " is null (a range delete needs both bounds)");
    }
    if (fromInclusive.length > P2kv.MAX_KEY_BYTES || toExclusive.length > P2kv.MAX_KEY_BYTES) {
      throw new IllegalArgumentException("a range bound is " + Math.max(fromInclusive.length, toExclusive.length)
          + " bytes; the maximum is " + P2kv.MAX_KEY_BYTES);
    }
    if (java.util.Arrays.compareUnsigned(fromInclusive, toExclusive) > 0) {
      throw new IllegalArgumentException("fromInclusive " + java.util.HexFormat.of().formatHex(fromInclusive)
          + " is after toExclusive " + java.util.HexFormat.of().formatHex(toExclusive) + " (unsigned byte order)");
    }
  }

  /** A batch for {@link P2kv#write(Batch)}: at most {@link P2kv#MAX_BATCH_BYTES} of keys and values. */
  static void checkBatch(long payloadBytes) {
    if (payloadBytes > P2kv.MAX_BATCH_BYTES) {
      throw new IllegalArgumentException("batch holds " + payloadBytes + " bytes of keys and values; a write takes at most "
          + P2kv.MAX_BATCH_BYTES + " (256 MiB): split it, or bulk-load it with load or loadSorted");
    }
  }

  static void checkValue(byte[] value) {
    if (value == null) {
      throw new NullPointerException("value is null (use delete to remove a key)");
    }
    if (value.length > P2kv.MAX_VALUE_BYTES) {
      throw new IllegalArgumentException(
          "value is " + value.length + " bytes; the maximum is " + P2kv.MAX_VALUE_BYTES);
    }
  }
}
