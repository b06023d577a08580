package io.p2kv.internal.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.LatencyStats;
import io.p2kv.OperationType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The striped HdrHistogram recorder, fed with known latencies instead of a clock. */
class LatencyRecorderTest {
  private static LatencyStats of(LatencyRecorder r, OperationType type) {
    return r.snapshot().get(type.ordinal());
  }

  @Test
  void shouldReportPercentilesWithinOnePercent() {
    LatencyRecorder r = new LatencyRecorder(2);
    for (long micros = 1; micros <= 1000; micros++) {
      r.recordAt(OperationType.GET, 0, micros * 1000);
    }
    LatencyStats get = of(r, OperationType.GET);
    assertEquals(1000, get.count());
    assertEquals(500_000, get.p50Nanos(), 5_000);
    assertEquals(990_000, get.p99Nanos(), 9_900);
    assertEquals(1_000_000, get.maxNanos(), 10_000);
    assertEquals(500_500, get.meanNanos(), 5_005);
    assertEquals(0, of(r, OperationType.PUT).count(), "other types stay empty");
  }

  @Test
  void shouldCountEveryRecordFromManyThreads() throws InterruptedException {
    LatencyRecorder r = new LatencyRecorder(4);
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      Thread thread = new Thread(() -> {
        for (int i = 0; i < 10_000; i++) {
          r.recordAt(OperationType.PUT, 0, 1000 + i);
        }
      });
      threads.add(thread);
      thread.start();
    }
    for (Thread t : threads) {
      t.join();
    }
    assertEquals(80_000, of(r, OperationType.PUT).count());
  }

  @Test
  void shouldClampLatenciesAboveOneMinuteAndBelowZero() {
    LatencyRecorder r = new LatencyRecorder(1);
    r.recordAt(OperationType.WRITE, 0, TimeUnit.HOURS.toNanos(1));
    r.recordAt(OperationType.WRITE, 10, 5);
    LatencyStats write = of(r, OperationType.WRITE);
    assertEquals(2, write.count());
    assertTrue(write.maxNanos() >= LatencyRecorder.MAX_TRACKED_NANOS
        && write.maxNanos() <= LatencyRecorder.MAX_TRACKED_NANOS * 1.01, write.toString());
  }

  @Test
  void shouldNameMBeanAttributesInPascalCase() {
    assertEquals("MultiGet", JmxRegistration.pascal("MULTI_GET"));
    assertEquals("MaxWriteBatch", JmxRegistration.pascal("maxWriteBatch"));
    assertEquals("P999Nanos", JmxRegistration.pascal("p999Nanos"));
  }
}
