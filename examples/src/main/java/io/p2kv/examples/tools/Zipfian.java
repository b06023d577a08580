package io.p2kv.examples.tools;

import java.util.SplittableRandom;

/**
 * Scrambled Zipfian over {@code [0, n)}, as in YCSB (Gray et al., "Quickly generating billion-record
 * synthetic databases"): popular items are spread over the key space by a hash, so hot keys do not
 * cluster on one shard by construction. Immutable and thread-safe; pass each thread its own random.
 * The demo's Zipfian row and the JMH benchmarks use it.
 */
public final class Zipfian {
  private final long n;
  private final double theta;
  private final double alpha;
  private final double zetan;
  private final double eta;

  /**
   * Creates a generator.
   *
   * @param n number of items
   * @param theta skew (YCSB's default 0.99)
   */
  public Zipfian(long n, double theta) {
    this.n = n;
    this.theta = theta;
    this.alpha = 1.0 / (1.0 - theta);
    this.zetan = zeta(n, theta);
    double zeta2 = zeta(2, theta);
    this.eta = (1 - Math.pow(2.0 / n, 1 - theta)) / (1 - zeta2 / zetan);
  }

  private static double zeta(long n, double theta) {
    double sum = 0;
    for (long i = 1; i <= n; i++) {
      sum += 1 / Math.pow(i, theta);
    }
    return sum;
  }

  /** The next item, scrambled over [0, n). */
  public long next(SplittableRandom rnd) {
    double u = rnd.nextDouble();
    double uz = u * zetan;
    long rank;
    if (uz < 1.0) {
      rank = 0;
    } else if (uz < 1.0 + Math.pow(0.5, theta)) {
      rank = 1;
    } else {
      rank = (long) (n * Math.pow(eta * u - eta + 1, alpha));
    }
    return Long.remainderUnsigned(Demo.mix(rank), n);
  }
}
