package io.p2kv;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.Function;

/**
 * The causal half of the consistent-cut guarantee, for the cut tests: each writer thread puts a
 * counter n to its key A and, once that put returned, n to its key B on another shard, then notes
 * n as acknowledged. A consistent cut never holds B's counter without A's (A's is at least B's),
 * and holds every pair acknowledged before the cut was asked for.
 */
final class CausalPairs {
  private final byte[][] a;
  private final byte[][] b;
  private final AtomicLongArray acked;
  private final AtomicBoolean stop = new AtomicBoolean();
  private final ExecutorService pool;
  private final List<Future<?>> running = new ArrayList<>();

  /** Starts {@code writers} writer threads. */
  CausalPairs(P2kv store, int writers) {
    a = new byte[writers][];
    b = new byte[writers][];
    acked = new AtomicLongArray(writers);
    for (int w = 0; w < writers; w++) {
      a[w] = Keys.key("a" + w);
      int i = 0;
      do {
        b[w] = Keys.key("b" + w + "-" + i++);
      } while (store.shardOf(b[w]) == store.shardOf(a[w]));
    }
    pool = Executors.newFixedThreadPool(writers);
    for (int w = 0; w < writers; w++) {
      int me = w;
      running.add(pool.submit(() -> {
        for (long n = 1; !stop.get(); n++) {
          store.put(a[me], Transfers.amount(n));
          store.put(b[me], Transfers.amount(n));
          acked.set(me, n);
        }
        return null;
      }));
    }
  }

  /** The pairs acknowledged so far, per writer: take it just before asking for a cut. */
  long[] acknowledged() {
    long[] out = new long[a.length];
    for (int w = 0; w < out.length; w++) {
      out[w] = acked.get(w);
    }
    return out;
  }

  /**
   * Checks one cut.
   *
   * @param get reads a key in the cut
   * @param before {@link #acknowledged()} just before the cut was asked for
   * @param where the cut, for messages
   */
  void check(Function<byte[], byte[]> get, long[] before, String where) {
    for (int w = 0; w < a.length; w++) {
      long inA = counter(get.apply(a[w]));
      long inB = counter(get.apply(b[w]));
      if (inB > inA) {
        throw new AssertionError(where + ", writer " + w + ": B=" + inB + " is in the cut but A=" + inA);
      }
      if (inB < before[w]) {
        throw new AssertionError(
            where + ", writer " + w + ": pair " + before[w] + " was acknowledged before the cut but it has B=" + inB);
      }
    }
  }

  private static long counter(byte[] v) {
    return v == null ? 0 : Transfers.amount(v);
  }

  /** Stops the writers and waits for them, rethrowing a writer's failure. */
  void stop() throws Exception {
    stop.set(true);
    pool.shutdown();
    for (Future<?> f : running) {
      f.get(60, TimeUnit.SECONDS);
    }
  }
}
