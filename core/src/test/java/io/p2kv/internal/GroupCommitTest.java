package io.p2kv.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * {@link GroupCommit}'s bound on a durable run's wait: the mean durable write time, not widened by
 * one outlier, and never above {@link GroupCommit#MAX_WAIT_NANOS}. The worker's use of it is in
 * {@code ShardWorkerTest}.
 */
class GroupCommitTest {
  private static final long FSYNC = 200_000; // 200 us

  private static GroupCommit steady(long writeNanos, int writes) {
    GroupCommit g = new GroupCommit();
    for (int i = 0; i < writes; i++) {
      g.wrote(16, writeNanos);
    }
    return g;
  }

  @Test
  void shouldWaitTheMeanDurableWriteTime() {
    assertEquals(0, new GroupCommit().maxWaitNanos(), "no write yet: no wait");
    assertEquals(FSYNC, steady(FSYNC, 50).maxWaitNanos());
  }

  @Test
  void shouldLetOneVerySlowWriteRaiseTheWaitByAtMostAnEighth() {
    GroupCommit g = steady(FSYNC, 50);
    g.wrote(16, 1_000_000_000L); // one 1 s stall
    long after = g.maxWaitNanos();
    assertTrue(after <= FSYNC + FSYNC / 8, "wait after one 1 s write: " + after + " ns, steady " + FSYNC);
    for (int i = 0; i < 50; i++) {
      g.wrote(16, FSYNC);
    }
    long settled = g.maxWaitNanos();
    assertTrue(Math.abs(settled - FSYNC) <= FSYNC / 100, "back to the steady wait: " + settled);
  }

  @Test
  void shouldFollowADeviceThatGotSlowerUpToTheCap() {
    GroupCommit g = steady(FSYNC, 50);
    for (int i = 0; i < 40; i++) {
      g.wrote(16, 600_000); // a slower device, below the cap: followed within 40 writes
    }
    assertTrue(Math.abs(g.maxWaitNanos() - 600_000) <= 6_000, "followed to 600 us: " + g.maxWaitNanos());
    for (int i = 0; i < 100; i++) {
      g.wrote(16, 5_000_000); // 5 ms per fsync: the wait stops at the cap
      assertTrue(g.maxWaitNanos() <= GroupCommit.MAX_WAIT_NANOS, "wait " + g.maxWaitNanos());
    }
    assertEquals(GroupCommit.MAX_WAIT_NANOS, g.maxWaitNanos());
  }

  @Test
  void shouldNeverWaitLongerThanTheCapAfterASlowFirstWrite() {
    GroupCommit g = new GroupCommit();
    g.wrote(2, 1_000_000_000L);
    assertEquals(GroupCommit.MAX_WAIT_NANOS, g.maxWaitNanos());
  }

  @Test
  void shouldTargetTheLargerOfTheLastTwoRuns() {
    GroupCommit g = new GroupCommit();
    assertEquals(0, g.target());
    g.wrote(16, FSYNC);
    g.wrote(3, FSYNC);
    assertEquals(16, g.target());
    g.wrote(1, FSYNC);
    assertEquals(3, g.target());
    g.wrote(1, FSYNC);
    assertEquals(1, g.target(), "a lone caller: a run of 1 waits for nothing more");
  }
}
