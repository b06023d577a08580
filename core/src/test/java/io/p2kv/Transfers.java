package io.p2kv;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Money transfers between accounts on different shards, for the consistent-cut tests: each writer
 * owns a few accounts, each on its own shard, so it knows their balances without reading them and
 * moves amounts between them with cross-shard batches. The sum over all accounts never changes, so
 * any consistent view of the store shows the same total.
 */
final class Transfers {
  /** The prefix of every account key. */
  static final byte[] PREFIX = Keys.key("acct/");

  private Transfers() {}

  static byte[] amount(long v) {
    return ByteBuffer.allocate(8).putLong(v).array();
  }

  static long amount(byte[] v) {
    return ByteBuffer.wrap(v).getLong();
  }

  /**
   * Account keys: {@code writers} sets of {@code perWriter} keys, each set on distinct shards.
   *
   * @return keys[writer][account]
   */
  static byte[][][] accounts(P2kv store, int writers, int perWriter) {
    if (perWriter > store.shardCount()) {
      throw new IllegalArgumentException("at most one account per shard: " + perWriter + " > " + store.shardCount());
    }
    byte[][][] out = new byte[writers][perWriter][];
    int next = 0;
    for (int w = 0; w < writers; w++) {
      boolean[] used = new boolean[store.shardCount()];
      for (int a = 0; a < perWriter; a++) {
        byte[] k;
        do {
          k = Keys.key("acct/" + w + "/" + next++);
        } while (used[store.shardOf(k)]);
        used[store.shardOf(k)] = true;
        out[w][a] = k;
      }
    }
    return out;
  }

  /**
   * Puts {@code each} into every account.
   *
   * @return the total
   */
  static long fund(P2kv store, byte[][][] accounts, long each) {
    long total = 0;
    for (byte[][] mine : accounts) {
      for (byte[] k : mine) {
        store.put(k, amount(each));
        total += each;
      }
    }
    return total;
  }

  /**
   * The sum over all accounts, read with one multiGet per writer's accounts.
   *
   * @param reads the store or a copy of it
   */
  static long total(P2kv reads, byte[][][] accounts) {
    return total(reads::multiGet, accounts);
  }

  /**
   * The sum over all accounts, read with one multiGet per writer's accounts.
   *
   * @param multiGet a store's, a copy's or a snapshot's multiGet
   */
  static long total(java.util.function.Function<List<byte[]>, List<byte[]>> multiGet, byte[][][] accounts) {
    long sum = 0;
    for (byte[][] mine : accounts) {
      for (byte[] v : multiGet.apply(List.of(mine))) {
        sum += amount(v);
      }
    }
    return sum;
  }

  /**
   * One writer's loop: moves random amounts between two of its accounts with one cross-shard
   * batch each, until {@code stop}.
   *
   * @param each every account's starting balance
   * @return the number of transfers
   */
  static long run(P2kv store, byte[][] mine, long each, Random rnd, AtomicBoolean stop) {
    long[] balance = new long[mine.length];
    Arrays.fill(balance, each);
    long n = 0;
    while (!stop.get()) {
      int from = rnd.nextInt(mine.length);
      int to = (from + 1 + rnd.nextInt(mine.length - 1)) % mine.length;
      long move = rnd.nextInt(100);
      balance[from] -= move;
      balance[to] += move;
      store.write(new Batch().put(mine[from], amount(balance[from])).put(mine[to], amount(balance[to])));
      n++;
    }
    return n;
  }

  /** Writer threads running {@link #run}, one per set of accounts, until stopped. */
  static final class Writers {
    private final AtomicBoolean stop = new AtomicBoolean();
    private final ExecutorService pool;
    private final List<Future<Long>> running = new ArrayList<>();

    /** Starts one writer per set of {@code accounts}, each with its own seed from {@code seed}. */
    Writers(P2kv store, byte[][][] accounts, long each, long seed) {
      pool = Executors.newFixedThreadPool(accounts.length);
      for (int w = 0; w < accounts.length; w++) {
        byte[][] mine = accounts[w];
        Random rnd = new Random(seed + w);
        running.add(pool.submit(() -> Transfers.run(store, mine, each, rnd, stop)));
      }
    }

    /**
     * Stops the writers and waits for them, rethrowing a writer's failure.
     *
     * @return the transfers made
     */
    long stop() throws Exception {
      stop.set(true);
      pool.shutdown();
      long n = 0;
      for (Future<Long> f : running) {
        n += f.get(60, TimeUnit.SECONDS);
      }
      return n;
    }
  }
}
