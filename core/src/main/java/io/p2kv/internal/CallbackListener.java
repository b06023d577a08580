package io.p2kv.internal;

import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A user's completion callback as a request listener. The callback runs on the completing thread
 * (the shard's worker); what it throws is logged and ignored, so it cannot hurt the worker.
 */
final class CallbackListener implements Request.Listener {
  private static final Logger LOG = LoggerFactory.getLogger(CallbackListener.class);

  private final BiConsumer<Object, ? super Throwable> callback;

  @SuppressWarnings("unchecked")
  CallbackListener(BiConsumer<?, ? super Throwable> callback) {
    this.callback = (BiConsumer<Object, ? super Throwable>) callback;
  }

  @Override
  public void onComplete(Request request, Object result, Throwable error) {
    call(callback, result, error);
  }

  /**
   * Calls a user's callback on this thread (a request that completed at once, or could not be
   * queued); what it throws is logged and ignored, as on the worker.
   *
   * @param callback the callback
   * @param result the result, or null
   * @param error the failure, or null
   * @param <T> the result type
   */
  static <T> void call(BiConsumer<? super T, ? super Throwable> callback, T result, Throwable error) {
    try {
      callback.accept(result, error);
    } catch (Throwable callbackError) {
      LOG.warn("p2kv callback threw; ignored", callbackError);
    }
  }
}
