package io.p2kv.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import io.p2kv.UpdateFunctionException;
import io.p2kv.internal.engine.EngineSnapshot;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;
import org.agrona.concurrent.AgentInvoker;
import org.junit.jupiter.api.Test;

/**
 * Steps one shard worker through {@link AgentInvoker}, with no worker thread and no sleeps, and
 * checks the opportunistic batching of the p2KVS paper's Algorithm 1 call by call.
 */
class ShardWorkerTest {
  private final RecordingEngine engine = new RecordingEngine();
  private final StoreState state = new StoreState("test");
  private final StripeVersions versions = new StripeVersions(2); // the cut tests use shards 0 and 1

  private Shard shard(int maxBatch, long maxBatchBytes) {
    return shard(engine, maxBatch, maxBatchBytes);
  }

  private Shard shard(RecordingEngine engine, int maxBatch, long maxBatchBytes) {
    return shard(0, engine, maxBatch, maxBatchBytes);
  }

  private Shard shard(int index, RecordingEngine engine, int maxBatch, long maxBatchBytes) {
    return shard(index, engine, new ShardConfig(64, QueueFullPolicy.FAIL_FAST, IdleMode.PARK, 0, maxBatch, maxBatchBytes));
  }

  private Shard shard(int index, RecordingEngine engine, ShardConfig config) {
    return new Shard(
        index,
        engine,
        state,
        config,
        new CpuPinning(Pinning.NEVER, 1, 1, "test"),
        null,
        null,
        versions,
        null,
        new WorkerSignal());
  }

  /** A shard in SYNC mode: write runs have their own caps and group commit ({@link GroupCommit}). */
  private Shard durableShard(RecordingEngine engine, int maxBatch, int maxWriteBatch, long maxWriteBatchBytes) {
    return shard(
        0, engine, new ShardConfig(64, QueueFullPolicy.FAIL_FAST, IdleMode.PARK, 0, maxBatch, maxWriteBatch, maxWriteBatchBytes, true));
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
    shard.submit(new Request.BatchWrite(ops, 20, null, f()));
    shard.submit(put(b(101), b(1), f()));
    invoker(shard).invoke();
    assertEquals(List.of("put", "batch:10", "put"), engine.calls);
  }

  @Test
  void shouldNeverMergeBatchesOfAnotherDurabilityIntoARun() {
    Shard shard = shard(32, 1 << 20);
    List<Batch.Op> ops = List.of(new Batch.Op(b(1), b(1)), new Batch.Op(b(2), b(2)));
    shard.submit(put(b(100), b(1), f()));
    shard.submit(new Request.BatchWrite(ops, 4, io.p2kv.Durability.NO_WAL, f()));
    shard.submit(new Request.BatchWrite(ops, 4, io.p2kv.Durability.NO_WAL, f()));
    shard.submit(put(b(101), b(1), f()));
    shard.submit(put(b(102), b(1), f()));
    invoker(shard).invoke();
    assertEquals(List.of("put", "batch:4:NO_WAL", "batch:2"), engine.calls);
  }

  @Test
  void shouldRunARangeDeleteAloneInQueueOrder() {
    Shard shard = shard(32, 1 << 20);
    FutureListener<Object> deleted = f();
    shard.submit(put(b(1), b(1), f()));
    shard.submit(put(b(5), b(1), f()));
    shard.submit(new Request.RangeDeletePart(b(0), b(5), deleted));
    shard.submit(put(b(2), b(2), f()));
    shard.submit(put(b(3), b(2), f()));
    invoker(shard).invoke();
    assertEquals(List.of("batch:2", "deleteRange", "batch:2"), engine.calls);
    assertNull(deleted.join());
    assertEquals(3, engine.data.size(), "1 deleted; 5 outside the range; 2 and 3 written after");
    assertNull(engine.get(b(1)));
    assertEquals(1, shard.snapshot().deletes(), "a range delete counts as one delete");
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
  void shouldFailEveryRequestOfARunWhoseCompletionDied() {
    Shard shard = shard(32, 1 << 20);
    Request before = put(b(1), b(1), null); // sync: gathered for the wake-up tree first
    Request after = put(b(3), b(3), null);
    shard.submit(before);
    shard.submit(put(b(2), b(2), (r, v, e) -> {
      throw new OutOfMemoryError("injected in a listener");
    }));
    shard.submit(after);
    invoker(shard).invoke();
    // The worker died while completing the run: every request of it is failed, none left waiting.
    assertTrue(before.isDone() && after.isDone(), "no caller of the run is left waiting");
    assertInstanceOf(StoreFailedException.class, assertThrows(RuntimeException.class, before::resultOrThrow));
    assertInstanceOf(StoreFailedException.class, assertThrows(RuntimeException.class, after::resultOrThrow));
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

  // ---------------------------------------------------------------- updates

  private static Request.Update update(byte[] key, UnaryOperator<byte[]> fn, Request.Listener listener) {
    return new Request.Update(key, fn, 0, false, listener);
  }

  /** Adds one to the first byte; absent counts as 0. */
  private static final UnaryOperator<byte[]> PLUS_ONE = v -> b(v == null ? 1 : v[0] + 1);

  @Test
  void shouldBatchUpdatesWithTheWritesAroundThemInQueueOrder() {
    engine.put(b(1), b(5));
    engine.calls.clear();
    Shard shard = shard(32, 1 << 20);
    FutureListener<Void> put2 = f();
    FutureListener<byte[]> u1 = f();
    FutureListener<byte[]> u2 = f();
    FutureListener<byte[]> u1again = f();
    FutureListener<Void> del2 = f();
    FutureListener<byte[]> u2afterDelete = f();
    FutureListener<byte[]> u3 = f();
    shard.submit(put(b(2), b(7), put2));
    shard.submit(update(b(1), PLUS_ONE, u1));
    shard.submit(update(b(2), PLUS_ONE, u2));
    shard.submit(update(b(1), PLUS_ONE, u1again));
    shard.submit(delete(b(2), del2));
    shard.submit(update(b(2), v -> v == null ? b(100) : b(-1), u2afterDelete));
    shard.submit(update(b(3), v -> null, u3));

    assertEquals(7, invoker(shard).invoke());

    assertEquals(List.of("multiGet:2", "batch:6"), engine.calls,
        "one read for the keys the run had not written (1, 3), one write for the run; nothing for key 3");
    assertArrayEquals(b(6), u1.join());
    assertArrayEquals(b(8), u2.join(), "an update sees the put queued before it in its run");
    assertArrayEquals(b(7), u1again.join(), "an update sees the update of its key before it in its run");
    assertArrayEquals(b(100), u2afterDelete.join(), "an update sees the delete before it: absent");
    assertNull(u3.join(), "null for an absent key");
    assertTrue(put2.isDone() && del2.isDone());
    assertArrayEquals(b(7), engine.data.get("[1]"));
    assertArrayEquals(b(100), engine.data.get("[2]"));
    assertNull(engine.data.get("[3]"));
    WorkerCounters c = shard.worker.counters();
    assertEquals(5, c.updates);
    assertEquals(6, c.writeOps);
    assertEquals(2, c.workerReads);
    assertEquals(0, c.failedRequests);
  }

  @Test
  void shouldFailOnlyTheUpdateWhoseFunctionThrowsAndGoOnWithItsRun() {
    engine.put(b(3), b(3));
    engine.calls.clear();
    Shard shard = shard(32, 1 << 20);
    FutureListener<Void> p1 = f();
    FutureListener<byte[]> throwing = f();
    FutureListener<byte[]> after = f();
    FutureListener<byte[]> spoiling = f();
    FutureListener<byte[]> afterSpoiled = f();
    FutureListener<Void> p2 = f();
    RuntimeException boom = new RuntimeException("boom");
    shard.submit(put(b(1), b(1), p1));
    shard.submit(update(b(1), v -> {
      v[0] = 42; // its own copy: the put's array and the next update are not affected
      throw boom;
    }, throwing));
    shard.submit(update(b(1), PLUS_ONE, after));
    shard.submit(update(b(3), v -> {
      v[0] = 99; // the engine's copy, which it was given; the next update reads the key again
      throw new IllegalStateException("spoilt");
    }, spoiling));
    shard.submit(update(b(3), PLUS_ONE, afterSpoiled));
    shard.submit(put(b(2), b(2), p2));

    invoker(shard).invoke();

    UpdateFunctionException e =
        assertInstanceOf(UpdateFunctionException.class, assertThrows(Exception.class, throwing::join).getCause());
    assertTrue(e.getCause() == boom, "the function's exception is the cause: " + e);
    assertArrayEquals(b(2), after.join(), "the next update of the key sees the value before the failed one");
    assertInstanceOf(UpdateFunctionException.class, assertThrows(Exception.class, spoiling::join).getCause());
    assertArrayEquals(b(4), afterSpoiled.join(), "the key whose engine copy was spoilt is read again");
    assertTrue(p1.isDone() && !p1.isCompletedExceptionally() && p2.isDone() && !p2.isCompletedExceptionally());
    assertEquals(List.of("get", "get", "batch:4"), engine.calls);
    assertArrayEquals(b(2), engine.data.get("[1]"));
    assertArrayEquals(b(4), engine.data.get("[3]"));
    assertArrayEquals(b(2), engine.data.get("[2]"));
    WorkerCounters c = shard.worker.counters();
    assertEquals(2, c.failedRequests);
    assertEquals(4, c.updates);
  }

  /** An update carrying a value its caller read ahead at the key's stripe version now. */
  private Request.Update preRead(byte[] key, byte[] value, UnaryOperator<byte[]> fn, Request.Listener listener) {
    Request.Update u = update(key, fn, listener);
    int stripe = new ValueCache.Key(key).stripe();
    u.preRead(value, stripe, versions.stamp(0, stripe));
    return u;
  }

  @Test
  void shouldUseACallersReadOnlyWhileItsStripeIsUnchangedAndTheRunHasNotWrittenTheKey() {
    engine.put(b(1), b(5));
    engine.put(b(2), b(7));
    engine.put(b(3), b(9));
    engine.calls.clear();
    Shard shard = shard(32, 1 << 20);
    AgentInvoker invoker = invoker(shard);
    // Read ahead before a put of key 2 is applied: that read goes stale.
    FutureListener<byte[]> stale = f();
    Request.Update staleUpdate = preRead(b(2), b(70), PLUS_ONE, stale);
    shard.submit(put(b(2), b(8), f()));
    invoker.invoke();
    engine.calls.clear();
    // The values read ahead differ from the engine's, to show which one each function got.
    FutureListener<byte[]> fresh = f();
    FutureListener<byte[]> afterPut = f();
    FutureListener<byte[]> alone = f();
    shard.submit(preRead(b(1), b(50), PLUS_ONE, fresh));
    shard.submit(staleUpdate);
    shard.submit(put(b(3), b(20), f()));
    shard.submit(preRead(b(3), b(90), PLUS_ONE, afterPut));
    invoker.invoke();
    shard.submit(preRead(b(1), b(40), PLUS_ONE, alone));
    invoker.invoke();

    assertArrayEquals(b(51), fresh.join(), "the stripe is unchanged: the caller's read is used");
    assertArrayEquals(b(9), stale.join(), "key 2 was written after the read ahead: the worker reads it");
    assertArrayEquals(b(21), afterPut.join(), "the run wrote key 3 first: its value, not the read ahead");
    assertEquals(List.of("get", "batch:4", "put"), engine.calls, "only key 2 is read, by the worker; a lone update reads nothing");
    assertArrayEquals(b(41), alone.join());
    assertEquals(2, shard.worker.counters().preReadUpdates);

    // A lone update whose read ahead went stale (a put of its key came first) reads the engine.
    FutureListener<byte[]> staleAlone = f();
    Request.Update staleAloneUpdate = preRead(b(1), b(99), PLUS_ONE, staleAlone);
    shard.submit(put(b(1), b(60), f()));
    invoker.invoke();
    engine.calls.clear();
    shard.submit(staleAloneUpdate);
    invoker.invoke();
    assertArrayEquals(b(61), staleAlone.join(), "key 1 was written after the read ahead: the worker reads it");
    assertEquals(List.of("get", "put"), engine.calls);
    assertEquals(2, shard.worker.counters().preReadUpdates);
  }

  @Test
  void shouldRunALoneUpdateWithSingleOperationCalls() {
    Shard shard = shard(32, 1 << 20);
    AgentInvoker invoker = invoker(shard);
    FutureListener<byte[]> created = f();
    shard.submit(update(b(1), PLUS_ONE, created));
    invoker.invoke();
    FutureListener<byte[]> deleted = f();
    shard.submit(update(b(1), v -> null, deleted));
    invoker.invoke();
    FutureListener<byte[]> absent = f();
    shard.submit(update(b(1), v -> null, absent));
    invoker.invoke();
    FutureListener<byte[]> throwing = f();
    shard.submit(update(b(1), v -> {
      throw new IllegalStateException();
    }, throwing));
    invoker.invoke();

    assertEquals(List.of("get", "put", "get", "delete", "get", "get"), engine.calls,
        "no write for an absent key left absent, nor for a failed function");
    assertArrayEquals(b(1), created.join());
    assertNull(deleted.join());
    assertNull(absent.join());
    assertTrue(throwing.isCompletedExceptionally());
    assertEquals(2, shard.worker.counters().writeCalls, "the put and the delete");
  }

  @Test
  void shouldReturnCountersAsLongsAndFailAValueThatIsNotACounter() {
    Shard shard = shard(32, 1 << 20);
    FutureListener<Long> first = f();
    FutureListener<Long> second = f();
    FutureListener<Void> notACounter = f();
    FutureListener<Long> failing = f();
    FutureListener<Long> nearMax = f();
    FutureListener<Long> overflow = f();
    shard.submit(new Request.Update(b(1), Counter.add(5), 8, true, first));
    shard.submit(new Request.Update(b(1), Counter.add(-7), 8, true, second));
    shard.submit(put(b(2), b(2), notACounter));
    shard.submit(new Request.Update(b(2), Counter.add(1), 8, true, failing));
    shard.submit(new Request.Update(b(1), Counter.add(Long.MAX_VALUE), 8, true, nearMax));
    shard.submit(new Request.Update(b(1), Counter.add(3), 8, true, overflow));
    shard.submit(new Request.Update(b(1), Counter.add(Long.MIN_VALUE), 8, true, f()));
    invoker(shard).invoke();

    assertEquals(5L, first.join());
    assertEquals(-2L, second.join());
    IllegalStateException e =
        assertInstanceOf(IllegalStateException.class, assertThrows(Exception.class, failing::join).getCause());
    assertTrue(e.getMessage().contains("1 bytes, not a counter"), e.getMessage());
    assertArrayEquals(b(2), engine.data.get("[2]"), "the value that is not a counter is left alone");
    assertEquals(Long.MAX_VALUE - 2, nearMax.join());
    assertInstanceOf(ArithmeticException.class, assertThrows(Exception.class, overflow::join).getCause());
    assertEquals(-3L, Counter.decode(engine.data.get("[1]")), "(MAX - 2) + MIN: the overflow wrote nothing");
    assertArrayEquals(new byte[] {0, 0, 0, 0, 0, 0, 0, 5}, Counter.encode(5));
    assertEquals(-1L, Counter.decode(Counter.encode(-1)));
  }

  @Test
  void shouldFailEveryRequestOfARunWithUpdatesWhenTheEngineWriteFails() {
    Shard shard = shard(32, 1 << 20);
    FutureListener<byte[]> u = f();
    FutureListener<Void> p = f();
    shard.submit(update(b(1), PLUS_ONE, u));
    shard.submit(put(b(2), b(2), p));
    engine.failWrites = true;
    invoker(shard).invoke();
    assertInstanceOf(ShardFailedException.class, assertThrows(Exception.class, u::join).getCause());
    assertInstanceOf(ShardFailedException.class, assertThrows(Exception.class, p::join).getCause());
    assertEquals(2, shard.worker.counters().failedRequests);
    assertNull(engine.data.get("[1]"));
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
    assertFalse(a.worker.hasWork(), "a request queued behind the barrier is no work: the worker parks until the release");

    assertEquals(2, onB.invoke(), "the last arrival releases the barrier");
    assertTrue(a.worker.hasWork(), "released: the barrier's action and the queue are work again");
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

  // ---------------------------------------------------------------- cross-shard batches

  @Test
  void shouldParkAPreparedWorkerUntilTheDecisionAndThenFinishBeforeItsQueue() {
    RecordingEngine other = new RecordingEngine();
    Shard a = shard(0, engine, 32, 1 << 20);
    Shard b = shard(1, other, 32, 1 << 20);
    List<Batch.Op> opsA = List.of(new Batch.Op(b(1), b(1)));
    List<Batch.Op> opsB = List.of(new Batch.Op(b(2), b(2)));
    FutureListener<Void> user = f();
    CrossShardTxn txn = new CrossShardTxn(7, 2, engine, new Request.BatchWrite(List.of(), 0, null, user), state, null);
    a.submit(new Request.CrossShardPart(opsA, 2, txn, 0, null));
    FutureListener<Void> after = f();
    a.submit(put(b(3), b(3), after));
    b.submit(new Request.CrossShardPart(opsB, 2, txn, 1, null));
    AgentInvoker onA = invoker(a);
    AgentInvoker onB = invoker(b);

    assertEquals(1, onA.invoke(), "prepared and voted: shard 0 waits for the decision");
    assertEquals(0, onA.invoke(), "undecided: nothing taken from the queue");
    assertTrue(!after.isDone());
    // The put queued behind the prepared part is no work while the batch is undecided: the idle
    // strategy parks instead of looping through empty duty cycles on a CPU the other shard's
    // worker needs to cast the last vote (the decision signals the worker).
    assertFalse(a.worker.hasWork(), "a request queued behind an undecided batch is no work");

    assertEquals(1, onB.invoke(), "the last vote decides");
    assertTrue(user.isDone(), "committed");
    assertTrue(a.worker.hasWork(), "decided: finishing the part is work");
    onA.invoke();
    assertTrue(after.isDone(), "the queue goes on after the part is finished");
    assertFalse(a.worker.hasWork(), "nothing left");
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

  @Test
  void shouldCapDurableWriteRunsByTheirOwnCountAndBytesAndReadRunsByMaxBatch() {
    Shard shard = durableShard(engine, 4, 20, 1 << 20);
    for (int i = 0; i < 50; i++) {
      shard.submit(put(b(i), b(i), f()));
    }
    for (int i = 0; i < 6; i++) {
      shard.submit(get(b(i), f()));
    }
    invoker(shard).invoke();
    assertEquals(List.of("batch:20", "batch:20", "batch:10", "multiGet:4", "multiGet:2"), engine.calls);

    engine.calls.clear();
    // Each put is 1 + 100 bytes; a 350-byte durable cap fits three.
    Shard byBytes = durableShard(engine, 2, 20, 350);
    for (int i = 0; i < 7; i++) {
      byBytes.submit(put(b(i), new byte[100], f()));
    }
    byBytes.submit(get(b(0), f()));
    invoker(byBytes).invoke();
    assertEquals(List.of("batch:3", "batch:3", "put", "get"), engine.calls);
  }

  @Test
  void shouldAcknowledgeADurableRunOnlyAfterItsEngineWriteReturns() throws Exception {
    java.util.concurrent.CountDownLatch writing = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch synced = new java.util.concurrent.CountDownLatch(1);
    RecordingEngine fsyncing =
        new RecordingEngine() {
          @Override
          public void write(io.p2kv.internal.engine.EngineBatch batch, io.p2kv.Durability durability) {
            writing.countDown();
            try {
              synced.await(); // the fsync of the batch, until the test lets it end
            } catch (InterruptedException e) {
              throw new AssertionError(e);
            }
            super.write(batch, durability);
          }
        };
    Shard shard = durableShard(fsyncing, 32, 1024, 1 << 20);
    List<FutureListener<Void>> acks = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      FutureListener<Void> ack = f();
      acks.add(ack);
      shard.submit(put(b(i), b(i), ack));
    }
    AgentInvoker invoker = invoker(shard);
    Thread worker = new Thread(invoker::invoke);
    worker.start();
    writing.await();
    for (FutureListener<Void> ack : acks) {
      assertTrue(!ack.isDone(), "no write of the run is acknowledged while its fsync runs");
    }
    synced.countDown();
    worker.join();
    for (FutureListener<Void> ack : acks) {
      assertNull(ack.join());
    }
    assertEquals(List.of("batch:5"), fsyncing.calls);
  }

  /**
   * An engine whose writes take {@link #writeNanos} on a fake clock that the group commit of the
   * shard reads, and whose every read of the clock advances it by {@link #tickNanos}: the length of
   * the worker's wait is then observable, with no real time in the test.
   */
  private static final class FakeFsyncEngine extends RecordingEngine {
    final java.util.concurrent.atomic.AtomicLong clock = new java.util.concurrent.atomic.AtomicLong();
    volatile long writeNanos;
    volatile long tickNanos;

    long read() {
      return clock.addAndGet(tickNanos);
    }

    @Override
    public void write(io.p2kv.internal.engine.EngineBatch batch, io.p2kv.Durability durability) {
      clock.addAndGet(writeNanos);
      super.write(batch, durability);
    }

    @Override
    public void put(byte[] key, byte[] value) {
      clock.addAndGet(writeNanos);
      super.put(key, value);
    }

    Shard durableShard(ShardWorkerTest test) {
      Shard shard = test.durableShard(this, 32, 1024, 1 << 20);
      shard.worker.groupCommit().nanoClock(this::read);
      return shard;
    }
  }

  @Test
  void shouldWaitForTheWritersOfTheLastDurableRunToComeBack() throws Exception {
    FakeFsyncEngine fsync = new FakeFsyncEngine();
    fsync.writeNanos = 200_000; // the window: 200 us of a clock that stands still while the run waits
    Shard shard = fsync.durableShard(this);
    AgentInvoker invoker = invoker(shard);
    shard.submit(put(b(1), b(1), f()));
    shard.submit(put(b(2), b(2), f()));
    invoker.invoke(); // a run of two: the next run waits for two writers

    FutureListener<Void> first = f();
    FutureListener<Void> second = f();
    shard.submit(put(b(3), b(3), first));
    Thread comesBack = new Thread(() -> {
      while (shard.queueDepth() > 0) {
        Thread.onSpinWait(); // until the run has taken the first put and found the queue empty
      }
      shard.submit(put(b(4), b(4), second));
    });
    comesBack.start();
    invoker.invoke();
    comesBack.join();

    assertEquals(List.of("batch:2", "batch:2"), fsync.calls, "the second writer joined the run that waited for it");
    assertTrue(first.isDone() && second.isDone());
  }

  @Test
  void shouldWaitNoLongerThanTheCapAfterAVerySlowDurableWrite() {
    FakeFsyncEngine fsync = new FakeFsyncEngine();
    fsync.writeNanos = java.util.concurrent.TimeUnit.SECONDS.toNanos(1); // a disk stall
    Shard shard = fsync.durableShard(this);
    AgentInvoker invoker = invoker(shard);
    shard.submit(put(b(1), b(1), f()));
    shard.submit(put(b(2), b(2), f()));
    invoker.invoke(); // a run of two whose write took 1 s: the mean durable write is now 1 s

    fsync.writeNanos = 0;
    fsync.tickNanos = 1_000; // the clock moves 1 us per look while the run waits
    FutureListener<Void> alone = f();
    shard.submit(put(b(3), b(3), alone)); // its partner never comes back
    long before = fsync.clock.get();
    invoker.invoke();
    long waited = fsync.clock.get() - before;

    assertEquals(List.of("batch:2", "put"), fsync.calls, "the run waited in vain and wrote its one put");
    assertNull(alone.join());
    assertTrue(
        waited >= GroupCommit.MAX_WAIT_NANOS && waited <= GroupCommit.MAX_WAIT_NANOS + 10 * fsync.tickNanos,
        "waited " + waited + " ns after a 1 s write; the cap is " + GroupCommit.MAX_WAIT_NANOS);
  }
}
