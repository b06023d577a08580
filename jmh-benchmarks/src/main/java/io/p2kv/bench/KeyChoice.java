package io.p2kv.bench;

import io.p2kv.examples.tools.Zipfian;
import java.util.SplittableRandom;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The preloaded key space and how a benchmark picks keys from it, uniform or Zipfian (0.99,
 * scrambled): the data shape shared by the targets of one benchmark ({@code -p keys}, {@code -p
 * distribution}).
 */
@State(Scope.Benchmark)
public class KeyChoice {
  /** Number of preloaded keys. */
  @Param({"1000000"})
  public long keys;

  /** Key choice: uniform or zipfian (theta 0.99). */
  @Param({"uniform", "zipfian"})
  public String distribution;

  Zipfian zipfian;

  @Setup(Level.Trial)
  public void setup() {
    zipfian = distribution.equals("zipfian") ? new Zipfian(keys, 0.99) : null;
  }

  /** The index of the next key to use, in {@code [0, keys)}. */
  long nextIndex(SplittableRandom rnd) {
    return zipfian != null ? zipfian.next(rnd) : rnd.nextLong(keys);
  }
}
