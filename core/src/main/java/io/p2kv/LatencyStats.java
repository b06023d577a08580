package io.p2kv;

/**
 * Immutable: the latency distribution of one operation type since the store opened, recorded when
 * {@link P2kv.Builder#recordLatency(boolean)} is on. A sync call's latency runs from the call to
 * its return; an async call's from the call to the completion of its future or callback. Only
 * operations that succeeded are recorded. Values are accurate to about 1 % (HdrHistogram, two
 * significant digits); latencies above one minute count as one minute.
 *
 * @param operation the operation type
 * @param count operations recorded
 * @param meanNanos mean latency
 * @param p50Nanos median
 * @param p90Nanos 90th percentile
 * @param p99Nanos 99th percentile
 * @param p999Nanos 99.9th percentile
 * @param maxNanos largest latency recorded
 */
public record LatencyStats(
    OperationType operation,
    long count,
    long meanNanos,
    long p50Nanos,
    long p90Nanos,
    long p99Nanos,
    long p999Nanos,
    long maxNanos) {}
