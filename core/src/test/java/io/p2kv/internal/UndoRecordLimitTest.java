package io.p2kv.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.Batch;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An undo record keeps the old values of a cross-shard part's keys, which the batch's own size
 * does not bound (it may delete large values): past its limit, capturing it refuses the part
 * with IllegalArgumentException instead of building it on the worker's heap.
 */
class UndoRecordLimitTest {
  @Test
  void shouldRefuseAnUndoRecordOverItsLimitAndKeepOneUnderIt() {
    RecordingEngine engine = new RecordingEngine();
    byte[] old = new byte[100];
    for (int i = 0; i < 3; i++) {
      engine.put(new byte[] {(byte) i}, old);
    }
    List<Batch.Op> deletes = List.of(new Batch.Op(new byte[] {0}, null), new Batch.Op(new byte[] {1}, null),
        new Batch.Op(new byte[] {2}, null), new Batch.Op(new byte[] {3}, null));
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> UndoRecord.capture(7, deletes, engine, 250));
    assertTrue(e.getMessage().contains("more than 250 bytes"), e.getMessage());

    List<byte[][]> kept = UndoRecord.decode(UndoRecord.capture(7, deletes, engine, 1000));
    assertEquals(4, kept.size());
    assertArrayEquals(old, kept.get(2)[1]);
    assertNull(kept.get(3)[1], "a key that held nothing is restored as absent");
  }
}
