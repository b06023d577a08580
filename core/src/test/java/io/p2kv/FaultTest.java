package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Bad input and injected faults: each fails loudly, affects only what it must, corrupts nothing. */
class FaultTest {
  @TempDir Path tmp;

  @Test
  void shouldRejectNullAndOversizedArgumentsNamingTheProblem() {
    try (P2kv store = P2kv.builder().shards(2).open(tmp)) {
      byte[] k = Keys.key("k");
      assertEquals("key is null", assertThrows(NullPointerException.class, () -> store.put(null, k)).getMessage());
      assertTrue(assertThrows(NullPointerException.class, () -> store.put(k, null)).getMessage().contains("value is null"));
      assertEquals("key is null", assertThrows(NullPointerException.class, () -> store.get(null)).getMessage());
      assertThrows(NullPointerException.class, () -> store.multiGet(Arrays.asList(k, null)));
      assertThrows(NullPointerException.class, () -> store.write(null));
      byte[] bigKey = new byte[P2kv.MAX_KEY_BYTES + 1];
      IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> store.put(bigKey, k));
      assertTrue(e.getMessage().contains("65536 bytes") && e.getMessage().contains("65535"), e.getMessage());
      assertThrows(IllegalArgumentException.class, () -> store.putAsync(bigKey, k));
      assertThrows(IllegalArgumentException.class, () -> new Batch().put(k, new byte[P2kv.MAX_VALUE_BYTES + 1]));
      // A batch of more than MAX_BATCH_BYTES is refused at the call (five 64 MiB values: one array).
      byte[] big = new byte[P2kv.MAX_VALUE_BYTES];
      Batch huge = new Batch();
      for (int i = 0; i < 5; i++) {
        huge.put(Keys.key("huge" + i), big);
      }
      e = assertThrows(IllegalArgumentException.class, () -> store.write(huge));
      assertTrue(e.getMessage().contains("at most " + P2kv.MAX_BATCH_BYTES), e.getMessage());
      assertThrows(IllegalArgumentException.class, () -> store.write(huge, Durability.SYNC));
      assertThrows(IllegalArgumentException.class, () -> store.writeAsync(huge));
      assertThrows(IllegalArgumentException.class, () -> store.writeAsync(huge, Durability.WAL));
      assertNull(store.get(Keys.key("huge0")));
      // Nothing was written by the refused calls.
      assertNull(store.get(k));
      // Keys and values at the limits are fine, and so is the empty key.
      store.put(new byte[P2kv.MAX_KEY_BYTES], new byte[0]);
      assertArrayEquals(new byte[0], store.get(new byte[P2kv.MAX_KEY_BYTES]));
      store.put(new byte[0], k);
      assertArrayEquals(k, store.get(new byte[0]));
    }
  }

  @Test
  void shouldRejectInvalidBuilderSettings() {
    assertThrows(IllegalArgumentException.class, () -> P2kv.builder().shards(0));
    assertThrows(IllegalArgumentException.class, () -> P2kv.builder().maxBatch(0));
    assertThrows(IllegalArgumentException.class, () -> P2kv.builder().queueCapacity(1));
    assertThrows(IllegalArgumentException.class, () -> P2kv.builder().memoryBudgetBytes(1024));
    assertThrows(NullPointerException.class, () -> P2kv.builder().durability(null));
  }

  /** Keys that land on every shard of the store, one each, in shard order. */
  /** One key per shard ({@link #oneKeyPerShard}, prefix "k"), each written with the value "old". */
  private static byte[][] oldOnEveryShard(P2kv store) {
    byte[][] keys = oneKeyPerShard(store, "k");
    for (byte[] k : keys) {
      store.put(k, Keys.key("old"));
    }
    return keys;
  }

  /** A batch that puts {@code value} at every key of {@code keys}. */
  private static Batch batchOf(byte[][] keys, byte[] value) {
    Batch batch = new Batch();
    for (byte[] k : keys) {
      batch.put(k, value);
    }
    return batch;
  }

  static byte[][] oneKeyPerShard(P2kv store, String prefix) {
    byte[][] keys = new byte[store.shardCount()][];
    int found = 0;
    for (int i = 0; found < keys.length; i++) {
      byte[] k = Keys.key(prefix + i);
      int s = store.shardOf(k);
      if (keys[s] == null) {
        keys[s] = k;
        found++;
      }
    }
    return keys;
  }

  @Test
  void shouldRollBackEveryPartOfACrossShardBatchWhenOneShardFails() {
    FaultyEngines engines = new FaultyEngines();
    try (P2kv store = engines.builder(4).open(tmp)) {
      byte[][] keys = oneKeyPerShard(store, "acct");
      for (byte[] k : keys) {
        store.put(k, Keys.key("old"));
      }
      engines.faults.put(2, FaultyEngines.Fault.FAIL_WRITES);
      Batch batch = new Batch();
      for (byte[] k : keys) {
        batch.put(k, Keys.key("new"));
      }
      batch.put(Keys.key("fresh-key"), Keys.key("new"));
      ShardFailedException e = assertThrows(ShardFailedException.class, () -> store.write(batch));
      assertEquals(2, e.shard());
      for (byte[] k : keys) {
        assertArrayEquals(Keys.key("old"), store.get(k), "every shard's part was rolled back");
      }
      assertNull(store.get(Keys.key("fresh-key")), "a key the batch created is gone again");
      CompletionException ce = assertThrows(CompletionException.class, () -> store.writeAsync(batch).join());
      assertInstanceOf(ShardFailedException.class, ce.getCause());
      engines.faults.clear();
      store.write(batch);
      for (byte[] k : keys) {
        assertArrayEquals(Keys.key("new"), store.get(k));
      }
    }
  }

  @Test
  void shouldWriteTheCommitRecordAsDurablyAsTheBatchAsked() {
    FaultyEngines engines = new FaultyEngines(); // a WAL store: its own writes are not fsynced
    try (P2kv store = engines.builder(3).open(tmp)) {
      byte[][] keys = oneKeyPerShard(store, "k");
      Batch batch = batchOf(keys, Keys.key("v"));
      store.write(batch);
      store.write(batch, Durability.SYNC);
      store.writeAsync(batch, Durability.SYNC).join();
      store.write(batch, Durability.WAL);
      assertEquals(List.of("null", "SYNC", "SYNC", "WAL"), List.copyOf(engines.commitRecordDurabilities),
          "a batch acknowledged as fsynced has its commit record fsynced: a crash cannot roll it back");
      for (byte[] k : keys) {
        assertArrayEquals(Keys.key("v"), store.get(k));
      }
    }
  }

  @Test
  void shouldKeepACommittedBatchWholeWhenAShardCannotDeleteItsUndoRecord() {
    FaultyEngines engines = new FaultyEngines();
    byte[][] keys;
    try (P2kv store = engines.builder(3).open(tmp)) {
      keys = oldOnEveryShard(store);
      Batch batch = batchOf(keys, Keys.key("new"));
      // Once the batch is decided, shard 2's writes fail: its part cannot delete its undo record.
      engines.onCommitRecord = () -> engines.faults.put(2, FaultyEngines.Fault.FAIL_WRITES);
      store.write(batch); // committed: acknowledged
      engines.onCommitRecord = null;
      for (byte[] k : keys) {
        assertArrayEquals(Keys.key("new"), store.get(k));
      }
      engines.faults.clear();
    }
    // Reopened, recovery finds shard 2's undo record: with the commit record kept, the batch stays.
    try (P2kv store = P2kv.builder().shards(3).open(tmp)) {
      for (byte[] k : keys) {
        assertArrayEquals(Keys.key("new"), store.get(k), "every shard keeps the committed batch");
      }
    }
  }

  @Test
  void shouldFailTheStoreAndLetRecoveryDecideWhenTheCommitRecordCannotBeWritten() {
    FaultyEngines engines = new FaultyEngines();
    byte[][] keys;
    try (P2kv store = engines.builder(3).open(tmp)) {
      keys = oldOnEveryShard(store);
      engines.faults.put(0, FaultyEngines.Fault.FAIL_COMMIT_RECORD);
      Batch batch = new Batch();
      for (byte[] k : keys) {
        batch.put(k, Keys.key("new"));
      }
      StoreFailedException e = assertThrows(StoreFailedException.class, () -> store.write(batch));
      assertFalse(e.getMessage().contains("io.p2kv.internal"), "no internal class in the message: " + e.getMessage());
      assertTrue(e.getMessage().contains("in doubt") && e.getMessage().contains("open it again"), e.getMessage());
      assertThrows(StoreFailedException.class, () -> store.get(keys[0]));
      assertEquals(P2kv.Health.Status.FAILED, store.health().status());
      assertEquals(e.getMessage(), store.health().failure().getMessage());
      store.close();
      assertEquals(P2kv.Health.Status.CLOSED, store.health().status());
      assertEquals(e.getMessage(), store.health().failure().getMessage(), "a closed store still names its failure");
    }
    try (P2kv store = P2kv.builder().open(tmp)) {
      for (byte[] k : keys) {
        assertArrayEquals(Keys.key("old"), store.get(k), "no commit record on disk: rolled back on open");
      }
      assertEquals(0, store.stats().shards().stream().mapToLong(ShardStats::failedRequests).sum());
    }
  }

  @Test
  void shouldFailFastWithAFullQueueWhenConfigured() throws Exception {
    FaultyEngines engines = new FaultyEngines();
    engines.faults.put(0, FaultyEngines.Fault.BLOCK_WRITES);
    try (P2kv store = engines.builder(1).queueCapacity(4).queueFullPolicy(QueueFullPolicy.FAIL_FAST).open(tmp)) {
      CompletableFuture<Void> first = store.putAsync(Keys.key("first"), Keys.key("v"));
      assertTrue(engines.blocked.await(30, TimeUnit.SECONDS), "worker is inside the blocked write");
      List<CompletableFuture<Void>> queued = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        queued.add(store.putAsync(Keys.key("q" + i), Keys.key("v")));
      }
      CompletableFuture<Void> rejected = store.putAsync(Keys.key("over"), Keys.key("v"));
      CompletionException ce = assertThrows(CompletionException.class, rejected::join);
      assertInstanceOf(QueueFullException.class, ce.getCause());
      assertThrows(QueueFullException.class, () -> store.put(Keys.key("over2"), Keys.key("v")));
      assertEquals(2, store.stats().rejectedOffers());
      engines.faults.put(0, FaultyEngines.Fault.NONE);
      engines.release.countDown();
      first.join();
      queued.forEach(CompletableFuture::join);
      assertNull(store.get(Keys.key("over")), "a rejected request has no effect");
      assertArrayEquals(Keys.key("v"), store.get(Keys.key("q3")));
    }
  }

  /** The first {@code n} keys {@code prefix + i} that fall on {@code shard}. */
  private static List<byte[]> keysOf(P2kv store, int shard, int n, String prefix) {
    List<byte[]> keys = new ArrayList<>();
    for (int i = 0; keys.size() < n; i++) {
      byte[] k = Keys.key(prefix + i);
      if (store.shardOf(k) == shard) {
        keys.add(k);
      }
    }
    return keys;
  }

  /** Waits (with a deadline that only a failure reaches) until {@code done} holds. */
  private static void awaitTrue(String what, java.util.function.BooleanSupplier done) {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (!done.getAsBoolean()) {
      assertTrue(System.nanoTime() < deadline, "timed out waiting until " + what);
      Thread.onSpinWait();
    }
  }

  @Test
  void shouldWakeTheReadersSharingARunWithAMultiGetWhoseOtherPartWasRejected() throws Exception {
    FaultyEngines engines = new FaultyEngines();
    try (P2kv store = engines.builder(2).readPath(ReadPath.WORKER).queueCapacity(4)
        .queueFullPolicy(QueueFullPolicy.FAIL_FAST).open(tmp)) {
      List<byte[]> on0 = keysOf(store, 0, 4, "a");
      List<byte[]> on1 = keysOf(store, 1, 6, "b");
      for (byte[] k : on0) {
        store.put(k, k);
      }
      store.put(on1.get(0), on1.get(0));
      // Both workers block inside a write; shard 1's queue is then filled.
      engines.faults.put(0, FaultyEngines.Fault.BLOCK_WRITES);
      engines.faults.put(1, FaultyEngines.Fault.BLOCK_WRITES);
      CompletableFuture<Void> block0 = store.putAsync(on0.get(3), on0.get(3));
      CompletableFuture<Void> block1 = store.putAsync(on1.get(1), on1.get(1));
      awaitTrue("both workers took their write", () -> store.stats().shards().get(0).queueDepth() == 0
          && store.stats().shards().get(1).queueDepth() == 0);
      List<CompletableFuture<Void>> filling = new ArrayList<>();
      for (int i = 2; i < 6; i++) {
        filling.add(store.putAsync(on1.get(i), on1.get(i)));
      }
      // A multiGet over both shards: its part for shard 0 is queued, the one for shard 1 is refused.
      AtomicReference<Throwable> multiGetFailure = new AtomicReference<>();
      Thread multiGetter = new Thread(() -> {
        try {
          store.multiGet(List.of(on0.get(0), on1.get(0)));
        } catch (Throwable t) {
          multiGetFailure.set(t);
        }
      });
      multiGetter.start();
      awaitTrue("the multiGet's part is queued on shard 0", () -> store.stats().shards().get(0).queueDepth() == 1);
      // Two more readers queue behind it on shard 0 and park: one run will hold all three.
      AtomicReference<byte[]> got1 = new AtomicReference<>();
      AtomicReference<byte[]> got2 = new AtomicReference<>();
      Thread reader1 = new Thread(() -> got1.set(store.get(on0.get(1))));
      reader1.start();
      awaitTrue("the first reader is queued", () -> store.stats().shards().get(0).queueDepth() == 2);
      Thread reader2 = new Thread(() -> got2.set(store.get(on0.get(2))));
      reader2.start();
      awaitTrue("the second reader is queued", () -> store.stats().shards().get(0).queueDepth() == 3);
      awaitTrue("both readers parked", () -> reader1.getState() == Thread.State.WAITING
          && reader2.getState() == Thread.State.WAITING);
      engines.faults.clear();
      engines.release.countDown();
      reader1.join(TimeUnit.SECONDS.toMillis(30));
      reader2.join(TimeUnit.SECONDS.toMillis(30));
      assertFalse(reader1.isAlive() || reader2.isAlive(),
          "the readers in a run with the multiGet's part are woken, although the multiGet failed");
      assertArrayEquals(on0.get(1), got1.get());
      assertArrayEquals(on0.get(2), got2.get());
      multiGetter.join(TimeUnit.SECONDS.toMillis(30));
      assertInstanceOf(QueueFullException.class, multiGetFailure.get(), "the multiGet fails with the refusal");
      block0.join();
      block1.join();
      filling.forEach(CompletableFuture::join);
    }
  }

  @Test
  void shouldRefuseRatherThanStallWhenAShardsOwnWorkerFillsItsQueue() throws Exception {
    try (P2kv store = P2kv.builder().shards(1).queueCapacity(2).memoryBudgetBytes(64L << 20).open(tmp)) {
      CompletableFuture<List<CompletableFuture<Void>>> issued = new CompletableFuture<>();
      store.putAsync(Keys.key("first"), Keys.key("v"), (v, e) -> { // runs on the shard's worker
        List<CompletableFuture<Void>> fs = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
          fs.add(store.putAsync(Keys.key("from-callback-" + i), Keys.key("v")));
        }
        issued.complete(fs);
      });
      List<CompletableFuture<Void>> fs = issued.get(30, TimeUnit.SECONDS); // waiting, the worker never came back
      int refused = 0;
      for (int i = 0; i < fs.size(); i++) {
        try {
          fs.get(i).get(30, TimeUnit.SECONDS);
          assertArrayEquals(Keys.key("v"), store.get(Keys.key("from-callback-" + i)));
        } catch (java.util.concurrent.ExecutionException e) {
          QueueFullException full = assertInstanceOf(QueueFullException.class, e.getCause());
          assertTrue(full.getMessage().contains("own worker"), full.getMessage());
          assertNull(store.get(Keys.key("from-callback-" + i)), "a refused write has no effect");
          refused++;
        }
      }
      assertEquals(fs.size() - 2, refused, "the two that fit the queue were written, the rest refused");
      store.put(Keys.key("after"), Keys.key("v"));
      assertArrayEquals(Keys.key("v"), store.get(Keys.key("after")), "the shard goes on");
    }
  }

  @Test
  void shouldFailABackupWhoseCheckpointCannotBeReleased() {
    FaultyEngines engines = new FaultyEngines();
    try (P2kv store = engines.builder(2).open(tmp.resolve("store"))) {
      store.put(Keys.key("a"), Keys.key("v"));
      engines.faults.put(1, FaultyEngines.Fault.FAIL_CHECKPOINT_RELEASE);
      ShardFailedException e = assertThrows(ShardFailedException.class, () -> store.backup(tmp.resolve("backups")));
      assertEquals(1, e.shard());
      assertTrue(String.valueOf(e.getMessage()).contains("injected") || String.valueOf(e.getCause()).contains("injected"), e.toString());
      assertEquals(List.of(), P2kv.listBackups(tmp.resolve("backups")), "no backup was published");
      engines.faults.clear();
      store.backup(tmp.resolve("backups"));
      assertEquals(1, P2kv.listBackups(tmp.resolve("backups")).size());
      assertArrayEquals(Keys.key("v"), store.get(Keys.key("a")));
    }
  }

  /** Live worker threads of p2kv stores in this JVM. */
  private static List<Thread> liveWorkers() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith("p2kv-shard-")).toList();
  }

  @Test
  void shouldStopWhatAnOpenStartedWhenItFailsAtTheEnd() {
    FaultyEngines engines = new FaultyEngines();
    try (P2kv store = engines.builder(2).open(tmp)) {
      store.put(Keys.key("kept"), Keys.key("v"));
    }
    List<Thread> before = liveWorkers();
    engines.faults.put(1, FaultyEngines.Fault.FAIL_START_COMPACTIONS);
    P2kvException e = assertThrows(P2kvException.class, () -> engines.builder(2).open(tmp));
    assertTrue(String.valueOf(e.getMessage()).contains("injected") || String.valueOf(e.getCause()).contains("injected"), e.toString());
    List<Thread> left = new ArrayList<>(liveWorkers());
    left.removeAll(before);
    assertEquals(List.of(), left, "the failed open stopped the workers it had started");
    engines.faults.clear();
    try (P2kv store = engines.builder(2).open(tmp)) { // unlocked, engines closed: it opens again
      assertArrayEquals(Keys.key("v"), store.get(Keys.key("kept")));
    }
  }

  @Test
  void shouldMakeCallersWaitOnAFullQueueByDefault() throws Exception {
    FaultyEngines engines = new FaultyEngines();
    engines.faults.put(0, FaultyEngines.Fault.BLOCK_WRITES);
    try (P2kv store = engines.builder(1).queueCapacity(2).open(tmp)) {
      store.putAsync(Keys.key("first"), Keys.key("v"));
      assertTrue(engines.blocked.await(30, TimeUnit.SECONDS));
      store.putAsync(Keys.key("a"), Keys.key("v"));
      store.putAsync(Keys.key("b"), Keys.key("v"));
      CountDownLatch entered = new CountDownLatch(1);
      CompletableFuture<Void> waiting = CompletableFuture.runAsync(() -> {
        entered.countDown();
        store.put(Keys.key("c"), Keys.key("v"));
      });
      entered.await();
      // The caller found the queue full (counted) and is still waiting, not failed.
      awaitTrue("the caller found the queue full", () -> store.stats().rejectedOffers() > 0);
      assertEquals(1, store.stats().rejectedOffers());
      assertTrue(!waiting.isDone(), "the caller waits while the queue is full");
      engines.faults.put(0, FaultyEngines.Fault.NONE);
      engines.release.countDown();
      waiting.get(30, TimeUnit.SECONDS);
      assertArrayEquals(Keys.key("v"), store.get(Keys.key("c")));
    }
  }

  @Test
  void shouldFailOnlyTheAffectedShardsRequestsOnAnEngineError() {
    FaultyEngines engines = new FaultyEngines();
    try (P2kv store = engines.builder(4).open(tmp)) {
      engines.faults.put(2, FaultyEngines.Fault.FAIL_WRITES);
      int failed = 0;
      int ok = 0;
      for (int i = 0; i < 200; i++) {
        byte[] k = Keys.key("k" + i);
        if (store.shardOf(k) == 2) {
          ShardFailedException e = assertThrows(ShardFailedException.class, () -> store.put(k, k));
          assertEquals(2, e.shard());
          assertTrue(e.getMessage().contains("shard 2") && e.getMessage().contains("No space left"), e.getMessage());
          assertNull(store.get(k), "a failed write is not applied");
          failed++;
        } else {
          store.put(k, k);
          assertArrayEquals(k, store.get(k));
          ok++;
        }
      }
      assertTrue(failed > 0 && ok > 0);
      // The store stays open; once the engine recovers the shard works again.
      engines.faults.remove(2);
      for (int i = 0; i < 200; i++) {
        byte[] k = Keys.key("k" + i);
        store.put(k, k);
        assertArrayEquals(k, store.get(k));
      }
    }
  }

  @Test
  void shouldFailTheWholeStoreWhenAWorkerDies() {
    FaultyEngines engines = new FaultyEngines();
    P2kv store = engines.builder(2).open(tmp);
    byte[] k0 = null;
    byte[] k1 = null;
    for (int i = 0; k0 == null || k1 == null; i++) {
      byte[] k = Keys.key("k" + i);
      if (store.shardOf(k) == 0) {
        k0 = k;
      } else {
        k1 = k;
      }
    }
    store.put(k0, k0);
    engines.faults.put(1, FaultyEngines.Fault.DIE_ON_WRITE);
    byte[] dying = k1;
    StoreFailedException e = assertThrows(StoreFailedException.class, () -> store.put(dying, dying));
    assertTrue(e.getMessage().contains("shard 1") && e.getMessage().contains("open it again"), e.getMessage());
    assertEquals(P2kv.Health.Status.FAILED, store.health().status());
    byte[] other = k0;
    assertThrows(StoreFailedException.class, () -> store.put(other, other), "every later call fails");
    assertThrows(StoreFailedException.class, () -> store.get(other));
    assertTrue(store.putAsync(other, other).isCompletedExceptionally());
    store.close();
    assertThrows(StoreClosedException.class, () -> store.get(other));
    engines.faults.clear();
    try (P2kv reopened = P2kv.builder().open(tmp)) {
      assertArrayEquals(k0, reopened.get(k0), "writes acknowledged before the failure survive");
      assertNull(reopened.get(k1));
    }
  }

  @Test
  void shouldCompleteOrFailEveryRequestWhenClosingUnderLoad() throws Exception {
    P2kv store = P2kv.builder().shards(4).queueCapacity(64).open(tmp);
    int threads = 16;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    AtomicInteger acknowledged = new AtomicInteger();
    AtomicReference<Throwable> unexpected = new AtomicReference<>();
    CountDownLatch running = new CountDownLatch(threads);
    List<Future<?>> done = new ArrayList<>();
    List<byte[]> acked = java.util.Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < threads; t++) {
      int thread = t;
      done.add(pool.submit(() -> {
        running.countDown();
        for (int i = 0; ; i++) {
          byte[] k = Keys.key("t" + thread + "-" + i);
          try {
            if (i % 2 == 0) {
              store.put(k, k);
              acked.add(k);
            } else {
              store.putAsync(k, k).join();
              acked.add(k);
            }
            acknowledged.incrementAndGet();
          } catch (StoreClosedException | CompletionException e) {
            if (e instanceof CompletionException && !(e.getCause() instanceof StoreClosedException)) {
              unexpected.set(e);
            }
            return;
          } catch (Throwable e) {
            unexpected.set(e);
            return;
          }
        }
      }));
    }
    running.await();
    while (acknowledged.get() < 2000) {
      Thread.onSpinWait();
    }
    store.close();
    for (Future<?> f : done) {
      f.get(60, TimeUnit.SECONDS); // none hangs
    }
    pool.shutdown();
    assertNull(unexpected.get());
    try (P2kv reopened = P2kv.builder().open(tmp)) {
      for (byte[] k : acked) {
        assertArrayEquals(k, reopened.get(k), "every acknowledged write is there");
      }
    }
  }

  @Test
  void shouldRefuseABlockingCallFromACallback() {
    try (P2kv store = P2kv.builder().shards(1).open(tmp)) {
      CompletableFuture<Throwable> seen = new CompletableFuture<>();
      store.putAsync(Keys.key("a"), Keys.key("b"), (v, e) -> {
        try {
          store.put(Keys.key("c"), Keys.key("d"));
          seen.complete(null);
        } catch (Throwable t) {
          seen.complete(t);
        }
      });
      Throwable t = seen.join();
      assertInstanceOf(IllegalStateException.class, t);
      assertTrue(t.getMessage().contains("deadlock"), t.getMessage());
      assertArrayEquals(Keys.key("b"), store.get(Keys.key("a")));
    }
  }
}
