package io.p2kv.internal;

import io.p2kv.internal.engine.Engine;
import io.p2kv.internal.engine.EngineBatch;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Resolves the cross-shard batches a crash left in flight, on open, before any worker starts
 * (p2KVS section 4.5). A batch whose commit record exists is complete on every shard (the commit
 * record is written only after every part, with its undo record, is durable): its undo records are
 * dropped. A batch without a commit record is rolled back on every shard that has its part: the
 * undo record's old values are written back and the undo record deleted, atomically. No other
 * write can have touched those keys after the part was applied, because a shard's worker waits
 * for the batch's decision before it executes anything else. Then the commit records go.
 */
final class CrossShardRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(CrossShardRecovery.class);

  private CrossShardRecovery() {}

  /**
   * Recovers and returns the highest GSN seen in any record (0 if none).
   *
   * @param engines every shard's engine, shard 0 holding the commit records
   * @param storeName for the log
   */
  static long recover(List<Engine> engines, String storeName) {
    Engine commitLog = engines.get(0);
    List<byte[][]> commits = commitLog.scanMeta(new byte[] {UndoRecord.COMMIT});
    Set<Long> committed = new HashSet<>();
    long maxSeen = 0;
    for (byte[][] kv : commits) {
      long gsn = UndoRecord.gsnOf(kv[0]);
      committed.add(gsn);
      maxSeen = Math.max(maxSeen, gsn);
    }
    int rolledBack = 0;
    int completed = 0;
    for (Engine e : engines) {
      try (EngineBatch batch = e.newBatch()) {
        for (byte[][] kv : e.scanMeta(new byte[] {UndoRecord.UNDO})) {
          long gsn = UndoRecord.gsnOf(kv[0]);
          maxSeen = Math.max(maxSeen, gsn);
          if (committed.contains(gsn)) {
            completed++;
          } else {
            UndoRecord.addRollback(kv[1], batch);
            rolledBack++;
          }
          batch.deleteMeta(kv[0]);
          e.write(batch);
        }
      }
    }
    for (byte[][] kv : commits) {
      commitLog.deleteMeta(kv[0]);
    }
    if (rolledBack + completed > 0) {
      LOG.warn(
          "p2kv store {}: recovered cross-shard batches left in flight by a crash: {} shard parts rolled back, {} completed",
          storeName, rolledBack, completed);
    }
    return maxSeen;
  }
}
