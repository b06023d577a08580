package io.p2kv.internal;

import java.util.concurrent.CompletableFuture;

/**
 * The future an async call returns, which is also its request's listener, so an async request
 * costs one future and no adapter.
 *
 * @param <T> the result type
 */
final class FutureListener<T> extends CompletableFuture<T> implements Request.Listener {
  @Override
  @SuppressWarnings("unchecked")
  public void onComplete(Request request, Object result, Throwable error) {
    if (error == null) {
      complete((T) result);
    } else {
      completeExceptionally(error);
    }
  }
}
