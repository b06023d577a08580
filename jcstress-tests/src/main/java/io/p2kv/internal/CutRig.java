package io.p2kv.internal;

import io.p2kv.IdleMode;
import io.p2kv.Pinning;
import io.p2kv.QueueFullPolicy;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineSnapshot;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.BooleanSupplier;
import org.agrona.concurrent.AgentInvoker;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Two real shards ({@link Shard}, {@link ShardWorker}, the MPSC queue, {@link
 * CrossShardCoordinator}) over in-memory {@link RecordingEngine}s, for the jcstress tests of the cut
 * barrier ({@link Cut}). jcstress runs no more actors than there are CPUs, and the machines this
 * runs on may have 2, so there are two actors, one per shard: each steps its shard's worker
 * through an {@link AgentInvoker} (the worker's own thread in all but name), and between steps
 * plays a client of the store: one writes, the other starts one snapshot cut. So the two workers
 * meet at the barrier from two threads, as in the store. The arbiter reads the cut's views.
 *
 * <p>Nothing here waits without a limit: an actor that has waited {@value #STUCK_SECONDS} s for
 * something that will never come (a deadlocked barrier) gives up and marks the rig {@link #stuck},
 * which the tests report as a forbidden outcome instead of hanging jcstress.
 */
final class CutRig {
  static final long STUCK_SECONDS = 10;
  static final byte[] ONE = {1};
  private static final Partitioner PARTITIONER = new Partitioner(2);
  /** A key of shard 0 and one of shard 1 under the store's hash partitioner with 2 shards. */
  static final byte[] KEY_ON_0 = keyOn(0);
  static final byte[] KEY_ON_1 = keyOn(1);

  private final StoreState state = new StoreState("jcstress");
  private final Shard[] shards = new Shard[2];
  private final AgentInvoker[] workers = new AgentInvoker[2];
  final CrossShardCoordinator coordinator;
  /** Each shard's view, set by the cut's action on that shard's worker. */
  private final AtomicReferenceArray<EngineSnapshot> views = new AtomicReferenceArray<>(2);
  final Cut<EngineSnapshot> cut = new Cut<>(2, this::view, (view, shard) -> view.close());
  volatile boolean stuck;

  CutRig() {
    StripeVersions versions = new StripeVersions(2);
    for (int i = 0; i < 2; i++) {
      shards[i] = new Shard(
          i,
          new RecordingEngine(),
          state,
          new ShardConfig(16, QueueFullPolicy.WAIT, IdleMode.BUSY_SPIN, 0, 8, 1 << 20),
          new CpuPinning(Pinning.NEVER, 1, 1, "jcstress"),
          null,
          null,
          versions,
          null,
          new WorkerSignal());
      workers[i] = new AgentInvoker(t -> stuck = true, null, shards[i].worker);
    }
    ShardSet set = new ShardSet(shards, PARTITIONER);
    coordinator = new CrossShardCoordinator(set, state, new GsnSequence(shards[0].engine, 0));
  }

  private static byte[] keyOn(int shard) {
    for (int i = 0; ; i++) {
      byte[] key = {(byte) 'k', (byte) i};
      if (PARTITIONER.shardOf(key) == shard) {
        return key;
      }
    }
  }

  private EngineSnapshot view(int shard, Engine engine) {
    EngineSnapshot v = engine.snapshot();
    views.set(shard, v);
    return v;
  }

  Shard shard(int i) {
    return shards[i];
  }

  /**
   * The arbiter's result: whether the cut holds {@link #KEY_ON_0} (in shard 0's view) and {@link
   * #KEY_ON_1} (in shard 1's view), 1 or 0 each; "-1, -1" if the rig got stuck.
   */
  void result(II_Result r) {
    EngineSnapshot v0 = views.get(0);
    EngineSnapshot v1 = views.get(1);
    if (stuck || v0 == null || v1 == null) {
      r.r1 = -1;
      r.r2 = -1;
      return;
    }
    r.r1 = v0.get(KEY_ON_0) != null ? 1 : 0;
    r.r2 = v1.get(KEY_ON_1) != null ? 1 : 0;
  }

  /** Whether shard {@code shard}'s worker has taken its view of the cut. */
  boolean hasView(int shard) {
    return views.get(shard) != null;
  }

  /**
   * Steps shard {@code shard}'s worker until {@code condition} holds, or until the rig is stuck
   * (this or the other actor waited {@value #STUCK_SECONDS} s).
   */
  void stepUntil(int shard, BooleanSupplier condition) {
    AgentInvoker worker = workers[shard];
    if (!worker.isStarted()) {
      worker.start();
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STUCK_SECONDS);
    while (!condition.getAsBoolean()) {
      if (worker.invoke() == 0) {
        if (stuck || System.nanoTime() - deadline > 0) {
          stuck = true;
          return;
        }
        Thread.yield();
      }
    }
  }
}
