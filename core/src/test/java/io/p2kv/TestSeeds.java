package io.p2kv;

import java.util.concurrent.ThreadLocalRandom;
import org.opentest4j.TestAbortedException;

/**
 * Replayable seeds for randomised tests. A run has one base seed: {@code -Dp2kv.seed=N} if given,
 * else a fresh random one per JVM. Each test or case derives its own seed from the base and its
 * name (a string, so it hashes the same in every JVM), prints the base as {@code p2kv.seed=N for
 * Test[case] (replay: -Dp2kv.seed=N)}, and any failure is rethrown with that line at the start of
 * its message. One {@code -Dp2kv.seed=N} replays every case of the run.
 *
 * <p>The other modules use it from core's test jar.
 */
public final class TestSeeds {
  /** The system property that replays a run. */
  public static final String PROPERTY = "p2kv.seed";

  private static final long RANDOM_BASE = ThreadLocalRandom.current().nextLong();

  private TestSeeds() {}

  /** A test body that takes its seed. */
  @FunctionalInterface
  public interface Body {
    void run(long seed) throws Exception;
  }

  /** The run's base seed: {@code -Dp2kv.seed} if set, else one random seed for this JVM. */
  public static long base() {
    String given = System.getProperty(PROPERTY);
    if (given == null || given.isBlank()) {
      return RANDOM_BASE;
    }
    try {
      return Long.parseLong(given.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("-D" + PROPERTY + " must be a long, not '" + given + "'", e);
    }
  }

  /** The seed of one case: a function of the base seed and the case's name only. */
  static long derive(long base, String name) {
    return mix(base ^ (name.hashCode() * 0x9E3779B97F4A7C15L));
  }

  /**
   * Runs one randomised test or case: prints the base seed with the case's name, passes the body
   * its derived seed, and rethrows any failure as an {@link AssertionError} whose message starts
   * with the seed (the original is its cause). An aborted test (a failed assumption) passes through.
   *
   * @param testClass the test class ({@code getClass()}, so a subclass of a contract names itself)
   * @param testCase the method, and for a parameterised test its arguments, e.g. {@code
   *     "shouldMatch: shards=4"}
   */
  public static void run(Class<?> testClass, String testCase, Body body) {
    String name = testClass.getName().substring(testClass.getPackageName().length() + 1).replace('$', '.');
    String label = name + "[" + testCase + "]";
    long base = base();
    String line = PROPERTY + "=" + base + " for " + label + " (replay: -D" + PROPERTY + "=" + base + ")";
    System.out.println(line);
    try {
      body.run(derive(base, label));
    } catch (TestAbortedException e) {
      throw e;
    } catch (Throwable t) {
      String what = t instanceof AssertionError && t.getMessage() != null ? t.getMessage() : t.toString();
      throw new AssertionError(line + ": " + what, t);
    }
  }

  /** SplitMix64's finaliser: a bijection, so distinct bases give a case distinct seeds. */
  private static long mix(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
