package io.p2kv.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.Batch;
import io.p2kv.IdleMode;
import io.p2kv.Pinning;
import io.p2kv.QueueFullPolicy;
import io.p2kv.ShardFailedException;
import io.p2kv.StoreFailedException;
import io.p2kv.internal.engine.EngineSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.concurrent.AgentInvoker;
import org.junit.jupiter.api.Test;

/**
 * Steps one shard worker through {@link AgentInvoker}, with no worker thread and no sleeps, and
 * checks the opportunistic batching of the p2KVS paper's Algorithm 1 call by call.
 */
class ShardWorkerTest {
  private final RecordingEngine engine = new RecordingEngine();
  private final StoreState state = new StoreState("test");

  private Shard shard(int maxBatch, long maxBatchBytes) {
    return shard(engine, maxBatch, maxBatchBytes);
  }

  private Shard shard(RecordingEngine engine, int maxBatch, long maxBatchBytes) {
    return shard(0, engine, maxBatch, maxBatchBytes);
  }

  private Shard shard(int index, RecordingEngine engine, int maxBatch, long maxBatchBytes) {
    return new Shard(
        index,
        engine,
        state,
        new ShardConfig(64, QueueFullPolicy.FAIL_FAST, IdleMode.PARK, 0, maxBatch, maxBatchBytes),
        new CpuPinning(Pinning.NEVER, 1, 1, "test"),
        null,
        null,
        null);
  }

  private static byte[] b(int i) {
    return new byte[] {(byte) i};
  }

  private static AgentInvoker invoker(Shard shard) {
    AgentInvoker invoker = new AgentInvoker(t -> {}, null, shard.worker);
    invoker.start();
    return invoker;
  }

  private static <T> FutureListener<T> f() {
    return new FutureListener<>();
  }

  private static Request.Put put(byte[] key, byte[] value, Request.Listener listener) {
    return new Request.Put(key, value, listener);
  }

  private static Request.Get get(byte[] key, Request.Listener listener) {
    return new Request.Get(key, listener);
  }

  private static Request.Delete delete(byte[] key, Request.Listener listener) {
    return new Request.Delete(key, listener);
  }

  @Test
  void shouldMergeConsecutiveSameTypeRequestsAndKeepTypeOrder() {
    Shard shard = shard(32, 1 << 20);
    List<CompletableFuture<?>> fs = new ArrayList<>();
    FutureListener<Void> p1 = f();
    FutureListener<Void> p2 = f();
    FutureListener<byte[]> g1 = f();
    FutureListener<byte[]> g2 = f();
    FutureListener<Void> d1 = f();
    fs.add(p1);
    shard.submit(put(b(1), b(10), p1));
    shard.submit(put(b(2), b(20), p2));
    shard.submit(get(b(1), g1));
    shard.submit(get(b(3), g2));
    shard.submit(delete(b(1), d1));

    int handled = invoker(shard).invoke();

    assertEquals(5, handled);
    assertEquals(List.of("batch:2", "multiGet:2", "delete"), engine.calls);
    assertArrayEquals(b(10), g1.join(), "the read after the writes sees them");
    assertNull(g2.join());
    assertTrue(d1.isDone() && p1.isDone() && p2.isDone());
    assertNull(engine.data.get("[1]"), "the delete queued after the read ran after it");
  }

  @Test
  void shouldNeverWaitForMoreRequests() {
    Shard shard = shard(32, 1 << 20);
    AgentInvoker invoker = invoker(shard);
    assertEquals(0, invoker.invoke(), "an empty queue is no work");
    FutureListener<Void> p = f();
    shard.submit(put(b(1), b(1), p));
    assertEquals(1, invoker.invoke());
    assertEquals(List.of("put"), engine.calls, "a lone put uses the single-operation call");
    assertTrue(p.isDone());
  }

  @Test
  void shouldCapWriteRunsByCountAndBytes() {
    Shard byCount = shard(3, 1 << 20);
    for (int i = 0; i < 7; i++) {
      byCount.submit(put(b(i), b(i), f()));
    }
    invoker(byCount).invoke();
    assertEquals(List.of("batch:3", "batch:3", "put"), engine.calls);

    engine.calls.clear();
    // Each put is 1 + 100 bytes; a 250-byte cap fits two.
    Shard byBytes = shard(32, 250);
    for (int i = 0; i < 5; i++) {
      byBytes.submit(put(b(i), new byte[100], f()));
    }
    invoker(byBytes).invoke();
    assertEquals(List.of("batch:2", "batch:2", "put"), engine.calls);
  }

  @Test
  void shouldRunAnOversizedRequestAlone() {
    Shard shard = shard(4, 1 << 20);
    List<Batch.Op> ops = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      ops.add(new Batch.Op(b(i), b(i)));
    }
    shard.submit(put(b(100), b(1), f()));
    shard.submit(new Request.BatchWrite(ops, 20, f()));
    shard.submit(put(b(101), b(1), f()));
    invoker(shard).invoke();
    assertEquals(List.of("put", "batch:10", "put"), engine.calls);
  }

  @Test
  void shouldSplitMultiGetPartsAcrossReadRunsByKeyCount() {
    Shard shard = shard(4, 1 << 20);
    FutureListener<Object> part = f();
    shard.submit(get(b(1), f()));
    shard.submit(new Request.MultiGetPart(List.of(b(1), b(2), b(3)), 0, part));
    shard.submit(get(b(2), f()));
    invoker(shard).invoke();
    assertEquals(List.of("multiGet:4", "get"), engine.calls);
    assertEquals(3, ((List<?>) part.join()).size());
  }

  @Test
  void shouldFailOnlyTheRequestsOfAFailedEngineCall() {
    Shard shard = shard(2, 1 << 20);
    FutureListener<Void> a = f();
    FutureListener<Void> b = f();
    FutureListener<byte[]> g = f();
    shard.submit(put(b(1), b(1), a));
    shard.submit(put(b(2), b(2), b));
    shard.submit(get(b(1), g));
    engine.failWrites = true;
    invoker(shard).invoke();
    ShardFailedException e = assertInstanceOf(ShardFailedException.class, assertThrows(Exception.class, a::join).getCause());
    assertEquals(0, e.shard());
    assertTrue(b.isCompletedExceptionally());
    assertNull(g.join(), "the read after the failed batch still runs");
    assertEquals(2, shard.worker.counters().failedRequests);
  }

  @Test
  void shouldFailTheStoreAndEveryQueuedRequestWhenTheWorkerDies() {
    Shard shard =
        shard(
            new RecordingEngine() {
              @Override
              public synchronized void put(byte[] key, byte[] value) {
                throw new OutOfMemoryError("injected");
              }
            },
            32,
            1 << 20);
    FutureListener<Void> dies = f();
    shard.submit(put(b(1), b(1), dies));
    AgentInvoker invoker = invoker(shard);
    invoker.invoke();
    // The worker failed its request, marked the store failed and ended itself.
    assertInstanceOf(StoreFailedException.class, assertThrows(Exception.class, dies::join).getCause());
    assertTrue(shard.worker.isTerminated());
    assertThrows(StoreFailedException.class, state::checkOpen);
  }

  @Test
  void shouldCompleteSyncRequestsOfARunExactlyOnceThroughTheWakeTree() throws Exception {
    Shard shard = shard(32, 1 << 20);
    int callers = 20;
    List<Thread> threads = new ArrayList<>();
    AtomicInteger completed = new AtomicInteger();
    List<Request> requests = new ArrayList<>();
    for (int i = 0; i < callers; i++) {
      Request r = put(b(i), b(i), null);
      requests.add(r);
      shard.submit(r);
    }
    for (Request r : requests) {
      Thread t = new Thread(() -> {
        r.await(0);
        r.resultOrThrow();
        completed.incrementAndGet();
      });
      threads.add(t);
      t.start();
    }
    invoker(shard).invoke();
    for (Thread t : threads) {
      t.join(30_000);
    }
    assertEquals(callers, completed.get(), "every parked caller of the run was woken");
  }

  @Test
  void shouldRunAScanAloneAndAfterTheWritesQueuedBeforeIt() {
    Shard shard = shard(32, 1 << 20);
    FutureListener<Void> p1 = f();
    FutureListener<Void> p2 = f();
    FutureListener<byte[]> g1 = f();
    FutureListener<List<io.p2kv.KeyValue>> scan = f();
    FutureListener<byte[]> g2 = f();
    FutureListener<Void> p3 = f();
    shard.submit(put(b(2), b(20), p1));
    shard.submit(put(b(1), b(10), p2));
    shard.submit(get(b(1), g1));
    shard.submit(new Request.ScanPart(null, null, 10, 0, scan));
    shard.submit(get(b(2), g2));
    shard.submit(put(b(0), b(0), p3));

    assertEquals(6, invoker(shard).invoke());

    assertEquals(List.of("batch:2", "get", "iterator", "get", "put"), engine.calls, "a scan is never merged with reads");
    List<io.p2kv.KeyValue> pairs = scan.join();
    assertEquals(2, pairs.size(), "the scan saw the writes queued before it and not the one after");
    assertArrayEquals(b(1), pairs.get(0).key());
    assertArrayEquals(b(20), pairs.get(1).value());
  }

  @Test
  void shouldHonourAScanLimitAndBoundsOnTheWorker() {
    Shard shard = shard(32, 1 << 20);
    for (int i = 0; i < 10; i++) {
      shard.submit(put(b(i), b(i), f()));
    }
    FutureListener<List<io.p2kv.KeyValue>> bounded = f();
    FutureListener<List<io.p2kv.KeyValue>> limited = f();
    shard.submit(new Request.ScanPart(b(3), b(6), 100, 0, bounded));
    shard.submit(new Request.ScanPart(b(8), null, 1, 0, limited));
    invoker(shard).invoke();
    assertEquals(3, bounded.join().size());
    assertArrayEquals(b(3), bounded.join().get(0).key());
    assertEquals(1, limited.join().size());
    assertArrayEquals(b(8), limited.join().get(0).key());
  }

  // ---------------------------------------------------------------- consistent cuts

  private static Cut<EngineSnapshot> snapshotCut(int shards) {
    return new Cut<>(shards, (shard, engine) -> engine.snapshot(), (view, shard) -> view.close());
  }

  @Test
  void shouldHoldEachWorkerAtACutUntilEveryWorkerArrivedAndRunTheActionBeforeLaterRequests() {
    RecordingEngine other = new RecordingEngine();
    Shard a = shard(0, engine, 32, 1 << 20);
    Shard b = shard(1, other, 32, 1 << 20);
    Cut<EngineSnapshot> cut = snapshotCut(2);
    Request.CutPart[] parts = cut.parts();
    a.submit(put(b(1), b(1), f()));
    a.submit(parts[0]);
    FutureListener<Void> after = f();
    a.submit(put(b(2), b(2), after));
    b.submit(put(b(3), b(3), f()));
    b.submit(parts[1]);
    AgentInvoker onA = invoker(a);
    AgentInvoker onB = invoker(b);

    assertEquals(2, onA.invoke(), "the put, then the barrier");
    assertEquals(0, onA.invoke(), "waiting at the barrier: no work, nothing taken from the queue");
    assertEquals(List.of("put"), engine.calls);
    assertTrue(!after.isDone(), "the put behind the barrier waits");

    assertEquals(2, onB.invoke(), "the last arrival releases the barrier");
    onB.invoke();
    assertEquals(List.of("put", "snapshot"), other.calls);

    onA.invoke();
    assertEquals(List.of("put", "snapshot", "put"), engine.calls, "the view is taken before the later put");
    assertTrue(after.isDone());
    List<EngineSnapshot> views = cut.await();
    assertArrayEquals(b(1), views.get(0).get(b(1)));
    assertNull(views.get(0).get(b(2)), "a write queued behind the barrier is not in the cut");
    assertArrayEquals(b(3), views.get(1).get(b(3)));
  }

  @Test
  void shouldReleaseTheWaitingWorkersWhenABarrierCannotBeEnqueued() {
    Shard a = shard(0, engine, 32, 1 << 20);
    Cut<EngineSnapshot> cut = snapshotCut(2);
    Request.CutPart[] parts = cut.parts();
    a.submit(parts[0]);
    FutureListener<Void> after = f();
    a.submit(put(b(2), b(2), after));
    AgentInvoker onA = invoker(a);
    assertEquals(1, onA.invoke());
    assertEquals(0, onA.invoke());

    parts[1].fail(new io.p2kv.QueueFullException("queue of shard 1 is full")); // what submitAll does

    onA.invoke();
    assertEquals(List.of("put"), engine.calls, "a cancelled cut runs no action; the queue goes on");
    assertTrue(after.isDone());
    assertThrows(io.p2kv.QueueFullException.class, cut::await);
  }
}
