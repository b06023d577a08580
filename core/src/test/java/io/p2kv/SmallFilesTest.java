package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Issue 14: short sessions must not pile up small files. A store is opened with the defaults (the
 * adaptive size-aware policy), or with {@code threshold(100)} so that its 200-byte values go to
 * blob files (what the adaptive policy did with them while it saw inserts when the issue was
 * filed), given 200 values of 200 bytes under new keys, and closed, 200 times. Before the fix each reopen flushed
 * what the WAL held into one small SST and one small blob file per shard, and keys written in
 * order left one small bottom-level SST per L0 compaction: 200 cycles left 251 SST and blob files
 * with one shard, 502 with two. Now the SST and blob files of a shard stay within what its data
 * needs plus a few, the WAL files within the sessions a shard keeps before flushing, and neither
 * grows with the number of cycles.
 */
class SmallFilesTest {
  private static final int CYCLES = 200;
  private static final int PUTS = 200;
  private static final int VALUE_BYTES = 200;

  /**
   * SST and blob files a shard may hold after a session: the 6 its data needs (one SST, one blob
   * file, the 4 L0 files a compaction waits for), up to 8 more before a merge at open, one flush.
   */
  private static final int DATA_FILES_PER_SHARD = 16;

  /** WAL files a shard may hold: the 8 sessions it keeps unflushed, its own, one being deleted. */
  private static final int WAL_FILES_PER_SHARD = 11;

  @TempDir Path tmp;

  @ParameterizedTest(name = "shards={0}, keys in order={1}, values in blob files={2}")
  @CsvSource({"0, true, false", "2, false, false", "0, true, true", "2, false, true"})
  void shouldKeepTheFileCountBoundedOverRepeatedOpenAndClose(int shards, boolean ordered, boolean separated) {
    TestSeeds.run(getClass(), "shards=" + shards + ", ordered=" + ordered + ", separated=" + separated,
        seed -> run(shards, ordered, separated, seed));
  }

  private void run(int shards, boolean ordered, boolean separated, long seed) {
    Path dir = tmp.resolve("store");
    Random random = new Random(seed);
    Map<String, byte[]> model = new HashMap<>();
    ValueSeparation policy = separated ? ValueSeparation.threshold(100) : ValueSeparation.sizeAware();
    int shardCount = 0;
    long maxFirstHalf = 0;
    long maxSecondHalf = 0;
    long maxWals = 0;
    for (int cycle = 1; cycle <= CYCLES; cycle++) {
      P2kv.Builder builder = P2kv.builder().valueSeparation(policy);
      if (shards > 0) {
        builder.shards(shards);
      }
      try (P2kv store = builder.open(dir)) {
        shardCount = store.shardCount();
        for (int i = 0; i < PUTS; i++) {
          int n = model.size();
          String key = ordered ? String.format("key-%08d", n) : Long.toHexString(random.nextLong()) + "-" + n;
          byte[] value = new byte[VALUE_BYTES];
          random.nextBytes(value);
          store.put(key.getBytes(StandardCharsets.UTF_8), value);
          model.put(key, value);
        }
      }
      long files = count(dir, ".sst") + count(dir, ".blob");
      if (cycle <= CYCLES / 2) {
        maxFirstHalf = Math.max(maxFirstHalf, files);
      } else {
        maxSecondHalf = Math.max(maxSecondHalf, files);
      }
      maxWals = Math.max(maxWals, count(dir, ".log"));
    }
    String counts =
        shardCount + " shards: at most " + maxFirstHalf + " SST and blob files in cycles 1-100, " + maxSecondHalf
            + " in cycles 101-200, " + maxWals + " WAL files";
    System.out.println("SmallFilesTest " + counts);
    assertTrue(maxFirstHalf <= (long) DATA_FILES_PER_SHARD * shardCount, counts);
    assertTrue(maxSecondHalf <= (long) DATA_FILES_PER_SHARD * shardCount, counts);
    // No comparison of the two halves: merges at open keep a shard between what its data needs and
    // 8 files more, but whether the first 100 cycles reach the top of that range depends on when
    // background compactions finish before each close (with values inline and keys in order they
    // sometimes peak at 5 files, then at 12 later). The fixed bound above, which the count would
    // cross by cycle 20 if it grew with the cycles (251 files after 200 before the fix), is the
    // check that does not depend on that timing.
    assertTrue(maxWals <= (long) WAL_FILES_PER_SHARD * shardCount, counts);

    try (P2kv store = P2kv.builder().valueSeparation(policy).open(dir)) {
      if (separated) {
        assertTrue(store.stats().shards().stream().allMatch(s -> s.blobBytes() > 0), "the values are in blob files");
      }
      assertEquals(CYCLES * PUTS, model.size());
      for (Map.Entry<String, byte[]> e : model.entrySet()) {
        assertArrayEquals(e.getValue(), store.get(e.getKey().getBytes(StandardCharsets.UTF_8)), e.getKey());
      }
    }
  }

  private static long count(Path dir, String suffix) {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(p -> p.getFileName().toString().endsWith(suffix)).count();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
