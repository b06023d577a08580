package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.internal.separation.SeparationTuner;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The adaptive size-aware policy follows the workload: fed phases whose value sizes, update ratio
 * and key sizes shift, it moves its thresholds and garbage collection, and the store stays
 * correct. The tuner's timer is off; each window is stepped directly, so the test is
 * deterministic and sleeps nowhere.
 */
class AdaptiveSeparationTest {
  @TempDir Path tmp;

  /** Windows of 300 writes here: each phase writes two. */
  private static final SeparationTuner.Limits LIMITS = new SeparationTuner.Limits(0, 300, 8 << 10, 64, 2);

  /** Value bytes; set from the test's seed (their content is random, their sizes are not). */
  private Random rnd;
  private final TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);

  private byte[] key(String prefix, int i, int length) {
    byte[] k = new byte[length];
    byte[] id = (prefix + i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    System.arraycopy(id, 0, k, 0, Math.min(id.length, length));
    k[length - 1] = (byte) i;
    k[length - 2] = (byte) (i >>> 8);
    return k;
  }

  /** Writes one window of 300 puts and steps the tuner; returns the changes it applied. */
  private List<SeparationTuner.Change> window(P2kv store, String prefix, int from, int keyLength, int valueLength) {
    for (int i = from; i < from + 300; i++) {
      byte[] k = key(prefix, i, keyLength);
      byte[] v = new byte[valueLength];
      rnd.nextBytes(v);
      store.put(k, v);
      model.put(k, v);
    }
    return store.core().retuneSeparationNow();
  }

  private static SeparationSettings settings(P2kv store) {
    return store.stats().shards().get(0).separation();
  }

  @Test
  void shouldMoveThresholdsAndGarbageCollectionWithTheWorkloadAndStayCorrect() {
    TestSeeds.run(getClass(), "shouldMoveThresholdsAndGarbageCollectionWithTheWorkloadAndStayCorrect",
        this::shouldMoveThresholdsAndGarbageCollectionWithTheWorkloadAndStayCorrect);
  }

  private void shouldMoveThresholdsAndGarbageCollectionWithTheWorkloadAndStayCorrect(long seed) {
    rnd = new Random(seed);
    Path dir = tmp.resolve("store");
    List<SeparationTuner.Change> changes = new ArrayList<>();
    try (P2kv store =
        P2kv.builder().shards(1).memoryBudgetBytes(32L << 20).separationTunerLimits(LIMITS).open(dir)) {
      SeparationSettings initial = settings(store);
      assertEquals(96, initial.mediumFromBytes(), "Parallax's T_SM for 24-byte keys");
      assertEquals(1000, initial.largeFromBytes(), "1 KB pairs are large");
      assertEquals(1000, initial.minBlobBytes(), "a new shard: large values separated, medium ones inline");
      assertEquals(0, initial.gcAgeCutoff(), "a new shard: no garbage collection");

      // Phase 1: inserts of medium values into a young tree (amplification 2): separating them
      // would cost more in blob records than compaction saves, so nothing changes.
      changes.addAll(window(store, "medium-", 0, 24, 200));
      changes.addAll(window(store, "medium-", 300, 24, 200));
      assertEquals(List.of(), changes);

      // Phase 2: the same medium keys are overwritten: they stay inline and collection turns on.
      // One window proposes, the second confirms.
      assertEquals(List.of(), window(store, "medium-", 0, 24, 200));
      changes.addAll(window(store, "medium-", 300, 24, 200));
      assertEquals(1, changes.size(), changes.toString());
      assertEquals(1000, settings(store).minBlobBytes(), "updated medium values stay inline");
      assertEquals(ValueSeparation.DEFAULT_GC_AGE_CUTOFF, settings(store).gcAgeCutoff(), 1e-9, "updates: GC on");

      // Phase 3: the value sizes shift to small, inserted: nothing to collect, GC off; no medium
      // values to judge, so they stay where they are.
      window(store, "small-", 0, 24, 10);
      changes.addAll(window(store, "small-", 300, 24, 10));
      assertEquals(0, settings(store).gcAgeCutoff(), "no updates, no garbage: GC off");
      assertEquals(1000, settings(store).minBlobBytes());

      // Phase 4: medium inserts with keys of 64 bytes: Parallax's classes follow the key size,
      // and inserted medium values of 900 bytes (near the large class) save more than their blob
      // records cost, so they are separated.
      window(store, "wide-", 0, 64, 900);
      changes.addAll(window(store, "wide-", 300, 64, 900));
      assertEquals(256, settings(store).mediumFromBytes(), "T_SM = 0.2 with 64-byte keys");
      assertEquals(960, settings(store).largeFromBytes(), "a 1 KB pair with a 64-byte key");
      assertEquals(256, settings(store).minBlobBytes(), "new medium values, inserted, are separated");

      assertEquals(3, changes.size(), changes.toString());
      for (SeparationTuner.Change c : changes) {
        assertFalse(c.reason().isBlank(), "every change says why");
      }
      ValueSeparationTest.verify(store, model, "after the phases");
      store.compact();
      ValueSeparationTest.verify(store, model, "after compaction");
    }
    try (P2kv store =
        P2kv.builder().memoryBudgetBytes(32L << 20).separationTunerLimits(LIMITS).open(dir)) {
      ValueSeparationTest.verify(store, model, "after reopen");
    }
  }

  @Test
  void shouldNotChangeOnAWindowThatDisagreesWithTheNext() {
    TestSeeds.run(getClass(), "shouldNotChangeOnAWindowThatDisagreesWithTheNext",
        this::shouldNotChangeOnAWindowThatDisagreesWithTheNext);
  }

  private void shouldNotChangeOnAWindowThatDisagreesWithTheNext(long seed) {
    rnd = new Random(seed);
    try (P2kv store =
        P2kv.builder().shards(1).memoryBudgetBytes(32L << 20).separationTunerLimits(LIMITS).open(tmp.resolve("s"))) {
      SeparationSettings initial = settings(store);
      // Alternate overwrites of medium keys (propose: GC on) with inserts of new ones
      // (propose: as it is): no two consecutive windows agree on a change.
      List<SeparationTuner.Change> changes = new ArrayList<>();
      window(store, "old-", 0, 24, 200);
      for (int round = 0; round < 4; round++) {
        changes.addAll(window(store, "old-", 0, 24, 200));
        changes.addAll(window(store, "new-" + round + "-", 0, 24, 200));
      }
      assertEquals(List.of(), changes, "a proposal that is not confirmed is not applied");
      assertEquals(initial, settings(store));
      ValueSeparationTest.verify(store, model, "after alternating windows");
    }
  }

  @Test
  void shouldKeepThresholdsTheUserGaveAndTuneOnlyPlacementAndCollection() {
    TestSeeds.run(getClass(), "shouldKeepThresholdsTheUserGaveAndTuneOnlyPlacementAndCollection",
        this::shouldKeepThresholdsTheUserGaveAndTuneOnlyPlacementAndCollection);
  }

  private void shouldKeepThresholdsTheUserGaveAndTuneOnlyPlacementAndCollection(long seed) {
    rnd = new Random(seed);
    ValueSeparation policy = ValueSeparation.sizeAware().withThresholds(150, 5000);
    try (P2kv store =
        P2kv.builder().shards(1).memoryBudgetBytes(32L << 20).valueSeparation(policy).separationTunerLimits(LIMITS)
            .open(tmp.resolve("s"))) {
      window(store, "wide-", 0, 64, 2000);
      window(store, "wide-", 300, 64, 2000);
      SeparationSettings s = settings(store);
      assertEquals(150, s.mediumFromBytes());
      assertEquals(5000, s.largeFromBytes());
      assertEquals(150, s.minBlobBytes(), "inserted medium values are separated at the given threshold");
      ValueSeparationTest.verify(store, model, "after tuning");
    }
  }
}
