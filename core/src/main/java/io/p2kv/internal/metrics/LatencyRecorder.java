package io.p2kv.internal.metrics;

import io.p2kv.LatencyStats;
import io.p2kv.OperationType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.HdrHistogram.AtomicHistogram;
import org.HdrHistogram.Histogram;

/**
 * Records operation latencies into HdrHistograms, one set per {@link OperationType}.
 *
 * <h2>Concurrency</h2>
 * Any thread records: sync callers their own calls, shard workers the async requests they
 * complete. Each operation type has a few stripes, each an {@link AtomicHistogram} (lock-free
 * atomic increments); a thread records into the stripe picked by a hash of its id, so threads
 * running on different cores rarely write the same cache lines. A stripe's histogram is created on
 * first use, so operation types that are never called cost no memory (about 30 KB per stripe).
 * {@link #snapshot()} sums the stripes into a fresh histogram; it sees each stripe's counts as
 * they are at that moment, not an atomic cut across stripes, which is fine for monitoring.
 *
 * <h2>Cost</h2>
 * Two {@link System#nanoTime()} calls and two uncontended atomic increments per operation;
 * measured with the JMH PutBenchmark in docs/ARCHITECTURE.md (Metrics).
 */
public final class LatencyRecorder {
  /** Latencies above this are recorded as this. */
  static final long MAX_TRACKED_NANOS = TimeUnit.MINUTES.toNanos(1);

  /** About 1 % precision. */
  private static final int SIGNIFICANT_DIGITS = 2;

  private static final OperationType[] TYPES = OperationType.values();

  private final int stripeMask;
  private final AtomicReferenceArray<AtomicHistogram> histograms;

  /**
   * Creates a recorder with a stripe count suited to this machine.
   *
   * @return the recorder
   */
  public static LatencyRecorder create() {
    return new LatencyRecorder(Runtime.getRuntime().availableProcessors());
  }

  /**
   * Creates a recorder.
   *
   * @param cores cores expected to record concurrently
   */
  LatencyRecorder(int cores) {
    int wanted = Math.max(4, Math.min(16, 2 * cores));
    int stripes = Integer.highestOneBit(2 * wanted - 1); // the next power of two
    this.stripeMask = stripes - 1;
    this.histograms = new AtomicReferenceArray<>(TYPES.length * stripes);
  }

  /**
   * Records one operation that started at {@code startNanos} and ends now.
   *
   * @param type the operation type
   * @param startNanos {@link System#nanoTime()} when the operation started
   */
  public void record(OperationType type, long startNanos) {
    recordAt(type, startNanos, System.nanoTime());
  }

  /**
   * Records one operation that started at {@code startNanos} and ended at {@code endNanos} (a
   * worker completing a run reads the clock once for all of its requests).
   *
   * @param type the operation type
   * @param startNanos when it started
   * @param endNanos when it ended
   */
  public void recordAt(OperationType type, long startNanos, long endNanos) {
    long nanos = Math.min(MAX_TRACKED_NANOS, Math.max(0, endNanos - startNanos));
    histogram(type.ordinal() * (stripeMask + 1) + stripe()).recordValue(nanos);
  }

  private int stripe() {
    long id = Thread.currentThread().getId();
    return (int) ((id * 0x9E3779B97F4A7C15L) >>> 40) & stripeMask;
  }

  private AtomicHistogram histogram(int slot) {
    AtomicHistogram h = histograms.get(slot);
    if (h == null) {
      AtomicHistogram created = new AtomicHistogram(MAX_TRACKED_NANOS, SIGNIFICANT_DIGITS);
      h = histograms.compareAndExchange(slot, null, created);
      if (h == null) {
        h = created;
      }
    }
    return h;
  }

  /**
   * The distribution of every operation type recorded so far.
   *
   * @return one entry per operation type, in {@link OperationType} order, with zeros where
   *     nothing was recorded
   */
  public List<LatencyStats> snapshot() {
    int stripes = stripeMask + 1;
    List<LatencyStats> out = new ArrayList<>(TYPES.length);
    for (OperationType type : TYPES) {
      Histogram sum = new Histogram(MAX_TRACKED_NANOS, SIGNIFICANT_DIGITS);
      for (int s = 0; s < stripes; s++) {
        AtomicHistogram h = histograms.get(type.ordinal() * stripes + s);
        if (h != null) {
          sum.add(h);
        }
      }
      out.add(stats(type, sum));
    }
    return out;
  }

  private static LatencyStats stats(OperationType type, Histogram h) {
    long count = h.getTotalCount();
    if (count == 0) {
      return new LatencyStats(type, 0, 0, 0, 0, 0, 0, 0);
    }
    return new LatencyStats(
        type,
        count,
        Math.round(h.getMean()),
        h.getValueAtPercentile(50),
        h.getValueAtPercentile(90),
        h.getValueAtPercentile(99),
        h.getValueAtPercentile(99.9),
        h.getMaxValue());
  }
}
