package io.p2kv.internal;

/**
 * A sync caller's request as the jcstress tests see it: no listener, so {@link #finish} unparks
 * the waiting caller, exactly like a sync {@code Request}.
 */
final class SyncCompletion extends Completion {
  @Override
  boolean notifyListener(Object value, Throwable t) {
    return false;
  }

  @Override
  boolean isSync() {
    return true;
  }
}
