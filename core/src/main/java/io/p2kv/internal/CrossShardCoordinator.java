package io.p2kv.internal;

import io.p2kv.Batch;
import io.p2kv.internal.engine.EngineException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The caller's side of cross-shard atomic batches (p2KVS section 4.5; the protocol is in {@link
 * CrossShardTxn}): draws each batch's global sequence number and enqueues its per-shard parts under
 * one lock, so every shard sees cross-shard parts in GSN order and waiting workers cannot deadlock.
 */
final class CrossShardCoordinator {
  private final ShardSet shards;
  private final StoreState state;
  /** Orders cross-shard batches: parts are enqueued under it, in GSN order. */
  private final ReentrantLock lock = new ReentrantLock();
  private final GsnSequence gsns;

  CrossShardCoordinator(ShardSet shards, StoreState state, GsnSequence gsns) {
    this.shards = shards;
    this.state = state;
    this.gsns = gsns;
  }

  /**
   * The shard of each op, or null if they all share one (the common, cheap case: a single-shard
   * batch is one engine write and needs no coordination).
   */
  int[] shardsOf(List<Batch.Op> ops) {
    int first = shards.indexOf(ops.get(0).key());
    int[] out = null;
    for (int i = 1; i < ops.size(); i++) {
      int s = shards.indexOf(ops.get(i).key());
      if (out == null && s != first) {
        out = new int[ops.size()];
        Arrays.fill(out, 0, i, first);
      }
      if (out != null) {
        out[i] = s;
      }
    }
    return out;
  }

  /**
   * Starts a cross-shard batch: splits it per shard in batch order and enqueues the parts under
   * the lock, in GSN order. A part that cannot be enqueued fails, which aborts the batch.
   *
   * @param user the caller's request, completed by the batch's {@link CrossShardTxn}; never queued
   * @param ops the batch's operations
   * @param shardOfOp the shard of each operation, from {@link #shardsOf}
   * @param durability the parts' durability, or null for the store's
   */
  void start(Request user, List<Batch.Op> ops, int[] shardOfOp, io.p2kv.Durability durability) {
    int n = shards.count();
    List<List<Batch.Op>> perShard = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      perShard.add(null);
    }
    for (int i = 0; i < ops.size(); i++) {
      List<Batch.Op> l = perShard.get(shardOfOp[i]);
      if (l == null) {
        l = new ArrayList<>();
        perShard.set(shardOfOp[i], l);
      }
      l.add(ops.get(i));
    }
    int[] touched = new int[n];
    int parts = 0;
    for (int s = 0; s < n; s++) {
      if (perShard.get(s) != null) {
        touched[parts++] = s;
      }
    }
    Shard[] targets = new Shard[parts];
    for (int j = 0; j < parts; j++) {
      targets[j] = shards.get(touched[j]);
    }
    lock.lock();
    try {
      state.checkOpen();
      long gsn;
      try {
        gsn = gsns.next();
      } catch (EngineException e) {
        throw Errors.shardFailed(0, e);
      }
      CrossShardTxn txn = new CrossShardTxn(gsn, parts, shards.get(0).engine, user, state, durability);
      Request.CrossShardPart[] requests = new Request.CrossShardPart[parts];
      for (int j = 0; j < parts; j++) {
        List<Batch.Op> partOps = perShard.get(touched[j]);
        requests[j] = new Request.CrossShardPart(partOps, payloadBytes(partOps), txn, j, durability);
      }
      submitAll(targets, requests);
    } finally {
      lock.unlock();
    }
  }

  /**
   * Starts a consistent cut: enqueues its barrier on every shard under the lock, so that every
   * cross-shard batch's parts are all ahead of the barriers or all behind them (see {@link Cut}).
   * A barrier that cannot be enqueued fails, which cancels the cut.
   *
   * @param cut the cut
   */
  void startCut(Cut<?> cut) {
    startOrdered(shards.all(), cut.parts());
  }

  /**
   * Enqueues {@code requests[j]} on {@code targets[j]} under the lock, as a cut's barriers are: on
   * every shard, each cross-shard batch and each cut is ahead of all of them or behind all of them
   * (the parts of a range delete). A request that cannot be enqueued fails, and so do the rest.
   *
   * @throws io.p2kv.P2kvException if the store is not open (nothing was enqueued)
   */
  void startOrdered(Shard[] targets, Request[] requests) {
    lock.lock();
    try {
      state.checkOpen();
      submitAll(targets, requests);
    } finally {
      lock.unlock();
    }
  }

  /** Enqueues requests[j] on targets[j], in order; if one fails, it and the rest fail. */
  private void submitAll(Shard[] targets, Request[] requests) {
    for (int j = 0; j < requests.length; j++) {
      try {
        targets[j].submit(requests[j]);
      } catch (RuntimeException e) {
        for (int k = j; k < requests.length; k++) {
          requests[k].fail(e);
        }
        return;
      }
    }
  }

  static long payloadBytes(List<Batch.Op> ops) {
    long bytes = 0;
    for (Batch.Op op : ops) {
      bytes += op.key().length + (op.isDelete() ? 0 : op.value().length);
    }
    return bytes;
  }
}
