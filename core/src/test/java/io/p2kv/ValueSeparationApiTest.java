package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The public policy type: factories, validation, value semantics. */
class ValueSeparationApiTest {
  @Test
  void shouldDefaultToTheAdaptiveSizeAwarePolicyWithTheMeasuredDefaults() {
    ValueSeparation p = ValueSeparation.sizeAware();
    assertEquals(ValueSeparation.Mode.SIZE_AWARE, p.mode());
    assertTrue(p.adaptive());
    assertFalse(p.thresholdsGiven());
    assertEquals(96, p.mediumFromBytes());
    assertEquals(1000, p.largeFromBytes());
    assertEquals(0.1, p.gcAgeCutoff());
    assertEquals(0.3, p.gcGarbageRatio());
    assertFalse(p.fixed().adaptive());
  }

  @Test
  void shouldRejectOutOfRangeSettingsAtOnce() {
    assertThrows(IllegalArgumentException.class, () -> ValueSeparation.threshold(-1));
    assertThrows(IllegalArgumentException.class, () -> ValueSeparation.threshold(P2kv.MAX_VALUE_BYTES + 1));
    assertThrows(IllegalArgumentException.class, () -> ValueSeparation.sizeAware().withThresholds(0, 10));
    assertThrows(IllegalArgumentException.class, () -> ValueSeparation.sizeAware().withThresholds(100, 99));
    assertThrows(IllegalArgumentException.class, () -> ValueSeparation.all().withGarbageCollection(1.5, 0.3));
    assertThrows(IllegalArgumentException.class, () -> ValueSeparation.all().withGarbageCollection(0.1, Double.NaN));
    assertThrows(IllegalStateException.class, () -> ValueSeparation.none().withGarbageCollection(0.1, 0.3));
    assertThrows(IllegalStateException.class, () -> ValueSeparation.all().withThresholds(10, 100));
    assertThrows(IllegalStateException.class, () -> ValueSeparation.threshold(10).fixed());
    assertThrows(NullPointerException.class, () -> P2kv.builder().valueSeparation(null));
  }

  @Test
  void shouldCompareByValueAndDescribeItself() {
    assertEquals(ValueSeparation.threshold(100), ValueSeparation.threshold(100));
    assertEquals(ValueSeparation.threshold(100).hashCode(), ValueSeparation.threshold(100).hashCode());
    assertNotEquals(ValueSeparation.threshold(100), ValueSeparation.threshold(101));
    assertNotEquals(ValueSeparation.sizeAware(), ValueSeparation.sizeAware().fixed());
    assertEquals("none()", ValueSeparation.none().toString());
    assertEquals("threshold(4096, gc age<=0.10 force@0.30)", ValueSeparation.threshold(4096).toString());
    assertTrue(ValueSeparation.sizeAware().toString().contains("adaptive"));
  }
}
