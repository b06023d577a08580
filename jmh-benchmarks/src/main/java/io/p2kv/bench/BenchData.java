package io.p2kv.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/** Keys, values and temporary directories shared by the benchmarks. */
public final class BenchData {
  private BenchData() {}

  /** Key length of every benchmark (the p2KVS paper's 16-byte keys). */
  public static final int KEY_BYTES = 16;

  /**
   * The key with index {@code i}: 8 bytes of a strong mix of i (so consecutive indexes scatter
   * over the key space, like random keys) followed by i itself (so keys are unique).
   */
  public static byte[] key(long i) {
    byte[] k = new byte[KEY_BYTES];
    long h = mix(i);
    for (int j = 0; j < 8; j++) {
      k[j] = (byte) (h >>> (56 - 8 * j));
      k[8 + j] = (byte) (i >>> (56 - 8 * j));
    }
    return k;
  }

  /** A random key (for write benchmarks, where keys should not repeat). */
  public static byte[] randomKey(SplittableRandom rnd) {
    return key(rnd.nextLong());
  }

  /** A random value of {@code size} bytes. */
  public static byte[] value(int size, SplittableRandom rnd) {
    byte[] v = new byte[size];
    for (int i = 0; i < size; i++) {
      v[i] = (byte) rnd.nextInt(256);
    }
    return v;
  }

  static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }

  /** A new empty directory under {@code p2kv.bench.dir} (default: the system temp directory). */
  public static Path tempDir(String prefix) {
    try {
      String base = System.getProperty("p2kv.bench.dir");
      return base == null ? Files.createTempDirectory(prefix) : Files.createTempDirectory(Path.of(base), prefix);
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Deletes a directory tree (best effort; benchmarks run in temporary directories). */
  public static void deleteTree(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> walk = Files.walk(dir)) {
      walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
