package io.p2kv.examples.tools;

import io.p2kv.LevelStats;
import io.p2kv.P2kv;
import io.p2kv.Pinning;
import io.p2kv.ShardStats;
import io.p2kv.StoreStats;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Not thread-safe: {@code ./p2kv stats <dir>}: the MANIFEST and each shard's engine statistics of
 * a closed store.
 *
 * <p>The store is opened with its own {@code open} (small memory budget, no pinning) and closed
 * again: that takes the store's lock, so a store open elsewhere fails with {@code
 * StoreLockedException}. Opening writes only what every RocksDB open writes (a new WAL, an OPTIONS
 * file, info logs; RocksDB may flush the replayed WAL to a level-0 file); no key is changed.
 */
final class StatsCommand {
  /** The MANIFEST file name inside a store directory. */
  static final String MANIFEST = "MANIFEST";

  private StatsCommand() {}

  /**
   * Prints the report.
   *
   * @param dir a store directory (it has a MANIFEST)
   * @param out where to print
   * @throws IOException if the directory cannot be read
   */
  static void run(Path dir, PrintStream out) throws IOException {
    List<String> manifest = Files.readAllLines(dir.resolve(MANIFEST), StandardCharsets.UTF_8).stream()
        .map(String::trim)
        .filter(l -> !l.isEmpty() && !l.startsWith("#"))
        .toList();
    StoreStats stats;
    int shards;
    try (P2kv store = P2kv.builder().memoryBudgetBytes(16L << 20).pinning(Pinning.NEVER).open(dir)) {
      stats = store.stats();
      shards = store.shardCount();
    }
    long[] disk = DirectoryTree.sizeAndFiles(dir);

    out.println("p2kv store " + dir.toAbsolutePath().normalize());
    out.println("MANIFEST:  " + String.join("  ", manifest));
    out.printf(Locale.ROOT, "on disk:   %s in %,d files, %d shard(s)%n", bytes(disk[0]), disk[1], shards);
    out.println();
    String format = "%-6s %14s %11s %11s %11s   %s%n";
    out.printf(Locale.ROOT, format, "shard", "keys (est.)", "SST", "blob", "memtable", "LSM levels (files, bytes)");
    for (ShardStats s : stats.shards()) {
      out.printf(Locale.ROOT, format, s.shard(), count(s.estimatedKeys()), bytes(s.sstBytes()), bytes(s.blobBytes()),
          bytes(s.memtableBytes()), levels(s.levels()));
    }
    if (stats.shards().size() > 1) {
      out.printf(Locale.ROOT, format, "total", count(sum(stats, ShardStats::estimatedKeys)),
          bytes(sum(stats, ShardStats::sstBytes)), bytes(sum(stats, ShardStats::blobBytes)),
          bytes(sum(stats, ShardStats::memtableBytes)), "");
    }
    out.println();
    out.println("keys (est.) is RocksDB's estimate: overwritten and deleted keys count until compaction drops them.");
    out.flush();
  }

  private static long sum(StoreStats stats, java.util.function.ToLongFunction<ShardStats> field) {
    List<Long> known = stats.shards().stream().map(field::applyAsLong).filter(v -> v >= 0).toList();
    return known.isEmpty() ? -1 : known.stream().mapToLong(Long::longValue).sum();
  }

  /** Non-empty levels, e.g. {@code L0 2, 4.1 MiB; L6 9, 120.3 MiB}; "empty" if none. */
  static String levels(List<LevelStats> levels) {
    String text = levels.stream()
        .filter(l -> l.files() > 0)
        .map(l -> "L" + l.level() + " " + l.files() + ", " + bytes(l.bytes()))
        .collect(Collectors.joining("; "));
    return text.isEmpty() ? "empty" : text;
  }

  static String count(long n) {
    return n < 0 ? "n/a" : String.format(Locale.ROOT, "%,d", n);
  }

  /** Bytes in binary units with one decimal: {@code 0 B}, {@code 12.5 KiB}, {@code 1.2 GiB}. */
  static String bytes(long n) {
    if (n < 0) {
      return "n/a";
    }
    if (n < 1024) {
      return n + " B";
    }
    String[] units = {"KiB", "MiB", "GiB", "TiB", "PiB"};
    double v = n;
    int u = -1;
    while (v >= 1024 && u < units.length - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f %s", v, units[u]);
  }
}
