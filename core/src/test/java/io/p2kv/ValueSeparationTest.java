package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.internal.separation.SeparationTuner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every value-separation policy returns the latest value of every key, whatever its size and
 * however often it moved between inline and blob placement: after writes, flush, a full
 * compaction with garbage collection, a reopen, and a reopen under another policy. Checked against
 * a model after each step. (Scans are checked when they exist; they are built on another branch.)
 */
class ValueSeparationTest {
  @TempDir Path tmp;

  /** Sizes at and around every threshold the policies use, plus the extremes. */
  private static final int[] SIZES = {
    0, 1, 2, 31, 32, 33, 95, 96, 97, 99, 100, 101, 127, 128, 129, 499, 500, 501, 895, 896, 999, 1000, 1001, 1023,
    1024, 4095, 4096, 4097, 8191, 8192, 65536, 1 << 20
  };

  /** A tuner that never runs by itself (period 0) and judges small windows, for the adaptive policy. */
  static final SeparationTuner.Limits TEST_TUNER = new SeparationTuner.Limits(0, 50, 4 << 10, 16, 2);

  static Stream<Arguments> policies() {
    List<Arguments> out = new ArrayList<>();
    for (ValueSeparation p :
        List.of(
            ValueSeparation.none(),
            ValueSeparation.all(),
            ValueSeparation.threshold(100),
            ValueSeparation.sizeAware().fixed(),
            ValueSeparation.sizeAware(),
            ValueSeparation.sizeAware().withThresholds(32, 500).withGarbageCollection(1.0, 0.1))) {
      for (int shards : new int[] {1, 4}) {
        out.add(Arguments.of(p, shards));
      }
    }
    return out.stream();
  }

  private static P2kv.Builder builder(ValueSeparation policy, int shards) {
    return P2kv.builder()
        .shards(shards)
        .memoryBudgetBytes(32L << 20)
        .valueSeparation(policy)
        .separationTunerLimits(TEST_TUNER);
  }

  private static byte[] value(Random rnd, int size) {
    byte[] v = new byte[size];
    rnd.nextBytes(v);
    return v;
  }

  @ParameterizedTest(name = "{0}, shards={1}")
  @MethodSource("policies")
  void shouldReturnTheLatestValueOfEverySizeThroughFlushCompactionAndReopen(ValueSeparation policy, int shards) {
    TestSeeds.run(
        getClass(),
        "shouldReturnTheLatestValueOfEverySizeThroughFlushCompactionAndReopen: " + policy + ", shards=" + shards,
        seed -> shouldReturnTheLatestValueOfEverySizeThroughFlushCompactionAndReopen(policy, shards, seed));
  }

  private void shouldReturnTheLatestValueOfEverySizeThroughFlushCompactionAndReopen(
      ValueSeparation policy, int shards, long seed) {
    Path dir = tmp.resolve("store");
    Random rnd = new Random(seed);
    TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);
    try (P2kv store = builder(policy, shards).open(dir)) {
      // Every size once, then every key moved to another size class and back.
      for (int size : SIZES) {
        put(store, model, Keys.key("size-" + size), value(rnd, size));
      }
      verify(store, model, policy + ": after puts");
      retune(store);
      for (int round = 0; round < 3; round++) {
        for (int i = 0; i < SIZES.length; i++) {
          int size = SIZES[(i + 7 * (round + 1)) % SIZES.length];
          put(store, model, Keys.key("size-" + SIZES[i]), value(rnd, size));
        }
        retune(store);
      }
      // Keys walking small -> large -> small -> medium -> empty, with a flush between steps.
      int[] walk = {1, 2000, 5, 1 << 20, 200, 0, 97, 4096};
      for (int step = 0; step < walk.length; step++) {
        for (int k = 0; k < 20; k++) {
          put(store, model, Keys.key("walker-" + k), value(rnd, walk[(step + k) % walk.length]));
        }
        if (step % 3 == 2) {
          store.flush();
        }
      }
      // Deletes of inline, separated and absent keys.
      for (int size : new int[] {0, 99, 1000, 4096, 1 << 20}) {
        delete(store, model, Keys.key("size-" + size));
      }
      delete(store, model, Keys.key("walker-3"));
      delete(store, model, Keys.key("never-written"));
      verify(store, model, policy + ": after overwrites and deletes");
      store.flush();
      verify(store, model, policy + ": after flush");
      store.compact();
      verify(store, model, policy + ": after compaction");
      StoreStats stats = store.stats();
      if (policy.mode() != ValueSeparation.Mode.NONE) {
        assertTrue(stats.shards().stream().anyMatch(s -> s.blobBytes() > 0), policy + " separated nothing: " + stats);
      }
      assertEquals(0, stats.blobGarbageRatio(), 1e-9, policy + ": a full compaction collects all blob garbage");
      // Leave garbage and unflushed writes behind for the reopen.
      for (int k = 0; k < 20; k++) {
        put(store, model, Keys.key("walker-" + k), value(rnd, walk[(k + 3) % walk.length]));
      }
    }
    try (P2kv store = builder(policy, shards).open(dir)) {
      verify(store, model, policy + ": after reopen");
      store.compact();
      verify(store, model, policy + ": after reopen and compaction");
    }
  }

  @ParameterizedTest(name = "{0} then {1}")
  @MethodSource("policyChanges")
  void shouldKeepEveryValueWhenTheStoreIsReopenedUnderAnotherPolicy(ValueSeparation first, ValueSeparation second) {
    TestSeeds.run(
        getClass(),
        "shouldKeepEveryValueWhenTheStoreIsReopenedUnderAnotherPolicy: " + first + " then " + second,
        seed -> shouldKeepEveryValueWhenTheStoreIsReopenedUnderAnotherPolicy(first, second, seed));
  }

  private void shouldKeepEveryValueWhenTheStoreIsReopenedUnderAnotherPolicy(
      ValueSeparation first, ValueSeparation second, long seed) {
    Path dir = tmp.resolve("store");
    Random rnd = new Random(seed);
    TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);
    try (P2kv store = builder(first, 2).open(dir)) {
      for (int i = 0; i < 200; i++) {
        put(store, model, Keys.key("k" + i), value(rnd, SIZES[i % (SIZES.length - 1)]));
      }
      store.flush();
    }
    try (P2kv store = builder(second, 2).open(dir)) {
      verify(store, model, first + " then " + second);
      for (int i = 0; i < 200; i += 3) {
        put(store, model, Keys.key("k" + i), value(rnd, SIZES[(i + 5) % (SIZES.length - 1)]));
      }
      store.compact();
      verify(store, model, first + " then " + second + ", compacted");
      if (second.mode() == ValueSeparation.Mode.NONE) {
        assertEquals(0, store.stats().shards().stream().mapToLong(ShardStats::blobBytes).sum(),
            "a full compaction under none() moves every separated value back inline");
      }
    }
  }

  static Stream<Arguments> policyChanges() {
    return Stream.of(
        Arguments.of(ValueSeparation.none(), ValueSeparation.all()),
        Arguments.of(ValueSeparation.all(), ValueSeparation.none()),
        Arguments.of(ValueSeparation.threshold(100), ValueSeparation.sizeAware()));
  }

  @Test
  void shouldSeparateExactlyTheValuesAtOrAboveTheThreshold() {
    TestSeeds.run(getClass(), "shouldSeparateExactlyTheValuesAtOrAboveTheThreshold",
        this::shouldSeparateExactlyTheValuesAtOrAboveTheThreshold);
  }

  private void shouldSeparateExactlyTheValuesAtOrAboveTheThreshold(long seed) {
    Random rnd = new Random(seed);
    try (P2kv store = builder(ValueSeparation.threshold(100), 1).open(tmp.resolve("store"))) {
      for (int i = 0; i < 100; i++) {
        store.put(Keys.key("below-" + i), value(rnd, 99));
      }
      store.flush();
      assertEquals(0, store.stats().shards().get(0).blobBytes(), "99-byte values stay inline");
      for (int i = 0; i < 100; i++) {
        store.put(Keys.key("at-" + i), value(rnd, 100));
      }
      store.flush();
      assertTrue(store.stats().shards().get(0).blobBytes() >= 100 * 100, "100-byte values go to blob files");
      assertEquals(100, store.stats().shards().get(0).separation().minBlobBytes());
    }
  }

  @Test
  void shouldReportWriteAndSpaceAmplificationPerShardAndInTotal() {
    TestSeeds.run(getClass(), "shouldReportWriteAndSpaceAmplificationPerShardAndInTotal",
        this::shouldReportWriteAndSpaceAmplificationPerShardAndInTotal);
  }

  private void shouldReportWriteAndSpaceAmplificationPerShardAndInTotal(long seed) {
    Random rnd = new Random(seed);
    long user = 0;
    try (P2kv store = builder(ValueSeparation.all(), 2).open(tmp.resolve("store"))) {
      for (int i = 0; i < 2000; i++) {
        byte[] k = Keys.key("key-" + i);
        byte[] v = value(rnd, 300);
        store.put(k, v);
        user += k.length + v.length;
      }
      store.delete(Keys.key("key-1"));
      user += Keys.key("key-1").length;
      store.flush();
      StoreStats stats = store.stats();
      assertEquals(user, stats.userBytesWritten(), "user bytes are the keys and values written");
      assertTrue(stats.deviceWriteBytes() > 0 && stats.blobWriteBytes() > 0, stats.toString());
      // One flush, no compaction: each byte written once, plus the blob record headers. Counting
      // blob bytes on top of the flush bytes (which already include them) would show about 2.
      assertTrue(stats.writeAmplification() > 0.9 && stats.writeAmplification() < 1.6, "flush writes each byte about once: " + stats.writeAmplification());
      assertTrue(stats.spaceAmplification() > 0.5 && stats.spaceAmplification() < 3, "space amplification " + stats.spaceAmplification());
      for (ShardStats s : stats.shards()) {
        assertTrue(s.writeAmplification() > 0, s.toString());
        assertTrue(s.blobGarbageRatio() >= 0 && s.blobGarbageRatio() <= 1, s.toString());
        assertEquals(0, s.separation().minBlobBytes());
      }
    }
  }

  @Test
  void shouldLeaveBlobOptionsSetByTheTuningHookAlone() {
    TestSeeds.run(getClass(), "shouldLeaveBlobOptionsSetByTheTuningHookAlone",
        this::shouldLeaveBlobOptionsSetByTheTuningHookAlone);
  }

  private void shouldLeaveBlobOptionsSetByTheTuningHookAlone(long seed) {
    Random rnd = new Random(seed);
    try (P2kv store =
        builder(ValueSeparation.sizeAware(), 1)
            .rocksDbConfigurer((shard, options) -> options.setMinBlobSize(5))
            .open(tmp.resolve("store"))) {
      for (int round = 0; round < 4; round++) {
        for (int i = 0; i < 200; i++) {
          store.put(Keys.key("k" + round + "-" + i), value(rnd, 200));
        }
        assertEquals(List.of(), store.core().retuneSeparationNow(), "no retuning of a shard the hook configured");
      }
      assertEquals(5, store.stats().shards().get(0).separation().minBlobBytes(), "the hook's setting is in force");
    }
  }

  private static void retune(P2kv store) {
    store.core().retuneSeparationNow();
  }

  private static void put(P2kv store, TreeMap<byte[], byte[]> model, byte[] key, byte[] value) {
    store.put(key, value);
    model.put(key, value);
  }

  private static void delete(P2kv store, TreeMap<byte[], byte[]> model, byte[] key) {
    store.delete(key);
    model.remove(key);
  }

  static void verify(P2kv store, TreeMap<byte[], byte[]> model, String when) {
    List<byte[]> keys = new ArrayList<>(model.keySet());
    keys.add(Keys.key("never-written"));
    for (byte[] k : keys) {
      assertArrayEquals(model.get(k), store.get(k), when + ": get " + new String(k, java.nio.charset.StandardCharsets.UTF_8));
    }
    List<byte[]> values = store.multiGet(keys);
    for (int i = 0; i < keys.size(); i++) {
      assertArrayEquals(model.get(keys.get(i)), values.get(i), when + ": multiGet " + new String(keys.get(i), java.nio.charset.StandardCharsets.UTF_8));
    }
  }
}
