package io.p2kv.kafka;

import java.util.concurrent.ConcurrentSkipListMap;
import org.apache.kafka.common.utils.Bytes;

/**
 * Thread-safe for one writer and any readers: the writes of one task's store since its last
 * commit, in user-key order, a delete kept as a tombstone. Written by the stream thread, read by it
 * and by interactive queries, emptied into the p2kv store by each commit together with the
 * changelog offset, so the store on disk only ever holds committed writes.
 */
final class Overlay extends ConcurrentSkipListMap<Bytes, byte[]> {
  private static final long serialVersionUID = 1L;

  /** The tombstone, told apart by identity (the empty value is a valid value). */
  private static final byte[] TOMBSTONE = new byte[0];

  static byte[] tombstone() {
    return TOMBSTONE;
  }

  static boolean isTombstone(byte[] value) {
    return value == TOMBSTONE;
  }
}
