package io.p2kv;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The configuration matrix most store tests run under: shards 1 and 4, a tiny and a large queue,
 * two idle strategies, both read paths.
 */
final class StoreMatrix {
  private StoreMatrix() {}

  record Config(int shards, int queueCapacity, IdleMode idle, ReadPath readPath) {
    P2kv.Builder builder() {
      return P2kv.builder()
          .shards(shards)
          .queueCapacity(queueCapacity)
          .idleMode(idle)
          .readPath(readPath)
          .memoryBudgetBytes(64L << 20);
    }

    @Override
    public String toString() {
      return "shards=" + shards + " queue=" + queueCapacity + " idle=" + idle + " reads=" + readPath;
    }
  }

  static List<Arguments> configs() {
    List<Arguments> out = new ArrayList<>();
    for (int shards : new int[] {1, 4}) {
      for (int queue : new int[] {2, 4096}) {
        for (IdleMode idle : new IdleMode[] {IdleMode.PARK, IdleMode.BACKOFF}) {
          for (ReadPath path : ReadPath.values()) {
            out.add(Arguments.of(new Config(shards, queue, idle, path)));
          }
        }
      }
    }
    return out;
  }
}
