package io.p2kv.internal;

import io.p2kv.Batch;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineException;
import java.util.List;

/**
 * Not thread-safe: one shard worker's side of cross-shard atomic batches (p2KVS section 4.5; the
 * protocol is described in {@link CrossShardTxn}). Runs only in the shard's worker role (the worker
 * thread, or a caller holding the role: {@link WorkerSignal}), one thread at a time.
 *
 * <ol>
 *   <li>{@link #prepare}: write the part's operations together with an undo record in one atomic
 *       engine write, then vote (complete the part request). From then on the shard is
 *       <em>waiting</em>: its worker takes nothing from the queue, so an undo never overwrites a
 *       later write.
 *   <li>{@link #tryFinish}, at each duty cycle while waiting: nothing until the coordinator has
 *       decided; then drop the undo record (commit) or write the old values back and drop it
 *       (abort), and stop waiting.
 * </ol>
 */
final class CrossShardParticipant {
  private final int shard;
  private final Engine engine;
  private final ShardWriter writer;
  private final WorkerCounters counters;
  private final WorkerSignal signal;
  /**
   * The prepared part awaiting its batch's decision, or null. Volatile: the worker's {@code
   * hasWork} reads it off the role (see {@link WorkerSignal}).
   */
  private volatile CrossShardTxn waitingFor;
  private byte[] undo;
  /** The prepared part's operations, whose keys a rollback changes. */
  private List<Batch.Op> preparedOps;

  CrossShardParticipant(int shard, Engine engine, ShardWriter writer, WorkerCounters counters, WorkerSignal signal) {
    this.shard = shard;
    this.engine = engine;
    this.writer = writer;
    this.counters = counters;
    this.signal = signal;
  }

  /**
   * Prepares a part and votes. If the part cannot be prepared it fails (a vote to abort) and the
   * shard does not wait.
   */
  void prepare(Request.CrossShardPart part) {
    CrossShardTxn txn = part.txn;
    byte[] record;
    try {
      record = UndoRecord.capture(txn.gsn, part.ops, engine);
      try {
        writer.add(part.ops);
        writer.putMeta(txn.undoKey(), record);
      } catch (EngineException e) {
        writer.discard();
        throw e;
      }
      writer.commit(part.durability);
    } catch (EngineException e) {
      counters.failed(1);
      part.fail(Errors.shardFailed(shard, e));
      return;
    } catch (IllegalArgumentException tooLarge) { // from capture: nothing was written
      counters.failed(1);
      part.fail(tooLarge);
      return;
    }
    counters.wrote(part.ops.size(), part.bytes, false);
    counters.crossShardParts++;
    undo = record;
    preparedOps = part.ops;
    waitingFor = txn;
    txn.listen(part.part, signal);
    part.complete(null); // the vote; the last vote decides, maybe on this thread
  }

  /** Whether this shard holds a prepared part whose batch is not finished here. */
  boolean isWaiting() {
    return waitingFor != null;
  }

  /** {@link #waitState}: no prepared part. */
  static final int NOT_WAITING = 0;
  /** {@link #waitState}: a prepared part whose batch is not decided yet. */
  static final int UNDECIDED = 1;
  /** {@link #waitState}: a prepared part whose batch is decided, to finish. */
  static final int DECIDED = 2;

  /**
   * {@link #NOT_WAITING}, {@link #UNDECIDED} or {@link #DECIDED}, from one read of the prepared
   * part (safe from the idle strategy, off the role).
   */
  int waitState() {
    CrossShardTxn txn = waitingFor;
    return txn == null ? NOT_WAITING : txn.isDecided() ? DECIDED : UNDECIDED;
  }

  /**
   * Finishes the waiting part if its batch is decided.
   *
   * @return true if the shard no longer waits
   */
  boolean tryFinish() {
    CrossShardTxn txn = waitingFor;
    int decision = txn.decision();
    if (decision == CrossShardTxn.PENDING) {
      return false;
    }
    byte[] record = undo;
    List<Batch.Op> ops = preparedOps;
    waitingFor = null;
    undo = null;
    preparedOps = null;
    if (decision == CrossShardTxn.COMMIT) {
      boolean undoLeft = false;
      try {
        writer.deleteMeta(txn.undoKey());
        writer.commit();
      } catch (EngineException e) {
        // The batch is committed; recovery drops the undo record later, finding the commit record
        // (which the batch keeps, since this part's undo record is left).
        undoLeft = true;
      }
      txn.finished(undoLeft);
    } else if (decision == CrossShardTxn.ABORT) {
      // A failed rollback would leave a torn batch visible: the exception kills the worker (the
      // store fails) and recovery rolls the part back on reopen. The caller hears of it either way.
      try {
        UndoRecord.addRollback(record, writer.pending());
        for (Batch.Op op : ops) {
          writer.invalidate(op.key()); // the rollback bypasses the writer's put and delete
        }
        writer.deleteMeta(txn.undoKey());
        writer.commit();
      } finally {
        txn.finished(false);
      }
    }
    // UNKNOWN: the commit record's fate is unknown; the store is failed; recovery decides.
    return true;
  }
}
