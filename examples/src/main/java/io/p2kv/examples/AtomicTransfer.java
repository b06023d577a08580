package io.p2kv.examples;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.p2kv.Batch;
import io.p2kv.Durability;
import io.p2kv.P2kv;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Transfers between accounts on different shards, each one atomic {@link Batch} (all or nothing
 * across shards), by several threads, while the main thread audits the total. Each thread owns its
 * accounts: update() is atomic per key only, so a two-key read-modify-write needs one writer.
 *
 * <p>Run: {@code ./p2kv example AtomicTransfer [dir]}.
 */
public final class AtomicTransfer {
  private AtomicTransfer() {}

  static final int THREADS = 4;
  static final int TRANSFERS = 2_000; // per thread

  public static void main(String[] args) throws Exception {
    // After a crash, reopening rolls back every cross-shard batch that had not committed. Then, by
    // durability mode (README "Durability and atomicity"):
    //   WAL (default) acknowledged batches survive a process crash and none is torn by one; an OS
    //                 crash or power loss may lose recent batches and tear one across shards
    //   SYNC          acknowledged batches survive power loss; none is ever torn
    //   NO_WAL        recent batches are lost on any crash, and one may be torn
    try (ExampleDir dir = ExampleDir.fromArgs(args, "p2kv-transfer");
        P2kv store = P2kv.builder().shards(4).durability(Durability.WAL).open(dir.path())) {
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      List<Future<?>> running = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        List<byte[]> mine = new ArrayList<>(); // one account per shard: account j on shard j
        Batch opening = new Batch();
        for (int i = 0; mine.size() < store.shardCount(); i++) {
          byte[] name = ("acct:" + t + ":" + i).getBytes(UTF_8);
          if (store.shardOf(name) == mine.size()) {
            mine.add(name);
            opening.put(name, amount(1_000));
          }
        }
        store.write(opening); // one atomic batch over every shard
        System.out.println("thread " + t + " owns " + mine.stream()
            .map(a -> new String(a, UTF_8) + " (shard " + store.shardOf(a) + ")").toList());
        SplittableRandom rnd = new SplittableRandom(t);
        running.add(pool.submit(() -> transfer(store, mine, rnd)));
      }
      pool.shutdown(); // runs what was submitted, then its threads end
      long expected = 1_000L * THREADS * store.shardCount();
      // Reads may see a transfer half done: while in flight, or landing between two shards' views.
      int audits = 0;
      int off = 0;
      while (!pool.isTerminated()) {
        audits++;
        off += total(store) == expected ? 0 : 1;
      }
      for (Future<?> f : running) {
        f.get(); // rethrows a transfer's failure
      }
      System.out.printf("%,d cross-shard transfers by %d threads; meanwhile %,d of %,d totals read were off"
          + " (readers are not isolated from them)%n", THREADS * TRANSFERS, THREADS, off, audits);
      System.out.printf("total after the transfers: %,d (expected %,d)%n", total(store), expected);
    }
  }

  /** Moves random sums between two of the owner's accounts, which are on different shards. */
  private static void transfer(P2kv store, List<byte[]> mine, SplittableRandom rnd) {
    for (int n = 0; n < TRANSFERS; n++) {
      int i = rnd.nextInt(mine.size());
      byte[] from = mine.get(i);
      byte[] to = mine.get((i + 1 + rnd.nextInt(mine.size() - 1)) % mine.size());
      long fromBalance = balance(store.get(from)); // a thread reads its own completed writes
      long sum = Math.min(1 + rnd.nextInt(20), fromBalance);
      store.write(new Batch().put(from, amount(fromBalance - sum)) // both or neither
          .put(to, amount(balance(store.get(to)) + sum)));
    }
  }

  /** All balances by one ordered read: shard views taken one after another, not all at once. */
  static long total(P2kv store) {
    return store.range("acct:".getBytes(UTF_8), "acct;".getBytes(UTF_8), 1_000).stream()
        .mapToLong(kv -> balance(kv.value())).sum();
  }

  static byte[] amount(long balance) {
    return Long.toString(balance).getBytes(UTF_8);
  }

  static long balance(byte[] value) {
    return Long.parseLong(new String(value, UTF_8));
  }
}
