package io.p2kv.internal.separation;

import io.p2kv.SeparationSettings;
import java.nio.ByteBuffer;

/**
 * What the adaptive value-separation policy keeps with a shard's data across restarts: the
 * settings it chose last, and whether it was bringing separated values back inline (and from
 * which file number down). Encoded as a version byte and fixed-width fields.
 *
 * @param settings the settings the model chose
 * @param inlineBelow data files numbered below this are still to be rewritten to bring values
 *     back inline; 0 for none
 */
record TunerState(SeparationSettings settings, long inlineBelow) {
  private static final byte VERSION = 1;
  private static final int BYTES = 1 + 1 + 8 + 4 + 8 + 8 + 4 + 4 + 8;

  byte[] encode() {
    SeparationSettings s = settings;
    return ByteBuffer.allocate(BYTES)
        .put(VERSION)
        .put((byte) (s.blobFiles() ? 1 : 0))
        .putLong(s.minBlobBytes())
        .putInt(s.blobFromLevel())
        .putDouble(s.gcAgeCutoff())
        .putDouble(s.gcGarbageRatio())
        .putInt(s.mediumFromBytes())
        .putInt(s.largeFromBytes())
        .putLong(inlineBelow)
        .array();
  }

  /**
   * Decodes a saved state.
   *
   * @param bytes the saved bytes, or null
   * @return the state, or null if none was saved
   * @throws IllegalArgumentException if the bytes are not a state this version wrote
   */
  static TunerState decode(byte[] bytes) {
    if (bytes == null) {
      return null;
    }
    if (bytes.length != BYTES || bytes[0] != VERSION) {
      throw new IllegalArgumentException("unknown value-separation state (" + bytes.length + " bytes, version " + (bytes.length > 0 ? bytes[0] : -1) + ")");
    }
    ByteBuffer b = ByteBuffer.wrap(bytes, 1, BYTES - 1);
    boolean blobFiles = b.get() != 0;
    long minBlob = b.getLong();
    int fromLevel = b.getInt();
    double age = b.getDouble();
    double ratio = b.getDouble();
    int medium = b.getInt();
    int large = b.getInt();
    long inlineBelow = b.getLong();
    return new TunerState(new SeparationSettings(blobFiles, minBlob, fromLevel, age, ratio, medium, large), inlineBelow);
  }
}
