package io.p2kv;

import java.util.Arrays;
import java.util.Objects;

/**
 * Thread-safe once published (the store never touches the arrays again): one key and its value, as
 * returned by the ordered reads ({@link P2kv#scan}, {@link P2kv#range}, {@link KvIterator}). The
 * arrays are new and belong to the caller. Equality, hash code and {@code toString} use the arrays'
 * contents.
 *
 * @param key the key
 * @param value the value
 */
public record KeyValue(byte[] key, byte[] value) {
  /**
   * Creates a pair.
   *
   * @param key the key, not null
   * @param value the value, not null
   */
  public KeyValue {
    Objects.requireNonNull(key, "key is null");
    Objects.requireNonNull(value, "value is null");
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyValue other && Arrays.equals(key, other.key) && Arrays.equals(value, other.value);
  }

  @Override
  public int hashCode() {
    return 31 * Arrays.hashCode(key) + Arrays.hashCode(value);
  }

  @Override
  public String toString() {
    return "KeyValue[key=" + hex(key) + ", value=" + value.length + " bytes]";
  }

  private static String hex(byte[] bytes) {
    StringBuilder sb = new StringBuilder(bytes.length * 2);
    for (int i = 0; i < Math.min(bytes.length, 64); i++) {
      sb.append(Character.forDigit((bytes[i] >> 4) & 0xF, 16)).append(Character.forDigit(bytes[i] & 0xF, 16));
    }
    return bytes.length > 64 ? sb + "..." : sb.toString();
  }
}
