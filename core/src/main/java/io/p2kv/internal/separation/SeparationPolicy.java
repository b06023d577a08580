package io.p2kv.internal.separation;

import io.p2kv.SeparationSettings;
import io.p2kv.ValueSeparation;

/**
 * Resolves a public {@link ValueSeparation} policy into the engine-neutral {@link
 * SeparationSettings} a shard opens with: the one place where the policy's defaults become
 * concrete settings.
 */
public final class SeparationPolicy {
  private SeparationPolicy() {}

  /**
   * The settings every shard opens with.
   *
   * @param policy the policy
   * @return the settings
   */
  public static SeparationSettings initialSettings(ValueSeparation policy) {
    return switch (policy.mode()) {
      case NONE -> SeparationSettings.NONE;
      case ALL -> new SeparationSettings(true, 0, 0, policy.gcAgeCutoff(), policy.gcGarbageRatio(), -1, -1);
      case THRESHOLD ->
          new SeparationSettings(true, policy.thresholdBytes(), 0, policy.gcAgeCutoff(), policy.gcGarbageRatio(), -1, -1);
      case SIZE_AWARE ->
          policy.adaptive()
              ? SeparationModel.initialAdaptive(policy.mediumFromBytes(), policy.largeFromBytes(), policy.gcGarbageRatio())
              : SeparationModel.initial(
                  policy.mediumFromBytes(), policy.largeFromBytes(), policy.gcAgeCutoff(), policy.gcGarbageRatio());
    };
  }
}
