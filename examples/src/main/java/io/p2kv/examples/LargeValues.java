package io.p2kv.examples;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.p2kv.P2kv;
import io.p2kv.StoreStats;
import io.p2kv.ValueSeparation;
import java.io.IOException;
import java.util.Arrays;

/**
 * Value separation: small values stay in the LSM-tree, large ones go to blob files, so compactions
 * move a small reference instead of the whole value. Writes the same small and large values under
 * two policies and compares where the bytes went and how much the device wrote.
 *
 * <p>Run: {@code ./p2kv example LargeValues [dir]} (a temporary directory if none is given).
 */
public final class LargeValues {
  private LargeValues() {}

  public static void main(String[] args) throws IOException {
    try (ExampleDir dir = ExampleDir.fromArgs(args, "p2kv-largevalues")) {
      // sizeAware() is the default: small values inline, large ones (a 1 KB pair and up) in blob
      // files, medium ones where they cost least, retuned from what each shard sees. none() keeps
      // every value inline, like plain RocksDB.
      run("sizeAware", ValueSeparation.sizeAware(), dir);
      run("none", ValueSeparation.none(), dir);
    }
  }

  private static void run(String name, ValueSeparation policy, ExampleDir dir) {
    byte[] small = new byte[40];
    byte[] large = new byte[16 * 1024];
    Arrays.fill(large, (byte) 7);
    try (P2kv store = P2kv.builder().valueSeparation(policy).open(dir.path().resolve(name))) {
      for (int round = 0; round < 3; round++) { // overwrites leave garbage behind
        for (int i = 0; i < 1_000; i++) {
          store.put(("small-" + i).getBytes(UTF_8), small);
          large[0] = (byte) round;
          store.put(("large-" + i).getBytes(UTF_8), large.clone());
        }
        store.flush();
      }
      store.compact(); // a full compaction, collecting blob garbage too

      byte[] v = store.get("large-999".getBytes(UTF_8));
      StoreStats stats = store.stats();
      System.out.printf(
          "%-9s large value %d bytes (round %d); SST %,d bytes, blob files %,d bytes;"
              + " device wrote %.1fx the user bytes; blobs from %s bytes%n",
          name,
          v.length,
          v[0],
          stats.shards().stream().mapToLong(s -> s.sstBytes()).sum(),
          stats.shards().stream().mapToLong(s -> s.blobBytes()).sum(),
          stats.writeAmplification(),
          stats.shards().get(0).separation().blobFiles() ? stats.shards().get(0).separation().minBlobBytes() : "never");
    }
  }
}
