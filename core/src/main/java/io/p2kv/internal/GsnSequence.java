package io.p2kv.internal;

import io.p2kv.internal.engine.Engine;
import java.nio.ByteBuffer;

/**
 * The Global Sequence Number of cross-shard batches (p2KVS section 4.5): strictly increasing, also
 * across restarts and crashes. Numbers are reserved in blocks: before handing out a number at or
 * past the persisted high-water mark, the mark is raised by {@link #BLOCK} and written durably to
 * shard 0's metadata. On open the sequence resumes above both the mark and every GSN found in a
 * surviving record. Not thread-safe: used under the store's cross-shard lock.
 */
final class GsnSequence {
  static final long BLOCK = 1 << 20;

  private final Engine metaEngine;
  private long next;
  private long reservedUpTo;

  GsnSequence(Engine metaEngine, long maxSeen) {
    this.metaEngine = metaEngine;
    byte[] stored = metaEngine.scanMeta(UndoRecord.GSN_KEY).stream()
        .filter(kv -> kv[0].length == 1)
        .map(kv -> kv[1])
        .findFirst()
        .orElse(null);
    long mark = stored == null ? 0 : ByteBuffer.wrap(stored).getLong();
    this.next = Math.max(mark, maxSeen) + 1;
    this.reservedUpTo = mark;
  }

  long next() {
    if (next > reservedUpTo) {
      reservedUpTo = next + BLOCK;
      metaEngine.putMeta(UndoRecord.GSN_KEY, ByteBuffer.allocate(8).putLong(reservedUpTo).array());
    }
    return next++;
  }
}
