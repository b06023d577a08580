package io.p2kv.examples;

import static java.nio.charset.StandardCharsets.UTF_8;

import io.p2kv.BackupInfo;
import io.p2kv.Batch;
import io.p2kv.P2kv;
import io.p2kv.Snapshot;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Consistent cuts across shards while writers run: a snapshot (a read view of every shard at one
 * instant), a checkpoint (an openable copy, hard-linked) and incremental backups with retention,
 * verification and restore. A writer moves money between accounts on different shards with atomic
 * batches; every cut shows the same total, because a cut never splits a batch.
 *
 * <p>Run: {@code ./p2kv example SnapshotsAndBackups [dir]}.
 */
public final class SnapshotsAndBackups {
  private SnapshotsAndBackups() {}

  static final byte[] FROM = "acct:".getBytes(UTF_8);
  static final byte[] TO = "acct;".getBytes(UTF_8);

  public static void main(String[] args) throws Exception {
    try (ExampleDir dir = ExampleDir.fromArgs(args, "p2kv-cuts")) {
      Path backups = dir.path().resolve("backups");
      Path[] copies = {dir.fresh("checkpoint"), dir.fresh("restored")}; // new ones each run
      try (P2kv store = P2kv.builder().shards(4).open(dir.path().resolve("store"))) {
        byte[][] accounts = new byte[8][];
        Batch opening = new Batch();
        for (int i = 0; i < accounts.length; i++) {
          accounts[i] = ("acct:" + i).getBytes(UTF_8);
          opening.put(accounts[i], amount(1_000));
        }
        store.write(opening);
        AtomicBoolean stop = new AtomicBoolean();
        Thread writer = new Thread(() -> transfer(store, accounts, stop));
        writer.start();

        try (Snapshot snapshot = store.snapshot()) { // all shards at one instant; close it
          System.out.println("snapshot total: " + total(snapshot));
        }
        store.checkpoint(copies[0]); // a whole store, hard links
        for (int i = 0; i < 3; i++) {
          BackupInfo b = store.backup(backups); // copies only files earlier backups lack
          System.out.printf("backup %d: %d files, %s%n", b.id(), b.files(), b.id() == 1 ? "all copied" : "incremental");
        }
        stop.set(true);
        writer.join();
      }
      System.out.println("deleted backups " + P2kv.keepLastBackups(backups, 2)); // retention
      for (BackupInfo b : P2kv.listBackups(backups)) {
        P2kv.verifyBackup(backups, b.id()); // reads every file, checks its checksum
        System.out.println("backup " + b.id() + " verified");
      }
      P2kv.restoreLatest(backups, copies[1]);
      for (Path copy : copies) {
        try (P2kv store = P2kv.builder().open(copy)) {
          String name = copy.getFileName().toString().replaceAll("-\\d+$", "");
          System.out.println(name + " total: " + store.range(FROM, TO).stream().mapToLong(kv -> balance(kv.value())).sum());
        }
      }
    }
  }

  /** One writer moving random sums between two accounts (usually on different shards). */
  private static void transfer(P2kv store, byte[][] accounts, AtomicBoolean stop) {
    SplittableRandom rnd = new SplittableRandom(1);
    long[] balance = new long[accounts.length];
    Arrays.fill(balance, 1_000);
    while (!stop.get()) {
      int from = rnd.nextInt(accounts.length);
      int to = (from + 1 + rnd.nextInt(accounts.length - 1)) % accounts.length;
      long sum = Math.min(rnd.nextInt(50), balance[from]);
      balance[from] -= sum;
      balance[to] += sum;
      store.write(new Batch().put(accounts[from], amount(balance[from])).put(accounts[to], amount(balance[to])));
    }
  }

  static long total(Snapshot snapshot) {
    return snapshot.range(FROM, TO).stream().mapToLong(kv -> balance(kv.value())).sum();
  }

  static byte[] amount(long balance) {
    return Long.toString(balance).getBytes(UTF_8);
  }

  static long balance(byte[] value) {
    return Long.parseLong(new String(value, UTF_8));
  }
}
