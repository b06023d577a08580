package io.p2kv;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** Virtual-thread executors for tests, found by reflection (the library and its tests target Java 17). */
public final class VirtualExecutors {
  private VirtualExecutors() {}

  /**
   * A new virtual-thread-per-task executor; on a JDK before 21 the calling test is skipped.
   *
   * @return the executor (the caller shuts it down)
   */
  public static ExecutorService newOrSkip() {
    try {
      return (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor").invoke(null);
    } catch (NoSuchMethodException e) {
      assumeTrue(false, "virtual threads need JDK 21+, this is " + Runtime.version());
      throw new AssertionError("unreachable");
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException("cannot create a virtual-thread executor", e);
    }
  }
}
