package io.p2kv.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.Batch;
import io.p2kv.internal.engine.Engine;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Recovery from each state a crash can leave a cross-shard batch in, built by hand on in-memory
 * engines: prepared on some shards without a commit record (roll back), prepared everywhere with
 * a commit record (keep), partly cleaned up after commit (keep).
 */
class CrossShardRecoveryTest {
  private static byte[] b(String s) {
    return s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
  }

  /** Writes a part the way a worker prepares it: old values captured, ops + undo atomically. */
  private static void prepare(Engine e, long gsn, Batch.Op... ops) {
    List<Batch.Op> list = List.of(ops);
    byte[] undo = UndoRecord.capture(gsn, list, e);
    try (ShardWriter writer = new ShardWriter(e, null, null, null, 0)) {
      writer.add(list);
      writer.putMeta(UndoRecord.key(UndoRecord.UNDO, gsn), undo);
      writer.commit();
    }
  }

  @Test
  void shouldRollBackAPartWithoutACommitRecordToTheExactOldValues() {
    RecordingEngine s0 = new RecordingEngine();
    RecordingEngine s1 = new RecordingEngine();
    s1.put(b("a"), b("old-a"));
    // Shard 1 prepared (put a, delete-absent b, put c twice); shard 0 never got its part.
    prepare(s1, 7, new Batch.Op(b("a"), b("new-a")), new Batch.Op(b("b"), null), new Batch.Op(b("c"), b("c1")), new Batch.Op(b("c"), b("c2")));
    assertArrayEquals(b("c2"), s1.get(b("c")));

    long maxGsn = CrossShardRecovery.recover(List.of(s0, s1), "test");

    assertEquals(7, maxGsn);
    assertArrayEquals(b("old-a"), s1.get(b("a")));
    assertNull(s1.get(b("b")));
    assertNull(s1.get(b("c")), "a key the batch created is removed");
    assertTrue(s1.scanMeta(new byte[] {UndoRecord.UNDO}).isEmpty());
  }

  @Test
  void shouldKeepACommittedBatchAndDropItsRecords() {
    RecordingEngine s0 = new RecordingEngine();
    RecordingEngine s1 = new RecordingEngine();
    prepare(s0, 3, new Batch.Op(b("x"), b("x3")));
    prepare(s1, 3, new Batch.Op(b("y"), b("y3")));
    s0.putMeta(UndoRecord.key(UndoRecord.COMMIT, 3), new byte[0]);
    // Shard 0 had already dropped the undo record of batch 2 after its commit; shard 1 had not.
    prepare(s1, 2, new Batch.Op(b("z"), b("z2")));
    s0.putMeta(UndoRecord.key(UndoRecord.COMMIT, 2), new byte[0]);

    CrossShardRecovery.recover(List.of(s0, s1), "test");

    assertArrayEquals(b("x3"), s0.get(b("x")));
    assertArrayEquals(b("y3"), s1.get(b("y")));
    assertArrayEquals(b("z2"), s1.get(b("z")));
    assertTrue(s0.scanMeta(new byte[] {UndoRecord.UNDO}).isEmpty());
    assertTrue(s1.scanMeta(new byte[] {UndoRecord.UNDO}).isEmpty());
    assertTrue(s0.scanMeta(new byte[] {UndoRecord.COMMIT}).isEmpty());
  }

  @Test
  void shouldResumeTheGsnAboveEverythingSeenAndTheReservedMark() {
    RecordingEngine s0 = new RecordingEngine();
    GsnSequence fresh = new GsnSequence(s0, 0);
    assertEquals(1, fresh.next());
    assertEquals(2, fresh.next());
    // A restart after a crash: the reserved mark survives, so numbers never repeat.
    GsnSequence afterCrash = new GsnSequence(s0, 0);
    assertTrue(afterCrash.next() > GsnSequence.BLOCK);
    GsnSequence withRecords = new GsnSequence(new RecordingEngine(), 41);
    assertEquals(42, withRecords.next());
  }
}
