package io.p2kv.bench;

import io.p2kv.internal.separation.WriteProfile;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The cost the adaptive value-separation policy adds to every put on the worker thread: {@link
 * WriteProfile#recordPut} (value-size histogram, medium counts, key hash and the update-ratio
 * sample), with 24-byte keys over 4 M distinct keys (so the sample table is in its steady state)
 * and Parallax MD value sizes. {@code publish} runs once per 32 puts, as once per write batch.
 *
 * <p>Run: {@code java -jar jmh-benchmarks/target/benchmarks.jar WriteProfileBenchmark}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
public class WriteProfileBenchmark {
  private static final int KEYS = 1 << 22;

  byte[][] keys;
  int[] sizes;
  WriteProfile profile;
  int next;

  @Setup(Level.Trial)
  public void setup() {
    keys = new byte[KEYS][];
    sizes = new int[KEYS];
    SplittableRandom rnd = new SplittableRandom(1);
    for (int i = 0; i < KEYS; i++) {
      keys[i] = ValueSeparationBenchmark.key(rnd.nextLong(KEYS * 4L));
      int p = rnd.nextInt(100);
      sizes[i] = p < 20 ? 9 : p < 80 ? 104 : 1004;
    }
    profile = new WriteProfile();
    profile.nextWindow(96, 1000);
  }

  @Benchmark
  public void recordPut() {
    int i = next++ & (KEYS - 1);
    profile.recordPut(keys[i], sizes[i]);
    if ((i & 31) == 0) {
      profile.publish();
    }
  }

  /** The same loop without the profile: what the harness and array reads cost alone. */
  @Benchmark
  public int baseline() {
    int i = next++ & (KEYS - 1);
    return keys[i].length + sizes[i];
  }
}
