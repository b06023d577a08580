package io.p2kv.bench.report;

/**
 * A bottleneck model of p2kv's throughput on {@code cores} cores with {@code shards} shards, from
 * CPU costs per operation measured stage by stage (docs/benchmarks/SCALING.md). Assumptions:
 *
 * <ul>
 *   <li><b>Serial per shard:</b> one thread at a time holds a shard's worker role (the worker
 *       thread or a sync caller combining), and everything it does is serial: dequeue and
 *       completion ({@code handoffNanos} per operation), RocksDB's cost per key ({@code
 *       perKeyNanos}: memtable insert and WAL record) and per engine write ({@code perBatchNanos}:
 *       the write group and the WAL append, shared by the batch). A shard completes at most {@code
 *       1 / serial} operations per nanosecond, and keys are hashed evenly over the shards.
 *   <li><b>Parallel:</b> the callers' own cost ({@code callerNanos}: enqueue, wait, completion
 *       seen; for a direct get, the whole RocksDB lookup), plus {@code perExtraShardNanos} for
 *       every shard beyond the first (a hash-partitioned scan seeks every shard), the background flush and compaction
 *       ({@code backgroundNanos}, RocksDB's thread pool, shared by all shards: per written byte
 *       times the bytes an operation writes) and the JVM ({@code jvmNanos}: GC and JIT) run on any
 *       core.
 *   <li><b>Batches:</b> a shard's engine write carries {@code batchFraction} of the requests its
 *       callers keep in flight ({@code callers x inFlightPerCaller / shards}), at least 1 and at
 *       most {@code maxBatch}; the fraction is measured on one shard and assumed to hold for more.
 *   <li><b>CPU-bound, not I/O-bound:</b> 128-byte pairs on an SSD, as in the paper's analysis
 *       (section 3): the device's bandwidth is not modelled, and neither are cache effects, lock
 *       contention in RocksDB's shared block cache or the scheduler's cost when threads outnumber
 *       cores.
 * </ul>
 *
 * Throughput is then the smallest of three bounds: all cores busy ({@code usableCores x cores /
 * total}, where {@code usableCores} is the share of the cores the process kept busy when the costs
 * were measured: sleeping and waking threads leave some idle), every
 * shard's role busy ({@code shards / serial}), and the callers' own threads busy ({@code min(cores,
 * callers) / caller}).
 *
 * @param name workload name
 * @param callerNanos parallel CPU per operation on caller threads, with one shard
 * @param perExtraShardNanos parallel caller CPU per operation for each further shard
 * @param handoffNanos serial CPU per operation of p2kv's own in the worker role
 * @param perKeyNanos serial RocksDB CPU per key written (0 for reads that run on the caller)
 * @param perBatchNanos serial RocksDB CPU per engine write
 * @param backgroundNanos parallel background (flush, compaction) CPU per operation
 * @param jvmNanos parallel GC and JIT CPU per operation
 * @param batchFraction fraction of the in-flight requests of a shard that one engine write carries
 * @param inFlightPerCaller requests each caller keeps in flight (1 for sync callers)
 * @param maxBatch most requests per engine write
 * @param usableCores share of the cores that can be kept busy (0-1]
 */
public record ScalingModel(
    String name,
    double callerNanos,
    double perExtraShardNanos,
    double handoffNanos,
    double perKeyNanos,
    double perBatchNanos,
    double backgroundNanos,
    double jvmNanos,
    double batchFraction,
    int inFlightPerCaller,
    int maxBatch,
    double usableCores) {

  /** Which bound limits a projection. */
  public enum Bound {
    /** Every core is busy. */
    CORES,
    /** Every shard's worker role is busy. */
    SHARDS,
    /** Every caller thread is busy. */
    CALLERS
  }

  /**
   * One projected point.
   *
   * @param opsPerSecond throughput
   * @param bound the bound that limits it
   * @param batch requests per engine write
   * @param serialNanos serial CPU per operation in a shard's worker role
   * @param totalNanos CPU per operation in all
   */
  public record Projection(double opsPerSecond, Bound bound, double batch, double serialNanos, double totalNanos) {}

  public ScalingModel {
    for (double cost : new double[] {callerNanos, perExtraShardNanos, handoffNanos, perKeyNanos, perBatchNanos, backgroundNanos, jvmNanos}) {
      if (!(cost >= 0 && cost < Double.POSITIVE_INFINITY)) {
        throw new IllegalArgumentException(name + ": every cost per operation must be finite and >= 0, got " + cost);
      }
    }
    if (!(usableCores > 0 && usableCores <= 1)) {
      throw new IllegalArgumentException(name + ": usableCores must be in (0, 1], got " + usableCores);
    }
    if (!(batchFraction > 0) || inFlightPerCaller < 1 || maxBatch < 1) {
      throw new IllegalArgumentException(
          name + ": batchFraction must be > 0, inFlightPerCaller and maxBatch >= 1, got "
              + batchFraction + ", " + inFlightPerCaller + ", " + maxBatch);
    }
  }

  /** Requests per engine write with {@code callers} callers spread over {@code shards} shards. */
  public double batch(int shards, int callers) {
    double queued = batchFraction * callers * (double) inFlightPerCaller / shards;
    return Math.max(1, Math.min(maxBatch, queued));
  }

  /** Parallel CPU per operation on the caller's thread with {@code shards} shards. */
  public double callerNanos(int shards) {
    return callerNanos + perExtraShardNanos * (shards - 1);
  }

  /** Serial CPU per operation in one shard's worker role. */
  public double serialNanos(int shards, int callers) {
    return handoffNanos + perKeyNanos + perBatchNanos / batch(shards, callers);
  }

  /** The projection for {@code cores} cores, {@code shards} shards and {@code callers} callers. */
  public Projection project(int cores, int shards, int callers) {
    if (cores < 1 || shards < 1 || callers < 1) {
      throw new IllegalArgumentException("cores, shards and callers must be >= 1, got " + cores + ", " + shards + ", " + callers);
    }
    double serial = serialNanos(shards, callers);
    double caller = callerNanos(shards);
    double total = caller + backgroundNanos + jvmNanos + serial;
    double byCores = usableCores * cores / total;
    double byShards = serial > 0 ? shards / serial : Double.POSITIVE_INFINITY;
    double byCallers = caller > 0 ? Math.min(cores, callers) / caller : Double.POSITIVE_INFINITY;
    Bound bound = Bound.CORES;
    double x = byCores;
    if (byShards < x) {
      bound = Bound.SHARDS;
      x = byShards;
    }
    if (byCallers < x) {
      bound = Bound.CALLERS;
      x = byCallers;
    }
    return new Projection(x * 1e9, bound, batch(shards, callers), serial, total);
  }

  /**
   * The fewest shards whose projected throughput on {@code cores} cores is within {@code tolerance}
   * (e.g. 0.05) of the best over 1..{@code maxShards} shards.
   */
  public int fewestShardsNearBest(int cores, int callers, int maxShards, double tolerance) {
    double best = 0;
    for (int s = 1; s <= maxShards; s++) {
      best = Math.max(best, project(cores, s, callers).opsPerSecond());
    }
    for (int s = 1; s <= maxShards; s++) {
      if (project(cores, s, callers).opsPerSecond() >= (1 - tolerance) * best) {
        return s;
      }
    }
    return maxShards;
  }
}
