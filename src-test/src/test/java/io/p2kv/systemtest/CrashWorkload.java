package io.p2kv.systemtest;

import io.p2kv.Batch;
import io.p2kv.Durability;
import io.p2kv.P2kv;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;

/**
 * The child process of {@link CrashTest}: opens the store and runs a mixed workload until it is
 * killed. Reports each acknowledged durable write on stdout as one line ending in {@code ;} (so
 * the parent can ignore a line torn by the kill):
 *
 * <ul>
 *   <li>{@code PUT <key> <value>;} a sync put that returned (keys are written once);
 *   <li>{@code DELETING <key>;} a sync delete of a key acknowledged earlier is about to be
 *       issued (after a kill it may or may not have been applied);
 *   <li>{@code DEL <key>;} that delete returned;
 *   <li>{@code INCING <key>;} an increment of the counter {@code key} by 1 is about to be issued;
 *       {@code INC <key> <value>;} one returned that value ({@link #COUNTER_THREADS} threads
 *       share each of the {@link #COUNTERS} counters, sync and in async bursts, so the workers
 *       take increments of one key in runs);
 *   <li>{@code APPENDING <key> <n>;} an update appending the 4-byte int n to {@code key} is about
 *       to be issued; {@code APPENDED <key> <n>;} it returned. One thread appends 0, 1, 2, ... to
 *       its own key (one per child: the seed is in it).
 *   <li>{@code RDPUT <prefix>;} a batch of {@link #RANGE_KEYS} keys under the prefix returned;
 *       {@code RDELETING <prefix>;} a range delete of the prefix's keys is about to be issued;
 *       {@code RDEL <prefix>;} it returned.
 *   <li>{@code BULK <n>;} bulk batches 0..n of {@link #BULK_KEYS} keys each, written with {@code
 *       Durability.NO_WAL} (the store itself is {@code SYNC}), were followed by a {@code flush()}
 *       that returned: they are durable.
 * </ul>
 *
 * Transfer threads move money between the accounts they own, with cross-shard batches; the total
 * over all accounts never changes. Args: {@code dir seed [checkpoints|backups TARGET]}: with the
 * last two, one more thread takes checkpoints into {@code TARGET/cp-<seed>-<n>} back to back and
 * reports each finished one as {@code CHECKPOINT <name>;}, or adds backups to the backup directory
 * {@code TARGET} back to back, keeping the last 3, and reports each as {@code BACKUP <id>;}.
 */
public final class CrashWorkload {
  static final int SHARDS = 4;
  static final int TRANSFER_THREADS = 4;
  static final int ACCOUNTS_PER_THREAD = 5;
  static final long INITIAL_BALANCE = 1_000;
  static final int COUNTERS = 2;
  static final int COUNTER_THREADS = 4;
  static final int RANGE_KEYS = 8;
  static final int BULK_KEYS = 16;

  private CrashWorkload() {}

  static P2kv open(Path dir) {
    return P2kv.builder()
        .shards(SHARDS)
        .durability(Durability.SYNC)
        // RocksDB's own log at INFO, so a failed cycle's preserved store shows its WAL recovery.
        .rocksDbConfigurer((shard, options) -> options.setInfoLogLevel(org.rocksdb.InfoLogLevel.INFO_LEVEL))
        .open(dir);
  }

  static byte[] account(int thread, int a) {
    return ("acct-" + thread + "-" + a).getBytes(StandardCharsets.UTF_8);
  }

  static byte[] amount(long v) {
    return ByteBuffer.allocate(8).putLong(v).array();
  }

  static long amount(byte[] v) {
    return ByteBuffer.wrap(v).getLong();
  }

  /** The sum over all accounts, which transfers never change. */
  static long total(P2kv store) {
    long total = 0;
    for (int t = 0; t < TRANSFER_THREADS; t++) {
      for (int a = 0; a < ACCOUNTS_PER_THREAD; a++) {
        total += amount(store.get(account(t, a)));
      }
    }
    return total;
  }

  /** Creates the accounts, once, before the first crash cycle. */
  static void initAccounts(Path dir) {
    try (P2kv store = open(dir)) {
      Batch batch = new Batch();
      for (int t = 0; t < TRANSFER_THREADS; t++) {
        for (int a = 0; a < ACCOUNTS_PER_THREAD; a++) {
          batch.put(account(t, a), amount(INITIAL_BALANCE));
        }
      }
      store.write(batch);
    }
  }

  public static void main(String[] args) throws Exception {
    Path dir = Path.of(args[0]);
    long seed = Long.parseLong(args[1]);
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    P2kv store = open(dir);
    synchronized (out) {
      out.println("READY;");
      out.flush();
    }
    Thread[] threads = new Thread[TRANSFER_THREADS + 2 + COUNTER_THREADS + 3 + (args.length > 3 ? 1 : 0)];
    if (args.length > 3) {
      threads[threads.length - 1] = new Thread(() -> takeCuts(store, args[2], Path.of(args[3]), seed, out));
    }
    for (int t = 0; t < TRANSFER_THREADS; t++) {
      int thread = t;
      threads[t] = new Thread(() -> {
        Random rnd = new Random(seed * 31 + thread);
        for (long i = 0; ; i++) {
          int from = rnd.nextInt(ACCOUNTS_PER_THREAD);
          int to = (from + 1 + rnd.nextInt(ACCOUNTS_PER_THREAD - 1)) % ACCOUNTS_PER_THREAD;
          byte[] fk = account(thread, from);
          byte[] tk = account(thread, to);
          long x = 1 + rnd.nextInt(50);
          store.write(new Batch().put(fk, amount(amount(store.get(fk)) - x)).put(tk, amount(amount(store.get(tk)) + x)));
        }
      });
    }
    for (int p = 0; p < 2; p++) {
      int thread = p;
      threads[TRANSFER_THREADS + p] = new Thread(() -> {
        Random rnd = new Random(seed * 17 + thread);
        for (long i = 0; ; i++) {
          String key = "put-" + seed + "-" + thread + "-" + i;
          String value = Long.toHexString(rnd.nextLong());
          byte[] k = key.getBytes(StandardCharsets.UTF_8);
          if (i % 2 == 0) {
            store.put(k, value.getBytes(StandardCharsets.UTF_8));
          } else {
            store.putAsync(k, value.getBytes(StandardCharsets.UTF_8)).join();
          }
          report(out, "PUT " + key + " " + value + ";");
          if (i % 10 == 9) {
            String old = "put-" + seed + "-" + thread + "-" + (i - 5);
            report(out, "DELETING " + old + ";");
            store.delete(old.getBytes(StandardCharsets.UTF_8));
            report(out, "DEL " + old + ";");
          }
        }
      });
    }
    for (int c = 0; c < COUNTER_THREADS; c++) {
      String key = counter(c % COUNTERS);
      byte[] k = key.getBytes(StandardCharsets.UTF_8);
      threads[TRANSFER_THREADS + 2 + c] = new Thread(() -> {
        for (long i = 0; ; i++) {
          if (i % 2 == 0) {
            report(out, "INCING " + key + ";");
            report(out, "INC " + key + " " + store.increment(k, 1) + ";");
          } else {
            java.util.List<java.util.concurrent.CompletableFuture<Long>> burst = new java.util.ArrayList<>();
            for (int b = 0; b < 8; b++) {
              report(out, "INCING " + key + ";");
              burst.add(store.incrementAsync(k, 1));
            }
            for (java.util.concurrent.CompletableFuture<Long> f : burst) {
              report(out, "INC " + key + " " + f.join() + ";");
            }
          }
        }
      });
    }
    String log = "log-" + seed;
    byte[] logKey = log.getBytes(StandardCharsets.UTF_8);
    threads[TRANSFER_THREADS + 2 + COUNTER_THREADS] = new Thread(() -> {
      for (int n = 0; ; n++) {
        int next = n;
        report(out, "APPENDING " + log + " " + n + ";");
        store.update(logKey, v -> {
          byte[] grown = v == null ? new byte[4] : java.util.Arrays.copyOf(v, v.length + 4);
          ByteBuffer.wrap(grown, grown.length - 4, 4).putInt(next);
          return grown;
        });
        report(out, "APPENDED " + log + " " + n + ";");
      }
    });
    threads[TRANSFER_THREADS + 2 + COUNTER_THREADS + 1] = new Thread(() -> {
      for (int n = 0; ; n++) {
        String prefix = rangePrefix(seed, n);
        Batch batch = new Batch();
        for (int i = 0; i < RANGE_KEYS; i++) {
          batch.put((prefix + i).getBytes(StandardCharsets.UTF_8), amount(n));
        }
        store.write(batch);
        report(out, "RDPUT " + prefix + ";");
        report(out, "RDELETING " + prefix + ";");
        store.deleteRange(prefix.getBytes(StandardCharsets.UTF_8), rangeEnd(prefix));
        report(out, "RDEL " + prefix + ";");
      }
    });
    threads[TRANSFER_THREADS + 2 + COUNTER_THREADS + 2] = new Thread(() -> {
      for (int n = 0; ; n++) {
        Batch batch = new Batch();
        for (int i = 0; i < BULK_KEYS; i++) {
          batch.put(bulkKey(seed, n, i), amount(n));
        }
        if (n % 2 == 0) {
          store.load(batch); // durable on return, no log, no flush
          report(out, "LOAD " + n + ";");
        } else {
          store.write(batch, Durability.NO_WAL);
        }
        if (n % 4 == 3) {
          store.flush();
          report(out, "BULK " + n + ";");
        }
      }
    });
    for (Thread t : threads) {
      t.setDaemon(true);
      t.start();
    }
    for (Thread t : threads) {
      t.join();
    }
  }

  /** The keys of range-delete round n: {@code rd-<seed>-<n>-<i>}. */
  static String rangePrefix(long seed, int n) {
    return "rd-" + seed + "-" + n + "-";
  }

  /** The first key after every key that starts with {@code prefix} (which ends in '-'). */
  static byte[] rangeEnd(String prefix) {
    return (prefix.substring(0, prefix.length() - 1) + ".").getBytes(StandardCharsets.UTF_8);
  }

  static byte[] bulkKey(long seed, int n, int i) {
    return ("bulk-" + seed + "-" + n + "-" + i).getBytes(StandardCharsets.UTF_8);
  }

  static String counter(int c) {
    return "ctr-" + c;
  }

  /** Takes consistent copies of the store back to back until killed. */
  private static void takeCuts(P2kv store, String mode, Path target, long seed, PrintStream out) {
    if (mode.equals("backups")) {
      while (true) {
        long id = store.backup(target).id();
        report(out, "BACKUP " + id + ";");
        P2kv.keepLastBackups(target, 3);
      }
    }
    if (!mode.equals("checkpoints")) {
      throw new IllegalArgumentException("unknown mode " + mode);
    }
    for (long n = 0; ; n++) {
      String name = "cp-" + seed + "-" + n;
      store.checkpoint(target.resolve(name));
      report(out, "CHECKPOINT " + name + ";");
    }
  }

  private static void report(PrintStream out, String line) {
    synchronized (out) {
      out.println(line);
      out.flush();
    }
  }
}
