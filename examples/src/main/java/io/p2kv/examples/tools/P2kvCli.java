package io.p2kv.examples.tools;

import io.p2kv.P2kvException;
import io.p2kv.examples.AsyncPipeline;
import io.p2kv.examples.AtomicTransfer;
import io.p2kv.examples.KafkaWordCount;
import io.p2kv.examples.LargeValues;
import io.p2kv.examples.OrderedScan;
import io.p2kv.examples.Quickstart;
import io.p2kv.examples.SnapshotsAndBackups;
import io.p2kv.examples.Tuning;
import io.p2kv.examples.Updates;
import java.io.Console;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * The {@code ./p2kv} command line: {@code demo}, {@code stats}, {@code checkpoint}, {@code backup},
 * {@code restore}, {@code backups}, {@code example}, {@code --help}.
 * Exit codes: 0 done, 1 failed, 2 bad arguments (a one-line error, then the usage).
 */
public final class P2kvCli {
  private P2kvCli() {}

  /** A {@code main} method of an example program. */
  @FunctionalInterface
  interface Program {
    void main(String[] args) throws Exception;
  }

  /**
   * A runnable example.
   *
   * @param program its {@code main}
   * @param summary what it shows, one line of the help
   */
  record Example(Program program, String summary) {}

  /** The runnable examples, by name, in the order the help lists them. Add new examples here. */
  static final Map<String, Example> EXAMPLES = new LinkedHashMap<>();

  static {
    EXAMPLES.put("Quickstart", new Example(Quickstart::main, "open, put, get, delete, multiGet, close and reopen"));
    EXAMPLES.put("AsyncPipeline", new Example(AsyncPipeline::main, "many requests in flight: futures, callbacks"));
    EXAMPLES.put("Tuning", new Example(Tuning::main, "the options that matter, the RocksDB hook, stats, latencies"));
    EXAMPLES.put("OrderedScan", new Example(OrderedScan::main,
        "scan, range, forward and reverse iterators with seek, prefix iterator"));
    EXAMPLES.put("AtomicTransfer", new Example(AtomicTransfer::main,
        "atomic batches across shards from several threads; what a crash keeps"));
    EXAMPLES.put("SnapshotsAndBackups", new Example(SnapshotsAndBackups::main,
        "consistent snapshot, checkpoint, incremental backups, retention, verify, restore"));
    EXAMPLES.put("LargeValues", new Example(LargeValues::main, "value separation: large values in blob files, small ones inline"));
    EXAMPLES.put("Updates", new Example(Updates::main, "counters, record updates and merges from many threads, without locks"));
    EXAMPLES.put("KafkaWordCount", new Example(KafkaWordCount::main,
        "Kafka Streams word count on p2kv (args: bootstrap servers, state dir)"));
  }

  static String usage() {
    return """
        usage: ./p2kv <command> [options]

        p2kv is an embedded key-value store for the JVM: N RocksDB shards, one worker thread each,
        each merging what its callers queued into one RocksDB call (the p2KVS design).

        commands:
          demo [options]
              Compares p2kv with plain RocksDB on this machine: opens a p2kv store and, beside it,
              one RocksDB instance with the options of a p2kv shard; loads the same pairs into both
              (16-byte keys, 112-byte values) with a progress bar; runs each of
                %s
              on both with the same caller threads; prints the throughput side by side with the
              ratio; deletes both stores.
                --keys K      pairs to load (default 1,000,000; 20000, 20_000, 20k and 1m work)
                --threads T   caller threads, the same for both stores (default 16)
                --seconds S   measured seconds per store and row, after a warm-up (default 3)
                --shards N    p2kv shards (default: p2kv's, 1 up to 3 cores)
                --dir DIR     where the stores go, as DIR/p2kv and DIR/rocksdb; DIR must be empty
                              or absent (default: a new temporary directory)
                --keep        keep the p2kv store (DIR/p2kv) for ./p2kv stats

          stats DIR
              Prints the MANIFEST and each shard's statistics of the closed store in DIR: estimated
              keys, SST, blob and memtable bytes, files and bytes per LSM level. It opens the store
              with p2kv's own open, which changes no key; the store must not be open elsewhere
              (that fails with p2kv's StoreLockedException).

          checkpoint SRC DST
              Writes a consistent copy of the closed store SRC to DST (absent or empty), with hard
              links where SRC and DST share a file system; DST opens as a complete store.

          backup SRC BACKUPDIR [--keep-last N]
              Adds an incremental, consistent backup of the closed store SRC to BACKUPDIR (created
              if absent): only files no earlier backup has are copied, each with a checksum. With
              --keep-last, then deletes all but the newest N backups.

          restore BACKUPDIR [ID] DST
              Restores backup ID (default: the newest) of BACKUPDIR as a new store in DST (absent
              or empty), checking every file's checksum.

          backups BACKUPDIR [--verify]
              Lists the backups in BACKUPDIR; --verify also reads and checks every file of each.

          example NAME [DIR]
              Runs an example program (source in examples/src/main/java/io/p2kv/examples) in DIR,
              or in a temporary directory that it deletes (KafkaWordCount takes the broker's
              bootstrap servers, then DIR). NAME is one of:
        %s

          --help
              This text.

        exit codes: 0 done, 1 failed, 2 bad arguments.
        """.formatted(
            String.join(", ", Demo.WORKLOADS.stream().map(Demo.Workload::name).toList()),
            exampleList());
  }

  /** One help line per example: its name and what it shows. */
  private static String exampleList() {
    StringBuilder list = new StringBuilder();
    EXAMPLES.forEach((name, e) -> list.append(String.format(Locale.ROOT, "        %-16s %s\n", name, e.summary())));
    return list.toString().stripTrailing();
  }

  /** Bad command-line arguments: exit code 2. */
  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  public static void main(String[] args) {
    System.exit(run(args, System.out, System.err));
  }

  /**
   * Runs a command.
   *
   * @param args the command line
   * @param out where results go
   * @param err where errors and progress bars go
   * @return the exit code
   */
  static int run(String[] args, PrintStream out, PrintStream err) {
    try {
      if (args.length == 0) {
        throw new UsageException("no command given");
      }
      String[] rest = Arrays.copyOfRange(args, 1, args.length);
      if (Arrays.asList(args).contains("--help") || Arrays.asList(args).contains("-h") || args[0].equals("help")) {
        out.print(usage());
        return 0;
      }
      switch (args[0]) {
        case "demo" -> new Demo(demoOptions(rest), out, err, isTerminal()).run();
        case "stats" -> StatsCommand.run(storeDir(rest), out);
        case "example" -> runExample(rest);
        case "checkpoint", "backup", "restore", "backups" -> CopyCommands.run(args[0], rest, out);
        default -> throw new UsageException("unknown command '" + args[0] + "'");
      }
      return 0;
    } catch (UsageException e) {
      err.println("p2kv: " + e.getMessage());
      err.println();
      err.print(usage());
      return 2;
    } catch (P2kvException | IllegalArgumentException | IOException e) {
      err.println("p2kv: " + e.getMessage()); // the store's own messages say what and where
      return 1;
    } catch (Exception e) {
      err.println("p2kv: failed: " + e);
      e.printStackTrace(err);
      return 1;
    }
  }

  static Demo.Options demoOptions(String[] args) throws UsageException, IOException {
    long keys = Demo.Options.DEFAULT_KEYS;
    double seconds = Demo.Options.DEFAULT_SECONDS;
    int threads = Demo.Options.DEFAULT_THREADS;
    int shards = 0;
    Path dir = null;
    boolean keep = false;
    for (int i = 0; i < args.length; i++) {
      String arg = args[i];
      String value = null;
      int eq = arg.indexOf('=');
      if (arg.startsWith("--") && eq > 0) {
        value = arg.substring(eq + 1);
        arg = arg.substring(0, eq);
      }
      if (arg.equals("--keep")) {
        keep = true;
        continue;
      }
      if (!arg.matches("--(keys|seconds|threads|shards|dir)")) {
        throw new UsageException("unknown option for demo: '" + args[i] + "'");
      }
      if (value == null) {
        if (i + 1 >= args.length) {
          throw new UsageException(arg + " needs a value");
        }
        value = args[++i];
      }
      switch (arg) {
        case "--keys" -> keys = count(arg, value, 1, 100_000_000);
        case "--threads" -> threads = (int) count(arg, value, 1, 1024);
        case "--shards" -> shards = (int) count(arg, value, 1, 1024);
        case "--seconds" -> seconds = seconds(value);
        default -> dir = Path.of(value);
      }
    }
    if (dir != null && !DirectoryTree.isAbsentOrEmpty(dir)) {
      throw new UsageException("--dir " + dir + " is not an empty directory (the demo creates and deletes stores in it)");
    }
    return new Demo.Options(keys, dir, seconds, threads, shards, keep);
  }

  /** A whole number with optional separators and a k or m suffix: 20000, 20_000, 20,000, 20k, 1m. */
  static long count(String option, String text, long min, long max) throws UsageException {
    String t = text.replace("_", "").replace(",", "").toLowerCase(Locale.ROOT);
    long unit = t.endsWith("k") ? 1_000 : t.endsWith("m") ? 1_000_000 : 1;
    if (unit > 1) {
      t = t.substring(0, t.length() - 1);
    }
    try {
      long n = Math.multiplyExact(Long.parseLong(t), unit);
      if (n >= min && n <= max) {
        return n;
      }
    } catch (NumberFormatException | ArithmeticException e) {
      // reported below
    }
    throw new UsageException(String.format(Locale.ROOT, "%s must be a whole number from %,d to %,d, not '%s'", option, min, max, text));
  }

  private static double seconds(String text) throws UsageException {
    try {
      double s = Double.parseDouble(text);
      if (s > 0 && s <= 600) {
        return s;
      }
    } catch (NumberFormatException e) {
      // reported below
    }
    throw new UsageException("--seconds must be a number above 0 and at most 600, not '" + text + "'");
  }

  private static Path storeDir(String[] args) throws UsageException {
    if (args.length != 1) {
      throw new UsageException("stats takes exactly one argument, the store directory");
    }
    return existingStore(Path.of(args[0]));
  }

  /** A directory that holds a p2kv store, or a usage error saying why not. */
  static Path existingStore(Path dir) throws UsageException {
    if (!Files.isDirectory(dir)) {
      throw new UsageException(dir + " is not a directory");
    }
    if (!Files.isRegularFile(dir.resolve(StatsCommand.MANIFEST))) {
      throw new UsageException(dir + " is not a p2kv store (it has no " + StatsCommand.MANIFEST + ")");
    }
    return dir;
  }

  private static void runExample(String[] args) throws Exception {
    if (args.length < 1) {
      throw new UsageException("example takes a name, then the example's own arguments (most take a directory)");
    }
    Program program = EXAMPLES.entrySet().stream()
        .filter(e -> e.getKey().equalsIgnoreCase(args[0]))
        .map(e -> e.getValue().program())
        .findFirst()
        .orElseThrow(() -> new UsageException("no example named '" + args[0] + "'; one of " + EXAMPLES.keySet()));
    program.main(Arrays.copyOfRange(args, 1, args.length));
  }

  /** Whether progress bars may redraw in place: a console that is a terminal. */
  static boolean isTerminal() {
    Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      // JDK 22+ returns a console even when redirected; Console.isTerminal() tells.
      Method isTerminal = Console.class.getMethod("isTerminal");
      return (Boolean) isTerminal.invoke(console);
    } catch (NoSuchMethodException e) {
      return true; // JDK 17-21: a console exists only on a terminal
    } catch (ReflectiveOperationException e) {
      return false;
    }
  }
}
