package io.p2kv.internal.separation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/** The worker-side write profile: value-size buckets, medium counts and the update ratio. */
class WriteProfileTest {
  private static byte[] key(long i) {
    return ByteBuffer.allocate(24).putLong(i).putLong(i * 31).putLong(~i).array();
  }

  private static WriteProfile.Window window(WriteProfile p, WriteProfile.Snapshot from) {
    return p.snapshot().minus(from);
  }

  @Test
  void shouldPutEverySizeInTheBucketWhoseRangeHoldsIt() {
    for (int size = 0; size < 200_000; size++) {
      int b = WriteProfile.bucket(size);
      assertTrue(WriteProfile.bucketFloor(b) <= size && size < WriteProfile.bucketFloor(b + 1), "size " + size);
    }
    assertEquals(WriteProfile.BUCKETS - 1, WriteProfile.bucket(Integer.MAX_VALUE));
  }

  @Test
  void shouldCountNoUpdatesForInsertsAndOneForEachOverwriteOfAnEarlierWindow() {
    WriteProfile p = new WriteProfile();
    WriteProfile.Snapshot start = p.snapshot();
    for (int i = 0; i < 1000; i++) {
      p.recordPut(key(i), 100);
    }
    p.publish();
    assertEquals(0, window(p, start).updateRatio(), "inserts only");

    WriteProfile.Snapshot second = p.snapshot();
    p.nextWindow(96, 1000);
    p.publish();
    for (int i = 0; i < 1000; i++) {
      p.recordPut(key(i), 100);
    }
    p.publish();
    assertEquals(1.0, window(p, second).updateRatio(), "every key written in an earlier window");
  }

  @Test
  void shouldNotCountRepeatedOverwritesWithinOneWindowAsGarbage() {
    WriteProfile p = new WriteProfile();
    for (int i = 0; i < 100; i++) {
      p.recordPut(key(i), 10);
    }
    p.nextWindow(96, 1000);
    p.publish();
    WriteProfile.Snapshot start = p.snapshot();
    // Each key ten times in this window: the first overwrite leaves garbage in a file, the nine
    // others overwrite the memtable.
    for (int round = 0; round < 10; round++) {
      for (int i = 0; i < 100; i++) {
        p.recordPut(key(i), 10);
      }
    }
    p.publish();
    assertEquals(0.1, window(p, start).updateRatio(), 1e-9);
  }

  @Test
  void shouldCountDeletesOfKnownKeysAsGarbage() {
    WriteProfile p = new WriteProfile();
    for (int i = 0; i < 100; i++) {
      p.recordPut(key(i), 10);
    }
    p.nextWindow(96, 1000);
    p.publish();
    WriteProfile.Snapshot start = p.snapshot();
    for (int i = 0; i < 100; i++) {
      p.recordDelete(key(i));
      p.recordDelete(key(1000 + i)); // never written: no garbage
    }
    p.publish();
    assertEquals(0.5, window(p, start).updateRatio(), 1e-9);
  }

  @Test
  void shouldEstimateTheUpdateRatioFromASampleWhenKeysFarOutnumberTheTable() {
    WriteProfile p = new WriteProfile();
    for (int i = 0; i < 400_000; i++) {
      p.recordPut(key(i), 10);
    }
    p.nextWindow(96, 1000);
    p.publish();
    WriteProfile.Snapshot start = p.snapshot();
    // 30 % overwrites of old keys, 70 % new keys.
    for (int i = 0; i < 100_000; i++) {
      p.recordPut(key(i % 10 < 3 ? i * 3L : 1_000_000 + i), 10);
    }
    p.publish();
    WriteProfile.Window w = window(p, start);
    assertTrue(w.sampledWrites() >= 500 && w.sampledWrites() < 100_000, "a sample, not every key: " + w.sampledWrites());
    assertEquals(0.3, w.updateRatio(), 0.05, "sampled update ratio");
  }

  @Test
  void shouldCountMediumValuesByTheThresholdsOfTheirWindow() {
    WriteProfile p = new WriteProfile();
    p.nextWindow(96, 1000);
    p.publish();
    WriteProfile.Snapshot start = p.snapshot();
    for (int size : new int[] {95, 96, 500, 999, 1000, 1004}) {
      p.recordPut(key(size), size);
    }
    p.publish();
    WriteProfile.Window w = window(p, start);
    assertEquals(3, w.mediumPuts());
    assertEquals(96 + 500 + 999, w.mediumBytes());
    assertEquals(24, w.meanKeyBytes(), 1e-9);
  }
}
