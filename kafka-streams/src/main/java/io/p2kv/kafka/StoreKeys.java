package io.p2kv.kafka;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.kafka.common.TopicPartition;

/**
 * Immutable, thread-safe: the key layout of one (store, partition) inside the shared p2kv store.
 *
 * <pre>
 * data key:    0x01 | nameLength (2 bytes) | store name (UTF-8) | partition (4 bytes) | user key
 * offset key:  0x00 | nameLength (2 bytes) | store name (UTF-8) | partition (4 bytes)
 *                   | changelog partition (4 bytes) | changelog topic (UTF-8)
 * status key:  0x02 | nameLength (2 bytes) | store name (UTF-8) | partition (4 bytes)
 * position key: 0x03 | nameLength (2 bytes) | store name (UTF-8) | partition (4 bytes)
 * </pre>
 *
 * The name is length-prefixed and the partition fixed-width, so no (store, partition) prefix is a
 * prefix of another, and each one's data is one contiguous key range in unsigned byte order that
 * sorts like the user keys. Offsets live in their own range, outside every data range.
 */
final class StoreKeys {
  private static final byte OFFSET_SPACE = 0x00;
  private static final byte DATA_SPACE = 0x01;
  private static final byte STATUS_SPACE = 0x02;
  private static final byte POSITION_SPACE = 0x03;

  private final byte[] dataPrefix;
  private final byte[] dataEnd;
  private final byte[] offsetPrefix;
  private final byte[] status;
  private final byte[] position;

  StoreKeys(String storeName, int partition) {
    byte[] name = storeName.getBytes(StandardCharsets.UTF_8);
    if (name.length > 0xFFFF) {
      throw new IllegalArgumentException("store name longer than 65535 UTF-8 bytes: " + storeName);
    }
    dataPrefix = prefix(DATA_SPACE, name, partition);
    offsetPrefix = prefix(OFFSET_SPACE, name, partition);
    dataEnd = successorOfPrefix(dataPrefix);
    status = prefix(STATUS_SPACE, name, partition);
    position = prefix(POSITION_SPACE, name, partition);
  }

  private static byte[] prefix(byte space, byte[] name, int partition) {
    return ByteBuffer.allocate(1 + 2 + name.length + 4)
        .put(space)
        .putShort((short) name.length)
        .put(name)
        .putInt(partition)
        .array();
  }

  /** The store key of a user key. */
  byte[] data(byte[] userKey) {
    return data(userKey, 0, userKey.length);
  }

  /** The store key of the user key {@code length} bytes long at {@code offset} in {@code bytes}. */
  byte[] data(byte[] bytes, int offset, int length) {
    byte[] r = Arrays.copyOf(dataPrefix, dataPrefix.length + length);
    System.arraycopy(bytes, offset, r, dataPrefix.length, length);
    return r;
  }

  /** The user key of a store key from this range. */
  byte[] userKey(byte[] storeKey) {
    return Arrays.copyOfRange(storeKey, dataPrefix.length, storeKey.length);
  }

  /** The first store key of this (store, partition). */
  byte[] dataStart() {
    return dataPrefix;
  }

  /** The first store key after this (store, partition). */
  byte[] dataEnd() {
    return dataEnd;
  }

  /** The store key just after the user key {@code inclusiveUserKey}: the exclusive bound of a range ending at it. */
  byte[] dataAfter(byte[] inclusiveUserKey) {
    // the key followed by 0x00 is its immediate successor
    byte[] key = data(inclusiveUserKey);
    return Arrays.copyOf(key, key.length + 1);
  }

  /** The exclusive end of the user keys starting with {@code userPrefix}, as a store key. */
  byte[] dataPrefixEnd(byte[] userPrefix) {
    byte[] end = successorOfPrefix(userPrefix);
    return end == null ? dataEnd : data(end);
  }

  /** The key that holds the committed offset of a changelog partition of this (store, partition). */
  byte[] offset(TopicPartition changelog) {
    byte[] topic = changelog.topic().getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(offsetPrefix.length + 4 + topic.length)
        .put(offsetPrefix)
        .putInt(changelog.partition())
        .put(topic)
        .array();
  }

  /** The key of the open/closed status of this (store, partition), for exactly-once. */
  byte[] status() {
    return status;
  }

  /** The key of the IQv2 position of this (store, partition), written with its offsets. */
  byte[] position() {
    return position;
  }

  byte[] offsetStart() {
    return offsetPrefix;
  }

  byte[] offsetEnd() {
    return successorOfPrefix(offsetPrefix);
  }

  /**
   * The smallest key greater than every key starting with {@code prefix}, or null if there is none
   * (the prefix is empty or all 0xFF).
   */
  static byte[] successorOfPrefix(byte[] prefix) {
    for (int i = prefix.length - 1; i >= 0; i--) {
      if (prefix[i] != (byte) 0xFF) {
        byte[] s = Arrays.copyOf(prefix, i + 1);
        s[i]++;
        return s;
      }
    }
    return null;
  }
}
