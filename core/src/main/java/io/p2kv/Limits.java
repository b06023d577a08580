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
