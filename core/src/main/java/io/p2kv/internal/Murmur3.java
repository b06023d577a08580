package io.p2kv.internal;

/**
 * MurmurHash3 x86 32-bit (Austin Appleby's public-domain algorithm), written out so that the
 * key-to-shard mapping depends on nothing that a JDK or library upgrade could change. Keys are read
 * as little-endian 4-byte blocks, exactly as the reference implementation does.
 */
public final class Murmur3 {
  private static final int C1 = 0xcc9e2d51;
  private static final int C2 = 0x1b873593;

  private Murmur3() {}

  /**
   * Hashes a whole array.
   *
   * @param data bytes to hash
   * @param seed the seed
   * @return the 32-bit hash
   */
  @SuppressWarnings("fallthrough") // the tail switch falls through on purpose, as in the reference
  public static int hash32(byte[] data, int seed) {
    int h = seed;
    int length = data.length;
    int blocks = length & ~3;
    for (int i = 0; i < blocks; i += 4) {
      int k =
          (data[i] & 0xff)
              | (data[i + 1] & 0xff) << 8
              | (data[i + 2] & 0xff) << 16
              | (data[i + 3] & 0xff) << 24;
      h ^= mixK(k);
      h = Integer.rotateLeft(h, 13);
      h = h * 5 + 0xe6546b64;
    }
    int k = 0;
    switch (length & 3) {
      case 3:
        k ^= (data[blocks + 2] & 0xff) << 16;
        // fall through
      case 2:
        k ^= (data[blocks + 1] & 0xff) << 8;
        // fall through
      case 1:
        k ^= data[blocks] & 0xff;
        h ^= mixK(k);
        break;
      default:
        break;
    }
    h ^= length;
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }

  private static int mixK(int k) {
    k *= C1;
    k = Integer.rotateLeft(k, 15);
    return k * C2;
  }
}
