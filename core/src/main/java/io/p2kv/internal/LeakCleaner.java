package io.p2kv.internal;

import java.lang.ref.Cleaner;

/**
 * The one {@link Cleaner} of the JVM that reclaims native resources whose owner the application
 * dropped without closing it (today: iterators, see {@link StoreIterator}). Its thread, {@code
 * p2kv-cleaner}, is a daemon that exists once, whatever the number of stores.
 *
 * <p>A cleaning action runs on that thread after its watched object became phantom reachable, so
 * it must not reference the watched object (it would never become unreachable), must not block
 * for long (it delays every other action), and must not throw: the Cleaner ignores what an action
 * throws, so actions log their own failures.
 */
final class LeakCleaner {
  private static final Cleaner CLEANER =
      Cleaner.create(
          r -> {
            Thread t = new Thread(r, "p2kv-cleaner");
            t.setDaemon(true);
            return t;
          });

  private LeakCleaner() {}

  /**
   * Runs {@code action} once {@code watched} becomes phantom reachable, unless the returned
   * cleanable's {@link Cleaner.Cleanable#clean()} ran it first.
   *
   * @param watched the object the application holds
   * @param action what to free; must not reference {@code watched}
   * @return the registration
   */
  static Cleaner.Cleanable register(Object watched, Runnable action) {
    return CLEANER.register(watched, action);
  }
}
