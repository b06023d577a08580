package io.p2kv.ycsb;

import java.util.Properties;
import java.util.concurrent.TimeUnit;

/**
 * Settles a store between benchmark phases: opens it exactly as the binding does, flushes its
 * memtables, waits until RocksDB estimates no pending compaction (or a timeout), and closes it
 * (closing waits for compactions still running). The next phase then starts from an LSM-tree
 * that carries no flush or compaction debt from the previous one, and measures its own work
 * only; without this, on 2 cores the previous phase's compactions run during the next one and
 * make a phase's result depend on what ran before it.
 *
 * <pre>{@code java -cp ... io.p2kv.ycsb.Settle io.p2kv.ycsb.P2kvYcsbClient p2kv.dir=/path [p2kv.x=y ...]}</pre>
 *
 * Prints one line: the seconds it took, the pending bytes before and after, and for p2kv where its
 * values are (bytes in blob files and in SST files).
 */
public final class Settle {
  private static final long POLL_MS = 100;
  private static final long TIMEOUT_S = 300;

  private Settle() {}

  /**
   * Settles one store.
   *
   * @param args the binding's class name, then {@code name=value} properties
   * @throws Exception if the store cannot be opened, flushed or closed
   */
  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: Settle <binding class> p2kv.dir=<dir> [p2kv.name=value ...]");
      System.exit(2);
    }
    StoreYcsbClient client =
        (StoreYcsbClient) Class.forName(args[0]).getDeclaredConstructor().newInstance();
    Properties props = new Properties();
    for (int i = 1; i < args.length; i++) {
      int eq = args[i].indexOf('=');
      if (eq <= 0) {
        throw new IllegalArgumentException("not name=value: " + args[i]);
      }
      props.setProperty(args[i].substring(0, eq), args[i].substring(eq + 1));
    }
    long start = System.nanoTime();
    YcsbStore store = client.open(BindingConfig.parse(props));
    long before;
    long after;
    String placement;
    try {
      store.flush();
      before = store.pendingCompactionBytes();
      after = before;
      long deadline = start + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
      while (after > 0 && System.nanoTime() - deadline < 0) {
        Thread.sleep(POLL_MS);
        after = store.pendingCompactionBytes();
      }
      placement = store.placement();
    } finally {
      store.close();
    }
    System.out.printf(
        "settled %s in %.1f s: pending compaction %d -> %d bytes%s%n",
        props.getProperty(BindingConfig.DIR), (System.nanoTime() - start) / 1e9, before, after,
        placement.isEmpty() ? "" : "; " + placement);
  }
}
