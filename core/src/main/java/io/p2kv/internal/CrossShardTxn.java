package io.p2kv.internal;

import io.p2kv.Durability;
import io.p2kv.StoreFailedException;
import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * One cross-shard atomic batch in flight: the coordinator of its per-shard parts (p2KVS section
 * 4.5, with undo records in place of dropping log records, which stock RocksDB cannot do).
 *
 * <h2>Protocol</h2>
 * <ol>
 *   <li>The caller takes the store's cross-shard lock, draws the batch's GSN and enqueues one part
 *       per shard, so every shard sees cross-shard parts in GSN order.
 *   <li>Prepare ({@link CrossShardParticipant}): each shard's worker reads the old values of its
 *       keys and writes, in one atomic engine batch, the part's operations plus an undo record;
 *       then it votes (completes its part request) and waits for the decision without executing
 *       anything else: its duty cycles return no work, and its idle strategy waits.
 *   <li>Decide: the last vote decides. All prepared: write the commit record on shard 0 (as
 *       durably as the store's writes, or as the batch's own durability where that asks for more,
 *       so that a batch acknowledged as durable is), decide COMMIT and complete the caller's request. Any part failed or was never enqueued:
 *       decide ABORT. Deciding wakes every waiting worker through its {@link WorkerSignal}.
 *   <li>Finish: on COMMIT each worker deletes its undo record; the last one deletes the commit
 *       record. On ABORT each prepared worker writes the old values back and deletes its undo
 *       record atomically; when the last has, the caller's request fails with the first cause.
 * </ol>
 * A crash at any point leaves undo records, and maybe the commit record; {@link
 * CrossShardRecovery} finishes the job on open.
 *
 * <h2>Why workers wait</h2>
 * A prepared shard executes nothing else until the decision, so an undo never overwrites a later
 * write. Waits cannot deadlock: parts are enqueued under one lock in GSN order, so every worker
 * waits on the oldest undecided batch, whose parts are all already queued ahead of anything newer.
 *
 * <h2>Failure of the commit write</h2>
 * If writing the commit record fails, whether it reached the disk is unknown: the store is failed
 * (workers leave their undo records in place) and reopening decides by what is on disk.
 */
final class CrossShardTxn implements Request.Listener {
  static final int PENDING = 0;
  static final int COMMIT = 1;
  static final int ABORT = 2;
  static final int UNKNOWN = 3;

  final long gsn;
  private final int parts;
  private final Engine commitLog;
  private final Request user;
  private final StoreState store;
  /** The batch's own durability (its parts' and its commit record's at least), or null: the store's. */
  private final Durability durability;
  private final AtomicInteger votes = new AtomicInteger();
  private final AtomicInteger prepared = new AtomicInteger();
  private final AtomicInteger finishing = new AtomicInteger();
  private final AtomicReferenceArray<WorkerSignal> waiting;
  private volatile Throwable abortCause;
  /** Whether a committed part's undo record could not be deleted (see {@link #finished}). */
  private volatile boolean undoRecordsLeft;
  private volatile int decision = PENDING;

  CrossShardTxn(long gsn, int parts, Engine commitLog, Request user, StoreState store, Durability durability) {
    this.durability = durability;
    this.gsn = gsn;
    this.parts = parts;
    this.commitLog = commitLog;
    this.user = user;
    this.store = store;
    this.waiting = new AtomicReferenceArray<>(parts);
  }

  byte[] undoKey() {
    return UndoRecord.key(UndoRecord.UNDO, gsn);
  }

  /**
   * A prepared part's worker waits for the decision: wake it through {@code signal} once decided.
   * Called before the part votes, so the decision cannot be missed.
   */
  void listen(int part, WorkerSignal signal) {
    waiting.set(part, signal);
  }

  /** A part's vote: its request completed (prepared) or failed (on any path, so none is lost). */
  @Override
  public void onComplete(Request part, Object result, Throwable error) {
    if (error == null) {
      prepared.incrementAndGet();
    } else if (abortCause == null) {
      abortCause = error;
    }
    if (votes.incrementAndGet() == parts) {
      decide();
    }
  }

  private void decide() {
    int d;
    if (abortCause == null) {
      try {
        commitLog.putMeta(UndoRecord.key(UndoRecord.COMMIT, gsn), new byte[0], durability);
        d = COMMIT;
      } catch (EngineException e) {
        StoreFailedException failure = store.commitInDoubt(e);
        abortCause = failure;
        d = UNKNOWN;
      }
    } else {
      d = ABORT;
    }
    finishing.set(prepared.get());
    decision = d;
    if (d == COMMIT) {
      user.complete(null);
    } else if (d == UNKNOWN || prepared.get() == 0) {
      user.fail(abortCause);
    }
    for (int i = 0; i < parts; i++) {
      WorkerSignal s = waiting.get(i);
      if (s != null) {
        s.signal();
      }
    }
  }

  /**
   * The decision so far.
   *
   * @return {@link #PENDING}, {@link #COMMIT}, {@link #ABORT} (roll back) or {@link #UNKNOWN}
   *     (leave the undo record for recovery)
   */
  int decision() {
    return decision;
  }

  boolean isDecided() {
    return decision != PENDING;
  }

  /**
   * A prepared part finished its cleanup (commit) or rollback (abort).
   *
   * @param undoLeft whether the part's undo record could not be deleted (commit): then the commit
   *     record stays, or a reopen would take the part for uncommitted and roll it back alone
   */
  void finished(boolean undoLeft) {
    if (undoLeft) {
      undoRecordsLeft = true;
    }
    if (finishing.decrementAndGet() == 0) {
      if (decision == COMMIT) {
        if (undoRecordsLeft) {
          return; // recovery deletes it with the undo records left, keeping the batch
        }
        try {
          commitLog.deleteMeta(UndoRecord.key(UndoRecord.COMMIT, gsn));
        } catch (EngineException e) {
          // Harmless: recovery deletes commit records without undo records.
        }
      } else {
        user.fail(abortCause);
      }
    }
  }
}
