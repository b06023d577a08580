package io.p2kv.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Whether a thread is virtual, on any JDK: the library is compiled for Java 17, where {@code
 * Thread.isVirtual()} does not exist, so it is looked up once by method handle (JDK 21+), and every
 * thread counts as a platform thread where it is absent. A static final handle, so the JIT inlines
 * the call.
 */
final class VirtualThreads {
  /** {@code Thread.isVirtual()}, or null before JDK 21. */
  private static final MethodHandle IS_VIRTUAL = lookup();

  private VirtualThreads() {}

  private static MethodHandle lookup() {
    try {
      return MethodHandles.publicLookup()
          .findVirtual(Thread.class, "isVirtual", MethodType.methodType(boolean.class));
    } catch (NoSuchMethodException | IllegalAccessException e) {
      return null; // JDK 17-20: no virtual threads (19 and 20 had them only as a preview)
    }
  }

  /**
   * Whether {@code thread} is a virtual thread.
   *
   * @param thread a thread
   * @return true for a virtual thread (JDK 21+); false for a platform thread or on an older JDK
   */
  static boolean isVirtual(Thread thread) {
    if (IS_VIRTUAL == null) {
      return false;
    }
    try {
      return (boolean) IS_VIRTUAL.invokeExact(thread);
    } catch (Throwable t) {
      throw new IllegalStateException("Thread.isVirtual() failed", t); // it throws nothing
    }
  }
}
