package io.p2kv.examples.tools;

import io.p2kv.BackupInfo;
import io.p2kv.P2kv;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * {@code ./p2kv checkpoint SRC DST}, {@code backup SRC BACKUPDIR [--keep-last N]}, {@code restore
 * BACKUPDIR [ID] DST} and {@code backups BACKUPDIR [--verify]}: consistent copies of a closed store
 * through p2kv's own API (opening the store finishes what a crash left, then the copy is a
 * consistent cut of it).
 */
final class CopyCommands {
  private CopyCommands() {}

  static void run(String command, String[] args, PrintStream out) throws P2kvCli.UsageException {
    switch (command) {
      case "checkpoint" -> {
        expect(args.length == 2, "checkpoint takes a store directory and a target directory");
        try (P2kv store = P2kv.builder().open(P2kvCli.existingStore(Path.of(args[0])))) {
          store.checkpoint(Path.of(args[1]));
        }
        out.println("checkpoint of " + args[0] + " written to " + args[1]);
      }
      case "backup" -> {
        expect(args.length == 2 || (args.length == 4 && args[2].equals("--keep-last")),
            "backup takes a store directory, a backup directory and optionally --keep-last N");
        int keep = args.length == 4 ? (int) P2kvCli.count("--keep-last", args[3], 1, 1_000_000) : 0;
        BackupInfo b;
        try (P2kv store = P2kv.builder().open(P2kvCli.existingStore(Path.of(args[0])))) {
          b = store.backup(Path.of(args[1]));
        }
        out.printf("backup %d of %s added to %s: %d files, %,d bytes, %,d bytes copied%n",
            b.id(), args[0], args[1], b.files(), b.bytes(), b.copiedBytes());
        if (keep > 0) {
          List<Long> deleted = P2kv.keepLastBackups(Path.of(args[1]), keep);
          out.println("deleted backups " + deleted + " (keeping the last " + keep + ")");
        }
      }
      case "restore" -> {
        expect(args.length == 2 || args.length == 3, "restore takes a backup directory, optionally a backup id, and a target");
        Path backups = Path.of(args[0]);
        Path target = Path.of(args[args.length - 1]);
        BackupInfo b = args.length == 3
            ? P2kv.restore(backups, P2kvCli.count("ID", args[1], 1, Long.MAX_VALUE), target)
            : P2kv.restoreLatest(backups, target);
        out.printf("backup %d (%s) restored to %s%n", b.id(), b.created(), target);
      }
      default -> {
        expect(args.length == 1 || (args.length == 2 && args[1].equals("--verify")),
            "backups takes a backup directory and optionally --verify");
        Path backups = Path.of(args[0]);
        expect(Files.isDirectory(backups), backups + " is not a directory");
        for (BackupInfo b : P2kv.listBackups(backups)) {
          String state = "";
          if (args.length == 2) {
            P2kv.verifyBackup(backups, b.id()); // throws, naming the damaged file
            state = "  verified";
          }
          out.printf("%6d  %s  %6d files  %,16d bytes  %,16d copied%s%n", b.id(), b.created(), b.files(), b.bytes(),
              b.copiedBytes(), state);
        }
      }
    }
  }

  private static void expect(boolean ok, String message) throws P2kvCli.UsageException {
    if (!ok) {
      throw new P2kvCli.UsageException(message);
    }
  }
}
