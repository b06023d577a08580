package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The model of the coherence tests: keys that each have one writer thread, which takes its key
 * through versions 1, 2, 3, ... (every fifth a delete), recording a version as started before it
 * issues the write and as acknowledged once the write returned. A read that began after version
 * {@code a} was acknowledged must return a version in {@code a..started} (as of the read's return),
 * and may return "absent" only if one of those versions is a delete. A value is 12 bytes: the key's
 * number and the version.
 */
final class VersionedKeys {
  final AtomicLongArray started;
  final AtomicLongArray acked;
  private final String prefix;

  VersionedKeys(String prefix, int keys) {
    this.prefix = prefix;
    this.started = new AtomicLongArray(keys);
    this.acked = new AtomicLongArray(keys);
  }

  byte[] key(int k) {
    return (prefix + k).getBytes(StandardCharsets.UTF_8);
  }

  static boolean isDelete(long version) {
    return version % 5 == 0;
  }

  static byte[] value(int k, long version) {
    return ByteBuffer.allocate(12).putInt(k).putLong(version).array();
  }

  /** Checks what a read of key {@code k} returned; {@code ackedBefore}: acked when it began. */
  void check(int k, long ackedBefore, byte[] value) {
    long startedAfter = started.get(k);
    if (value == null) {
      boolean deleteAllowed = ackedBefore == 0;
      for (long v = Math.max(ackedBefore, 1); v <= startedAfter && !deleteAllowed; v++) {
        deleteAllowed = isDelete(v);
      }
      assertTrue(deleteAllowed, "key " + k + " read absent, but versions " + ackedBefore + ".." + startedAfter + " hold no delete");
      return;
    }
    ByteBuffer b = ByteBuffer.wrap(value);
    assertEquals(12, value.length);
    assertEquals(k, b.getInt(), "the value of another key (or one scribbled over)");
    long version = b.getLong();
    assertTrue(version >= ackedBefore, "stale read of key " + k + ": version " + version + " after " + ackedBefore + " was acknowledged");
    assertTrue(version <= startedAfter && !isDelete(version), "key " + k + " read version " + version + ", never written as a value");
  }
}
