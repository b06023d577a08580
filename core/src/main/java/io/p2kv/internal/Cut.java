package io.p2kv.internal;

import io.p2kv.internal.engine.Engine;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.ObjIntConsumer;

/**
 * A consistent cut across all shards: a barrier every shard's worker reaches in queue order, after
 * which each worker runs an action on its own engine (take a snapshot, write a checkpoint) before
 * it executes anything queued behind the barrier.
 *
 * <h2>The guarantee</h2>
 * The cut is the state of every shard at one instant, the instant the last worker arrives: every
 * worker is then stopped at the barrier, having applied exactly the requests queued before it and
 * none after. So
 *
 * <ul>
 *   <li>a write that completed before the cut was requested is in it (it was applied before its
 *       shard's barrier was even queued);
 *   <li>if a write W2 was issued after a write W1 completed, and W2 is in the cut, so is W1: W2 was
 *       applied before the instant, W1 before W2 was issued;
 *   <li>every cross-shard batch is in the cut entirely or not at all: the barrier parts are queued
 *       under the same lock as cross-shard parts ({@link CrossShardCoordinator}), so each batch's
 *       parts are ahead of the barrier on every shard or behind it on every shard. A worker takes
 *       the barrier only after it has finished the part ahead of it (committed: undo record
 *       dropped; aborted: rolled back), so batches ahead are complete everywhere and batches
 *       behind have not started anywhere.
 * </ul>
 *
 * Enqueueing a marker on each shard one after the other, without a barrier, would not do: a whole
 * write could complete on a shard whose marker was already passed while another shard had not
 * reached its own.
 *
 * <h2>Protocol</h2>
 * <ol>
 *   <li>The caller enqueues one {@link Request.CutPart} per shard, under the cross-shard lock.
 *   <li>Each worker, on taking its part, {@link #arrive arrives} and then waits like a worker
 *       holding a prepared cross-shard part: {@code doWork} returns 0 and takes nothing from the
 *       queue; the last arrival wakes all of them through their {@link WorkerSignal}s.
 *   <li>Once all have arrived, each worker runs the action on its engine and completes its part,
 *       then goes on with its queue. Workers need not wait for each other's actions: a worker that
 *       resumes early can only apply requests queued behind its barrier, and the workers still
 *       running their actions have applied nothing since the instant.
 *   <li>The last part to complete completes the cut with every shard's result, or, if any part
 *       failed (queue full in fail-fast mode, the store closed or failed, an engine error),
 *       discards the results that exist and fails with the first cause. A failure before all
 *       arrived cancels the barrier, which releases the workers waiting at it.
 * </ol>
 *
 * Waiting cannot deadlock: everything queued ahead of a barrier, cross-shard parts included, only
 * needs workers that have not yet reached their barrier (p2KVS section 4.5's argument, with the
 * barrier as one more batch in GSN order).
 *
 * <h2>Writer stall</h2>
 * A shard's writers wait from the moment its worker arrives until it has run its action: the time
 * the other workers need to drain what was queued ahead of their barriers, plus the action. {@link
 * #heldNanos()} measures the longest such wait of a cut, from the first arrival until the last part
 * completed ({@link Cuts} counts it in {@link io.p2kv.CutStats}).
 *
 * @param <T> what the action returns per shard
 */
final class Cut<T> implements Request.Listener {
  /** What each worker runs on its engine once every worker has arrived. */
  @FunctionalInterface
  interface Action<T> {
    /**
     * Runs in the shard's worker role (its worker thread, or a caller holding the role).
     *
     * @param shard the shard index
     * @param engine its engine
     * @return the shard's result
     */
    T atCut(int shard, Engine engine);
  }

  private final int parts;
  private final Action<T> action;
  private final ObjIntConsumer<T> discard;
  private final AtomicInteger arrived = new AtomicInteger();
  private final AtomicReferenceArray<WorkerSignal> waiting;
  private final AtomicReference<Throwable> cancelled = new AtomicReference<>();
  private volatile boolean released;
  private final AtomicReferenceArray<Object> results;
  private final AtomicInteger completed = new AtomicInteger();
  private final CompletableFuture<List<T>> done = new CompletableFuture<>();
  private volatile long firstArrivalNanos;
  private volatile long heldNanos;

  /**
   * A cut over {@code parts} shards.
   *
   * @param parts the number of shards
   * @param action what each worker runs at the cut
   * @param discard frees one shard's result (given with the shard) when the cut fails after that
   *     shard's action ran; on whichever thread completes the cut last
   */
  Cut(int parts, Action<T> action, ObjIntConsumer<T> discard) {
    this.parts = parts;
    this.action = action;
    this.discard = discard;
    this.waiting = new AtomicReferenceArray<>(parts);
    this.results = new AtomicReferenceArray<>(parts);
  }

  /** The parts to enqueue, one per shard, shard i's at index i. */
  Request.CutPart[] parts() {
    Request.CutPart[] out = new Request.CutPart[parts];
    for (int i = 0; i < parts; i++) {
      out[i] = new Request.CutPart(this, i);
    }
    return out;
  }

  // ---------------------------------------------------------------- the worker's side

  /**
   * A worker took its part: it waits from now on. The signal is published before the count, so the
   * last arrival sees every waiting worker's signal.
   */
  void arrive(int part, WorkerSignal signal) {
    waiting.set(part, signal);
    int n = arrived.incrementAndGet();
    if (n == 1) {
      firstArrivalNanos = System.nanoTime();
    }
    if (n == parts) {
      release();
    }
  }

  /** Whether waiting workers may go on: every worker arrived, or the cut was cancelled. */
  boolean isReleased() {
    return released;
  }

  /**
   * Why the cut was cancelled, or null: a worker released by a cancelled cut fails its part with
   * this instead of running the action.
   */
  Throwable cancelCause() {
    return cancelled.get();
  }

  /** Runs the action for one shard, on its worker, after every worker arrived. */
  T runAction(int shard, Engine engine) {
    return action.atCut(shard, engine);
  }

  private void release() {
    released = true;
    for (int i = 0; i < parts; i++) {
      WorkerSignal s = waiting.get(i);
      if (s != null) {
        s.signal();
      }
    }
  }

  // ---------------------------------------------------------------- completion

  /** A part completed (its action ran) or failed (on any path: never enqueued, failed, cancelled). */
  @Override
  public void onComplete(Request part, Object result, Throwable error) {
    int i = ((Request.CutPart) part).part;
    if (error != null) {
      if (cancelled.compareAndSet(null, error)) {
        release();
      }
    } else {
      results.set(i, result);
    }
    if (completed.incrementAndGet() == parts) {
      // Every part is done, so every worker that arrived has gone on; the first one's arrival
      // (written before its part completed) is visible through the count.
      if (arrived.get() > 0) {
        heldNanos = Math.max(1, System.nanoTime() - firstArrivalNanos);
      }
      finish();
    }
  }

  @SuppressWarnings("unchecked")
  private void finish() {
    Throwable cause = cancelled.get();
    List<T> out = new ArrayList<>(parts);
    for (int i = 0; i < parts; i++) {
      out.add((T) results.get(i));
    }
    if (cause == null) {
      done.complete(out);
      return;
    }
    for (int i = 0; i < parts; i++) {
      T r = out.get(i);
      if (r != null) {
        try {
          discard.accept(r, i);
        } catch (RuntimeException e) {
          cause.addSuppressed(e);
        }
      }
    }
    done.completeExceptionally(cause);
  }

  /**
   * Waits for the cut (not on a worker thread).
   *
   * @return every shard's result, shard i's at index i
   */
  List<T> await() {
    boolean interrupted = false;
    try {
      while (true) {
        try {
          return done.get();
        } catch (InterruptedException e) {
          interrupted = true;
        } catch (ExecutionException e) {
          throw Errors.rethrowForCaller(e.getCause());
        }
      }
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /**
   * How long the first worker to arrive waited until the last part completed (its worker went on):
   * the longest time any shard's writers were held by this cut. Set before the cut completes; 0 if
   * no worker arrived.
   *
   * @return nanoseconds
   */
  long heldNanos() {
    return heldNanos;
  }
}
