package io.p2kv.internal;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.p2kv.Batch;
import java.util.List;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The cut's atomicity guarantee ({@link Cut}): a cross-shard batch is in the cut entirely or not
 * at all. Two real shard workers, one per actor ({@link CutRig}); the first actor also writes one
 * cross-shard batch, a key on shard 0 and a key on shard 1, through {@link CrossShardCoordinator}
 * (prepare, vote, decide, as in the store); the second starts a snapshot cut concurrently. The
 * result is (shard 0's key in the cut, shard 1's key in the cut).
 *
 * <p>The barrier parts are enqueued under the lock that orders the batch's parts, so the batch is
 * ahead of the barrier on both shards or behind it on both, and a worker takes its barrier only
 * once the part ahead of it is decided. (Checked: with the barriers enqueued outside the lock and
 * workers not waiting at them, a 2 s run on 2 CPUs saw half batches in 6,581 of 151,530 samples.
 * With the barriers outside the lock but the waiting intact, a batch whose part is queued ahead of
 * one shard's barrier and behind the other's would deadlock instead, which the rig reports as
 * "-1, -1"; not run, since each such sample takes the rig's {@value CutRig#STUCK_SECONDS} s.)
 */
@JCStressTest
@Outcome(id = "0, 0", expect = ACCEPTABLE, desc = "The batch is not in the cut.")
@Outcome(id = "1, 1", expect = ACCEPTABLE, desc = "The whole batch is in the cut.")
@Outcome(id = "1, 0", expect = FORBIDDEN, desc = "Half the batch (shard 0's part) is in the cut.")
@Outcome(id = "0, 1", expect = FORBIDDEN, desc = "Half the batch (shard 1's part) is in the cut.")
@Outcome(id = "-1, -1", expect = FORBIDDEN, desc = "Stuck: a worker or the writer waited " + CutRig.STUCK_SECONDS + " s (deadlock).")
@State
public class CutAtomicBatchTest {
  private static final List<Batch.Op> OPS = List.copyOf(new Batch().put(CutRig.KEY_ON_0, CutRig.ONE).put(CutRig.KEY_ON_1, CutRig.ONE).ops());
  private static final int[] SHARD_OF_OP = {0, 1};

  private final CutRig rig = new CutRig();
  private final FutureListener<Void> batch = new FutureListener<>();

  /** Shard 0's worker, and the writer of the batch. */
  @Actor
  public void writer() {
    rig.coordinator.start(new Request.BatchWrite(OPS, 4, null, batch), OPS, SHARD_OF_OP, null);
    rig.stepUntil(0, () -> batch.isDone() && rig.hasView(0));
  }

  /** Shard 1's worker, and the cutter. */
  @Actor
  public void cutter() {
    rig.coordinator.startCut(rig.cut);
    rig.stepUntil(1, () -> batch.isDone() && rig.hasView(1));
  }

  @Arbiter
  public void arbiter(II_Result r) {
    rig.result(r);
  }
}
