package io.p2kv.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.IdleMode;
import io.p2kv.OperationType;
import io.p2kv.Pinning;
import io.p2kv.QueueFullPolicy;
import io.p2kv.StoreClosedException;
import io.p2kv.StoreFailedException;
import io.p2kv.VirtualExecutors;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The worker role handed between the worker thread and sync callers (flat combining; {@link
 * WorkerSignal}, {@link ShardWorker#runAsCaller}), stepped through explicit hand-offs: a real worker
 * thread whose park has no safety timeout (it stays parked until signalled), callers on threads of
 * their own, and an engine whose put of a gated key blocks until the test opens the gate, so a
 * caller is held inside its duty cycle for as long as the test needs. No sleeps: the test waits for
 * states (the worker announced sleep and is parked; a thread entered the engine). Timeouts only turn
 * a lost request into a failure instead of a hang.
 */
class WorkerRoleTest {
  private static final byte[] GATED = {1};
  private static final long TIMEOUT_S = 30;

  /** Records which thread made each engine call; the put of {@link #GATED} waits at the gate. */
  private static final class GatedEngine extends RecordingEngine {
    final List<String> threads = new CopyOnWriteArrayList<>();
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch gate = new CountDownLatch(1);
    volatile Error fatal;

    @Override
    public void put(byte[] key, byte[] value) {
      threads.add(Thread.currentThread().getName());
      if (key[0] == GATED[0]) {
        entered.countDown();
        await(gate);
        if (fatal != null) {
          throw fatal;
        }
      }
      super.put(key, value);
    }

    @Override
    public void write(io.p2kv.internal.engine.EngineBatch batch, io.p2kv.Durability durability) {
      threads.add(Thread.currentThread().getName());
      super.write(batch, durability);
    }
  }

  private final GatedEngine engine = new GatedEngine();
  private final StoreState state = new StoreState("test");
  private final WorkerSignal signal = new WorkerSignal(Long.MAX_VALUE);
  private final Shard shard =
      new Shard(
          0,
          engine,
          state,
          new ShardConfig(64, QueueFullPolicy.FAIL_FAST, IdleMode.PARK, 0, 32, 1 << 20),
          new CpuPinning(Pinning.NEVER, 1, 1, "test"),
          null,
          null,
          new StripeVersions(1),
          null,
          signal);
  private Thread workerThread;

  @AfterEach
  void stop() {
    engine.gate.countDown();
    if (!shard.worker.isTerminated()) {
      state.markClosed();
      shard.stopWorker();
    }
  }

  private static void await(CountDownLatch latch) {
    try {
      if (!latch.await(TIMEOUT_S, TimeUnit.SECONDS)) {
        throw new AssertionError("timed out");
      }
    } catch (InterruptedException e) {
      throw new AssertionError(e);
    }
  }

  /** Starts the worker thread and waits until it has announced sleep and parked. */
  private void startAndAwaitParked() {
    shard.start();
    awaitCondition(() -> findThread(shard.worker.roleName()) instanceof Shard.ShardThread);
    workerThread = findThread(shard.worker.roleName());
    awaitParked();
  }

  /** The live thread of that name, or null. */
  private static Thread findThread(String name) {
    for (Thread t : Thread.getAllStackTraces().keySet()) {
      if (t.getName().equals(name)) {
        return t;
      }
    }
    return null;
  }

  /** Waits until the worker announced sleep and is parked (no timeout on its park). */
  private void awaitParked() {
    awaitCondition(() -> signal.isSleeping() && workerThread.getState() == Thread.State.TIMED_WAITING);
  }

  private static void awaitCondition(java.util.function.BooleanSupplier condition) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() - deadline > 0) {
        throw new AssertionError("timed out waiting for a state");
      }
      Thread.yield();
    }
  }

  /** A sync call on a thread of its own, as {@code RequestDispatcher.call} makes it. */
  private CompletableFuture<Object> syncCall(String name, Request r, CountDownLatch submitted) {
    return onThread(name, () -> {
      shard.submitSync(r);
      if (submitted != null) {
        submitted.countDown();
      }
      r.await(0);
      return r.resultOrThrow();
    });
  }

  /**
   * Runs {@code body} on a new daemon thread of that name (if a request is lost, the failed test
   * leaves no thread behind).
   *
   * @return completes with what {@code body} returns, or exceptionally with what it throws
   */
  private static <T> CompletableFuture<T> onThread(String name, Callable<T> body) {
    CompletableFuture<T> done = new CompletableFuture<>();
    Thread t = new Thread(() -> {
      try {
        done.complete(body.call());
      } catch (Throwable e) {
        done.completeExceptionally(e);
      }
    }, name);
    t.setDaemon(true);
    t.start();
    return done;
  }

  private static Object join(CompletableFuture<?> f) throws Exception {
    try {
      return f.get(TIMEOUT_S, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("a request was lost: it never completed", e);
    }
  }

  @Test
  void shouldLetASyncCallerRunTheDutyCycleWhileTheWorkerSleepsAndLoseNoRequestQueuedMeanwhile() throws Exception {
    startAndAwaitParked();

    // 1. A sync caller enqueues while the worker is parked: it takes the role and executes its
    // own put on its own thread (held inside the engine by the gate).
    CompletableFuture<Object> a = syncCall("caller-a", new Request.Put(GATED, new byte[] {10}, null), null);
    await(engine.entered);
    assertEquals(List.of("caller-a"), engine.threads, "the caller executes its put itself");
    assertTrue(signal.isSleeping(), "the worker was not woken");

    // 2. An async request arrives while the caller holds the role: signal() leaves the worker
    // asleep, since the holder re-checks the queue when it lets go.
    FutureListener<Void> b = new FutureListener<>();
    shard.submit(new Request.Put(new byte[] {2}, new byte[] {20}, b));
    assertTrue(signal.isSleeping(), "no wake-up while a caller holds the role");

    // 3. The worker wakes anyway (as after its safety timeout): it cannot take the role, executes
    // nothing, and parks again without waiting for the queued request.
    signal.wakeUnconditionally();
    awaitParked(); // only the worker sets the flag again, after going round its loop
    assertEquals(List.of("caller-a"), engine.threads, "nothing executed beside the role's holder");
    assertFalse(b.isDone());

    // 4. Another sync caller enqueues while the role is held: it cannot take it and waits.
    CountDownLatch dSubmitted = new CountDownLatch(1);
    CompletableFuture<Object> d = syncCall("caller-d", new Request.Put(new byte[] {3}, new byte[] {30}, null), dSubmitted);
    await(dSubmitted);
    assertEquals(List.of("caller-a"), engine.threads);

    // 5. The first caller finishes its own request and lets the role go with two requests queued
    // behind it: it must wake the worker, which executes both in one batch.
    engine.gate.countDown();
    join(a);
    join(d);
    b.get(TIMEOUT_S, TimeUnit.SECONDS);
    assertEquals(List.of("put", "batch:2"), engine.calls);
    assertEquals(List.of("caller-a", workerThread.getName()), engine.threads);
    assertEquals(3, engine.data.size());
    assertEquals(3, shard.worker.counters().puts, "the counters moved with the role");
  }

  @Test
  void shouldLetAWaitingCallerTakeTheFreeRoleWhenTheBusyWorkerDoesNotRun() throws Exception {
    // The worker thread never runs (not started): its signal says busy, as a worker preempted
    // between duty cycles does, and a request is queued already, so a caller cannot take the
    // role when it enqueues (the busy worker keeps it to batch the two)...
    assertFalse(signal.isSleeping());
    FutureListener<Void> queued = new FutureListener<>();
    shard.submit(new Request.Put(new byte[] {5}, new byte[] {50}, queued));
    Request.Put put = new Request.Put(new byte[] {4}, new byte[] {40}, null);
    CompletableFuture<Object> done = onThread("caller-w", () -> {
      shard.submitSync(put);
      assertFalse(put.isDone(), "not taken at submit: the worker looked busy with a request queued");
      // ...but while it polls (a window far longer than the test's timeout, so it never parks),
      // it takes the free role and executes its request itself.
      shard.awaitSync(put, TimeUnit.SECONDS.toNanos(10 * TIMEOUT_S));
      return put.resultOrThrow();
    });
    join(done);
    assertTrue(queued.isDone(), "the queued request ran in the caller's duty cycle too");
    assertEquals(List.of("caller-w"), engine.threads, "executed on the waiting caller's thread");
    assertEquals(List.of("batch:2"), engine.calls);
    assertTrue(signal.takeWhileWaiting(), "the caller let the role go");
    signal.releaseAsCaller(shard.worker);
  }

  @Test
  void shouldTakeTheFreeRoleAtSubmitWhenTheRequestIsAloneAndTheBusyWorkerDoesNotRun() throws Exception {
    // The worker thread never runs: its signal says busy, as a worker preempted between duty
    // cycles does. With nothing else queued there is nothing to batch, so the caller takes the
    // free role at once instead of waiting for the worker to get a CPU.
    assertFalse(signal.isSleeping());
    Request.Put put = new Request.Put(new byte[] {4}, new byte[] {40}, null);
    CompletableFuture<Boolean> doneAtSubmit = onThread("caller-s", () -> {
      shard.submitSync(put);
      return put.isDone();
    });
    assertTrue(join(doneAtSubmit).equals(Boolean.TRUE), "executed within submitSync, before any wait");
    assertEquals(List.of("caller-s"), engine.threads, "executed on the caller's thread");
    assertEquals(List.of("put"), engine.calls);
    assertTrue(signal.takeWhileWaiting(), "the caller let the role go");
    signal.releaseAsCaller(shard.worker);
  }

  @Test
  void shouldHandAVirtualThreadsCallToTheWorkerThreadOnlyPastTheThresholdOfWaitingVirtualCallers() throws Exception {
    startAndAwaitParked();
    // Other virtual-thread callers waiting on the shard, one short of the threshold: with the
    // caller's own call the count is at the threshold, so the caller takes the role of the sleeping
    // worker and executes its put on its own thread, as a platform thread does.
    int others = Shard.VIRTUAL_HAND_OFF_CALLERS - 1;
    shard.virtualCallers.addAndGet(others);
    join(onThread("caller-a", () -> {
      shard.callVirtual(new Request.Put(new byte[] {2}, new byte[] {20}, null));
      return null;
    }));
    assertEquals(List.of("caller-a"), engine.threads, "at the threshold the caller executes its put itself");
    assertTrue(signal.isSleeping(), "the worker was not woken");
    assertEquals(others, shard.virtualCallers.get(), "the call's own count was released");

    // One more waiting caller: past the threshold the call is handed to the worker thread, which
    // is woken for it although the role is free and the request alone.
    shard.virtualCallers.incrementAndGet();
    join(onThread("caller-b", () -> {
      shard.callVirtual(new Request.Put(new byte[] {3}, new byte[] {30}, null));
      return null;
    }));
    assertEquals(List.of("caller-a", workerThread.getName()), engine.threads, "past the threshold the worker executes it");
    assertEquals(others + 1, shard.virtualCallers.get());
    assertEquals(2, engine.data.size());

    // A call that fails releases its count too.
    state.markClosed();
    CompletableFuture<Object> refused = onThread("caller-c", () -> {
      shard.callVirtual(new Request.Put(new byte[] {4}, new byte[] {40}, null));
      return null;
    });
    ExecutionException e = assertThrows(ExecutionException.class, () -> refused.get(TIMEOUT_S, TimeUnit.SECONDS));
    assertInstanceOf(StoreClosedException.class, e.getCause());
    assertEquals(others + 1, shard.virtualCallers.get(), "a refused call left no count behind");
  }

  @Test
  void shouldCountOnlyVirtualThreadsAmongTheWaitingVirtualCallers() throws Exception {
    ExecutorService virtual = VirtualExecutors.newOrSkip();
    try {
      startAndAwaitParked();
      RequestDispatcher dispatcher = new RequestDispatcher(TimeUnit.MICROSECONDS.toNanos(50), null);
      // A virtual thread's sync put, held inside the engine: the dispatcher routed it through
      // callVirtual, so it is counted while it runs.
      Future<Object> held = virtual.submit(
          () -> dispatcher.call(shard, new Request.Put(GATED, new byte[] {10}, null), OperationType.PUT));
      await(engine.entered);
      assertEquals(1, shard.virtualCallers.get(), "the virtual thread's call is counted");
      engine.gate.countDown();
      held.get(TIMEOUT_S, TimeUnit.SECONDS);
      assertEquals(0, shard.virtualCallers.get());

      // A platform thread's call is not.
      join(onThread("platform", () -> dispatcher.call(shard, new Request.Put(new byte[] {2}, new byte[] {20}, null),
          OperationType.PUT)));
      assertEquals(0, shard.virtualCallers.get());
      assertEquals(2, engine.data.size());
    } finally {
      virtual.shutdown();
    }
  }

  @Test
  void shouldLetOneWaitingCallerSpinWhileACallerHoldsTheRoleAndTakeItWhenFreed() throws Exception {
    // The worker thread never runs, so nothing but the callers executes: a request left to the
    // worker would never complete.
    shard.callerSpinNanos = TimeUnit.SECONDS.toNanos(10 * TIMEOUT_S);
    CompletableFuture<Object> a = syncCall("caller-a", new Request.Put(GATED, new byte[] {10}, null), null);
    await(engine.entered); // caller-a took the role at submit (its put was alone) and is held inside it

    // caller-b enqueues behind the held role and spins; its poll window is tiny, so without the
    // spin it would park at once and never run its request.
    Request.Put putB = new Request.Put(new byte[] {2}, new byte[] {20}, null);
    CompletableFuture<Object> b = waitingCall("caller-b", putB);
    awaitCondition(signal::isSpinning);

    // caller-c enqueues too, finds a spinner already, and parks: one spinner per shard.
    Request.Put putC = new Request.Put(new byte[] {3}, new byte[] {30}, null);
    CompletableFuture<Object> c = waitingCall("caller-c", putC);
    awaitCondition(() -> {
      Thread t = findThread("caller-c");
      return t != null && t.getState() == Thread.State.WAITING;
    });
    assertTrue(signal.isSpinning(), "caller-b still spins");

    // caller-a lets go: the spinner takes the free role and runs b and c as one batch.
    engine.gate.countDown();
    join(a);
    join(b);
    join(c);
    assertEquals(List.of("put", "batch:2"), engine.calls);
    assertEquals(List.of("caller-a", "caller-b"), engine.threads, "the spinner ran the batch on its own thread");
    assertFalse(signal.isSpinning(), "the spinner stopped spinning");
    assertTrue(signal.takeWhileWaiting(), "the spinner let the role go");
    signal.releaseAsCaller(shard.worker);
  }

  /** A sync call that waits as {@code RequestDispatcher.call} does, with a 1 ns poll window. */
  private CompletableFuture<Object> waitingCall(String name, Request r) {
    return onThread(name, () -> {
      shard.submitSync(r);
      shard.awaitSync(r, 1);
      return r.resultOrThrow();
    });
  }

  @Test
  void shouldStopTheWorkerOnlyAfterTheCallerHoldingTheRoleLetsGo() throws Exception {
    startAndAwaitParked();
    CompletableFuture<Object> a = syncCall("caller-a", new Request.Put(GATED, new byte[] {10}, null), null);
    await(engine.entered);
    FutureListener<Void> b = new FutureListener<>();
    shard.submit(new Request.Put(new byte[] {2}, new byte[] {20}, b));

    // Close while the caller holds the role: the worker is woken, cannot take the role, so it
    // neither executes nor ends; it parks again.
    state.markClosed();
    shard.requestStop();
    awaitParked(); // the stop request cleared the flag; the worker set it again after its loop
    assertFalse(shard.worker.isTerminated(), "the worker ended while a caller executed on its engine");
    assertEquals(List.of("caller-a"), engine.threads);
    CompletableFuture<Void> stopped = CompletableFuture.runAsync(shard::stopWorker);

    // The caller lets go: the worker drains the queue, then ends; the role is retired for good.
    engine.gate.countDown();
    join(a);
    stopped.get(TIMEOUT_S, TimeUnit.SECONDS);
    assertTrue(b.isDone() && !b.isCompletedExceptionally(), "the request queued before the stop was executed");
    assertEquals(List.of("caller-a", workerThread.getName()), engine.threads);
    assertTrue(shard.worker.isTerminated());
    assertTrue(signal.isRetired());
    assertFalse(signal.signalOrTake(), "no caller takes the role of an ended worker");
    assertFalse(signal.takeWhileWaiting(), "not even a lone request's caller or one that has waited");
  }

  @Test
  void shouldEndTheWorkerWhenACallersDutyCycleDies() throws Exception {
    startAndAwaitParked();
    engine.fatal = new OutOfMemoryError("injected");
    CompletableFuture<Object> a = syncCall("caller-a", new Request.Put(GATED, new byte[] {10}, null), null);
    await(engine.entered);
    FutureListener<Void> b = new FutureListener<>();
    shard.submit(new Request.Put(new byte[] {2}, new byte[] {20}, b));
    engine.gate.countDown();

    ExecutionException failed = assertThrows(ExecutionException.class, () -> a.get(TIMEOUT_S, TimeUnit.SECONDS));
    assertInstanceOf(StoreFailedException.class, failed.getCause());
    assertInstanceOf(StoreFailedException.class, assertThrows(Exception.class, b::join).getCause());
    assertThrows(StoreFailedException.class, state::checkOpen);
    workerThread.join(TimeUnit.SECONDS.toMillis(TIMEOUT_S));
    assertFalse(workerThread.isAlive(), "the retired role ends the worker thread");
    assertTrue(shard.worker.isTerminated());
    assertSame(1, engine.threads.size(), "nothing executed after the fatal error");
  }
}
