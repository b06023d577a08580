package io.p2kv.internal;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link VirtualThreads} on the JDK the tests run on (the virtual case needs JDK 21+). */
class VirtualThreadsTest {
  @Test
  void shouldTellAPlatformThreadFromAVirtualOne() throws Exception {
    assertFalse(VirtualThreads.isVirtual(Thread.currentThread()), "a platform thread");
    ExecutorService vexec = io.p2kv.VirtualExecutors.newOrSkip();
    try {
      assertTrue(vexec.submit(() -> VirtualThreads.isVirtual(Thread.currentThread())).get(60, TimeUnit.SECONDS), "a virtual thread");
    } finally {
      vexec.shutdown();
    }
  }
}
