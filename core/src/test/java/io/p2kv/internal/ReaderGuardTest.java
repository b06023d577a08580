package io.p2kv.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The guard close() relies on: never idle while any thread is inside. */
class ReaderGuardTest {
  @Test
  void shouldNeverLookIdleWhileAThreadIsInsideWhateverOthersDo() throws Exception {
    ReaderGuard guard = new ReaderGuard();
    CountDownLatch inside = new CountDownLatch(1);
    CountDownLatch release = new CountDownLatch(1);
    Thread holder = new Thread(() -> {
      guard.enter();
      inside.countDown();
      try {
        release.await();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      guard.exit();
    });
    holder.start();
    inside.await();
    AtomicBoolean stop = new AtomicBoolean();
    List<Thread> churn = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      Thread c = new Thread(() -> {
        while (!stop.get()) {
          guard.enter();
          guard.countReads(1);
          guard.exit();
        }
      });
      churn.add(c);
      c.start();
    }
    for (int i = 0; i < 200_000; i++) {
      assertFalse(guard.idle(), "idle while a thread is inside (check " + i + ")");
    }
    stop.set(true);
    for (Thread c : churn) {
      c.join();
    }
    assertFalse(guard.idle());
    release.countDown();
    holder.join();
    assertTrue(guard.idle());
  }

  @Test
  void shouldCountReadsAcrossThreads() throws Exception {
    ReaderGuard guard = new ReaderGuard();
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 6; t++) {
      Thread c = new Thread(() -> {
        for (int i = 0; i < 1000; i++) {
          guard.enter();
          guard.countReads(2);
          guard.exit();
        }
      });
      threads.add(c);
      c.start();
    }
    for (Thread c : threads) {
      c.join();
    }
    assertEquals(12_000, guard.reads());
    assertTrue(guard.idle());
  }

  @Test
  void shouldCountOnlyReadsThatWereServed() throws Exception {
    shouldCountOnlyReadsThatWereServed(new ReaderGuard());
  }

  @Test
  void shouldKeepExactCountsWhenSlotsSpill() throws Exception {
    // A slot spills every 5 reads here (2^38 in a store): counts stay exact, the inside count intact.
    shouldCountOnlyReadsThatWereServed(new ReaderGuard(5));
  }

  private static void shouldCountOnlyReadsThatWereServed(ReaderGuard guard) throws Exception {
    List<Thread> threads = new ArrayList<>();
    for (int t = 0; t < 6; t++) {
      int reads = t + 1;
      Thread c = new Thread(() -> {
        for (int i = 0; i < 2000; i++) {
          guard.enterAndCount(reads);
          if (i % 4 == 3) {
            guard.exitUncounted(reads); // a failed read: not counted
          } else {
            guard.exit();
          }
        }
      });
      threads.add(c);
      c.start();
    }
    guard.enter();
    for (Thread c : threads) {
      c.join();
    }
    assertFalse(guard.idle(), "this thread is still inside");
    guard.exit();
    assertTrue(guard.idle());
    // Served: 1500 of each thread's 2000 reads, times its reads per call (1 + 2 + ... + 6 = 21).
    assertEquals(1500L * 21, guard.reads());
  }
}
