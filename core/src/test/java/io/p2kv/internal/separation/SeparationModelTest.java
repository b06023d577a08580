package io.p2kv.internal.separation;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.SeparationSettings;
import org.junit.jupiter.api.Test;

/** The size-aware model: Parallax's classes, the medium placement and garbage collection. */
class SeparationModelTest {
  private static final double AGE = 0.1;
  private static final double RATIO = 0.3;

  private static SeparationSettings start() {
    return SeparationModel.initial(96, 1000, AGE, RATIO);
  }

  private static SeparationModel.Inputs medium(double updateRatio, double amplification) {
    return new SeparationModel.Inputs(24, 1000, 104_000, updateRatio, amplification, 0);
  }

  @Test
  void shouldDeriveParallaxClassesFromTheKeySize() {
    assertArrayEquals(new int[] {96, 1000}, SeparationModel.classes(24), "24-byte keys: T_SM = 0.2, 1 KB pairs");
    assertArrayEquals(new int[] {64, 784}, SeparationModel.classes(16), "T_ML = 0.02 below 1 KB pairs");
    assertArrayEquals(new int[] {256, 960}, SeparationModel.classes(64));
    assertArrayEquals(new int[] {4, 49}, SeparationModel.classes(0), "an empty key counts as one byte");
  }

  @Test
  void shouldKeepClassesWhileTheMeanKeySizeWavers() {
    SeparationSettings s = start();
    assertArrayEquals(new int[] {96, 1000}, SeparationModel.stableClasses(s, 25.4), "within 12.5 %");
    assertArrayEquals(new int[] {128, 992}, SeparationModel.stableClasses(s, 32), "beyond it");
  }

  @Test
  void shouldSeparateMediumValuesWhenInsertsDominateAndInlineThemUnderUpdates() {
    // A = 6: 816 B per pair inline against 680 B separated (blob record work included).
    SeparationModel.Proposal insert = SeparationModel.propose(start(), medium(0, 6), null, AGE, RATIO);
    assertEquals(96, insert.settings().minBlobBytes(), insert.reason());
    SeparationModel.Proposal update = SeparationModel.propose(insert.settings(), medium(0.65, 6), null, AGE, RATIO);
    assertEquals(1000, update.settings().minBlobBytes(), update.reason());
    assertTrue(update.reason().contains("medium values inline"), update.reason());
  }

  @Test
  void shouldKeepMediumValuesInlineWhenTheTreeAmplifiesTooLittleToPayForTheirBlobRecords() {
    // A = 3 (a young or small tree, YCSB's load here): 408 B inline against 548 B separated, of
    // which 256 B are the blob record's work. Without that work it would be 292 B: separated.
    SeparationSettings opened = SeparationModel.initialAdaptive(96, 1000, RATIO);
    assertEquals(1000, opened.minBlobBytes(), "an adaptive shard opens with medium values inline");
    SeparationModel.Proposal insert = SeparationModel.propose(opened, medium(0, 3), null, AGE, RATIO);
    assertEquals(1000, insert.settings().minBlobBytes(), insert.reason());
    assertTrue(SeparationModel.separatedCost(24, 104, 3, 0) - SeparationModel.BLOB_RECORD_WORK_BYTES
        < SeparationModel.inlineCost(24, 104, 3) * 0.95, "the bytes alone favour separation");
    // Large values stay separated from the first flush: 1 KB pays for its record from A = 1.4.
    assertEquals(1000, SeparationModel.propose(opened, medium(0, 1.5), null, AGE, RATIO).settings().minBlobBytes());
    assertTrue(SeparationModel.separatedCost(24, 1004, 1.5, 0) < SeparationModel.inlineCost(24, 1004, 1.5) * 0.95);
  }

  @Test
  void shouldNotMoveMediumValuesOnACostDifferenceInsideTheMargin() {
    // Costs of 104-byte values with A = 4.52 and no updates: 614.7 B inline, 614.9 B separated.
    SeparationModel.Inputs close = medium(0, 4.52);
    double inline = SeparationModel.inlineCost(24, 104, 4.52);
    double separated = SeparationModel.separatedCost(24, 104, 4.52, 0);
    assertTrue(Math.abs(inline - separated) < 0.05 * inline, inline + " vs " + separated);
    SeparationSettings inlineNow = start();
    SeparationSettings separatedNow = inlineNow.withPlacement(96, 0);
    assertEquals(inlineNow.minBlobBytes(), SeparationModel.propose(inlineNow, close, null, AGE, RATIO).settings().minBlobBytes());
    assertEquals(separatedNow.minBlobBytes(), SeparationModel.propose(separatedNow, close, null, AGE, RATIO).settings().minBlobBytes());
  }

  @Test
  void shouldKeepMediumPlacementWithoutMediumValuesToJudge() {
    SeparationSettings separated = start().withPlacement(96, 0);
    SeparationModel.Inputs none = new SeparationModel.Inputs(24, 0, 0, 0.9, 3, 0);
    assertEquals(96, SeparationModel.propose(separated, none, null, AGE, RATIO).settings().minBlobBytes());
  }

  @Test
  void shouldTurnGarbageCollectionOffOnlyWithoutUpdatesAndGarbageAndBackOnWithEither() {
    SeparationSettings on = start();
    SeparationModel.Inputs quiet = new SeparationModel.Inputs(24, 0, 0, 0.01, 3, 0.05);
    SeparationSettings off = SeparationModel.propose(on, quiet, null, AGE, RATIO).settings();
    assertEquals(0, off.gcAgeCutoff());
    // Between the two thresholds nothing changes, either way.
    SeparationModel.Inputs between = new SeparationModel.Inputs(24, 0, 0, 0.03, 3, 0.1);
    assertEquals(AGE, SeparationModel.propose(on, between, null, AGE, RATIO).settings().gcAgeCutoff());
    assertEquals(0, SeparationModel.propose(off, between, null, AGE, RATIO).settings().gcAgeCutoff());
    // Updates, or garbage at half the ratio, turn it back on.
    assertEquals(AGE, SeparationModel.propose(off, new SeparationModel.Inputs(24, 0, 0, 0.2, 3, 0), null, AGE, RATIO).settings().gcAgeCutoff());
    assertEquals(AGE, SeparationModel.propose(off, new SeparationModel.Inputs(24, 0, 0, 0, 3, 0.16), null, AGE, RATIO).settings().gcAgeCutoff());
  }

  @Test
  void shouldAlwaysSeparateLargeValuesAndKeepSmallOnesInline() {
    SeparationSettings s = SeparationModel.propose(start(), medium(1.0, 1.0), null, AGE, RATIO).settings();
    assertTrue(s.separates(1000) && s.separates(1 << 20), s.toString());
    assertTrue(!s.separates(95) && !s.separates(0), s.toString());
  }

  @Test
  void shouldKeepUserThresholds() {
    SeparationModel.Inputs wideKeys = new SeparationModel.Inputs(64, 1000, 400_000, 0, 3, 0);
    SeparationSettings s = SeparationModel.propose(start().withClasses(150, 5000), wideKeys, new int[] {150, 5000}, AGE, RATIO).settings();
    assertEquals(150, s.mediumFromBytes());
    assertEquals(5000, s.largeFromBytes());
  }

  /**
   * A window of 1,000 inserts of 104-byte values (or 1,000 large ones) and {@code reads} reads, in
   * a tree of amplification 6 (where the write model alone separates medium values).
   */
  private static SeparationModel.Inputs reading(long reads, long largeCount, long largeBytes) {
    return new SeparationModel.Inputs(24, largeCount > 0 ? 0 : 1000, largeCount > 0 ? 0 : 104_000, 0, 6, 0,
        1000, reads, largeCount, largeBytes, true);
  }

  private static SeparationSettings insertMode() {
    return SeparationModel.initialAdaptive(96, 1000, RATIO);
  }

  @Test
  void shouldPlaceMediumValuesInlineOnceReadsOutweighWhatSeparationSaves() {
    // Inserts with A = 6 save (104 - 12) * 6 - (24 + 104 + 32 + 256) = 136 B per pair separated
    // (95 B with the 5 % margin); a read of a separated value costs a 4 KiB page. One read per 50
    // writes (82 B) stays below that.
    SeparationModel.Proposal rare = SeparationModel.propose(insertMode(), reading(20, 0, 0), null, AGE, RATIO);
    assertEquals(96, rare.settings().minBlobBytes(), rare.reason());
    assertTrue(!rare.readDriven());
    SeparationSettings separated = rare.settings();
    assertEquals(96, SeparationModel.propose(separated, reading(20, 0, 0), null, AGE, RATIO).settings().minBlobBytes());
    // One read per write: medium values inline; 1 KB values (when there are any) still save
    // (1000 - 12) * 6 - (24 + 1000 + 32 + 256) = 4616 B separated, more than the 4 KiB read.
    SeparationModel.Proposal read = SeparationModel.propose(separated, reading(1000, 0, 0), null, AGE, RATIO);
    assertEquals(1000, read.settings().minBlobBytes(), read.reason());
    assertTrue(read.readDriven(), "the write model alone would separate them");
    assertTrue(read.reason().contains("reads"), read.reason());
    // Two reads per write: everything below a page inline.
    SeparationModel.Proposal more = SeparationModel.propose(separated, reading(2000, 0, 0), null, AGE, RATIO);
    assertEquals(SeparationModel.INLINE_CAP_BYTES, more.settings().minBlobBytes(), more.reason());
    assertTrue(more.readDriven());
  }

  @Test
  void shouldPlaceEverythingBelowAPageInlineWhenOnlyRead() {
    SeparationModel.Inputs readOnly = new SeparationModel.Inputs(0, 0, 0, 0, 3, 0, 0, 50_000, 0, 0, false);
    SeparationModel.Proposal p = SeparationModel.propose(insertMode(), readOnly, null, AGE, RATIO);
    assertEquals(SeparationModel.INLINE_CAP_BYTES, p.settings().minBlobBytes(), p.reason());
    assertEquals(96, p.settings().mediumFromBytes(), "no puts: the classes stay");
    assertEquals(0, p.settings().gcAgeCutoff(), "too few writes to judge garbage collection: left as it was");
    assertTrue(p.readDriven());
  }

  @Test
  void shouldWeighReadsAgainstTheSavingsOfLargeValues() {
    // 1,000 large values of 2 KB written with A = 6 save about (2048 - 12) * 6 - 2360 = 9856 B
    // each when separated: 20 reads per write (80 KiB) outweigh it, one per ten (410 B) does not,
    // though it does outweigh what separating the smallest medium value saves (about 100 B).
    SeparationModel.Proposal fewReads = SeparationModel.propose(insertMode(), reading(100, 1000, 2_048_000), null, AGE, RATIO);
    assertEquals(1000, fewReads.settings().minBlobBytes(), fewReads.reason());
    SeparationModel.Proposal scans = SeparationModel.propose(insertMode(), reading(20_000, 1000, 2_048_000), null, AGE, RATIO);
    assertEquals(SeparationModel.INLINE_CAP_BYTES, scans.settings().minBlobBytes(), scans.reason());
    // Values of a page or more stay separated whatever the reads.
    SeparationSettings s = scans.settings();
    assertTrue(s.separates(SeparationModel.INLINE_CAP_BYTES) && !s.separates(SeparationModel.INLINE_CAP_BYTES - 1), s.toString());
  }

  @Test
  void shouldSeparateAgainWhenWritesReturn() {
    SeparationSettings readMode = SeparationModel.propose(insertMode(), reading(1000, 0, 0), null, AGE, RATIO).settings();
    SeparationModel.Proposal writes = SeparationModel.propose(readMode, reading(0, 0, 0), null, AGE, RATIO);
    assertEquals(96, writes.settings().minBlobBytes(), writes.reason());
    assertTrue(!writes.readDriven());
  }
}
