package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
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

  /** The body of one writer or reader thread. */
  @FunctionalInterface
  interface Actor {
    /**
     * @param index the thread's number among its kind
     * @param random its own generator, seeded from the run's seed
     */
    void run(int index, Random random) throws Exception;
  }

  /**
   * Runs {@code writers} writer threads and {@code readers} reader threads at once and waits for
   * them all (5 minutes each at most), rethrowing the first failure. Writer {@code i} gets {@code
   * new Random(seed + i)}, reader {@code i} {@code new Random(seed + 100 + i)}, so a seed replays
   * the same operations.
   */
  static void runConcurrently(long seed, int writers, Actor writer, int readers, Actor reader) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(writers + readers);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        Random random = new Random(seed + w);
        int index = w;
        done.add(pool.submit(() -> { writer.run(index, random); return null; }));
      }
      for (int r = 0; r < readers; r++) {
        Random random = new Random(seed + 100 + r);
        int index = r;
        done.add(pool.submit(() -> { reader.run(index, random); return null; }));
      }
      for (Future<?> f : done) {
        f.get(5, TimeUnit.MINUTES);
      }
    } finally {
      pool.shutdownNow();
    }
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
