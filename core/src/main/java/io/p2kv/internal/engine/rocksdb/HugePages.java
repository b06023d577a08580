package io.p2kv.internal.engine.rocksdb;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Whether the host has reserved huge pages that RocksDB's memtables can use ({@code
 * memtable_huge_page_size}), read from {@code /proc/meminfo}.
 *
 * <p>A memtable's skiplist is searched by pointer chasing across up to 64 MiB: on 4 KiB pages
 * nearly every step of an insert is a TLB miss as well as a cache miss. On 2 MiB pages the whole
 * memtable fits the TLB (docs/benchmarks/WRITE-PATH.md, "Memtables on huge pages"). RocksDB takes
 * huge pages only from the pool an administrator reserved ({@code vm.nr_hugepages}) and falls back
 * to ordinary memory, block by block, when the pool has none free, so asking costs nothing where
 * there is no pool. The option is still set only where there is one: RocksDB logs a warning to the
 * shard's LOG file for every memtable whose filter it could not place on huge pages.
 *
 * <p>On huge pages a memtable takes its memory a whole page at a time: its arena's blocks, and its
 * filter (2 % of the memtable) rounded up to a page. A new memtable so starts at about two pages,
 * and RocksDB counts them against its size and the write buffer budget. A 4 MiB memtable on 2 MiB
 * pages was full as soon as it was created, and a test's writes into it crawled from flush to
 * flush. So huge pages are used only for memtables of at least {@link #MIN_PAGES_PER_MEMTABLE}
 * pages (32 MiB on 2 MiB pages), and only pools of pages of at most 2 MiB (not 1 GiB pages, nor
 * arm64's 512 MiB pages under 64 KiB base pages).
 */
final class HugePages {
  /** The largest huge page a memtable's blocks are allocated in. */
  static final long MAX_PAGE_BYTES = 2L << 20;

  /** Smallest memtable, in huge pages, that is put on them (see the class comment). */
  static final long MIN_PAGES_PER_MEMTABLE = 16;

  private static final Path MEMINFO = Path.of("/proc/meminfo");

  private HugePages() {}

  /**
   * This host's huge page size if it has reserved such pages and they are at most {@link
   * #MAX_PAGE_BYTES}, else 0 (also where {@code /proc/meminfo} is missing or unreadable).
   */
  static long hostPageBytes() {
    try {
      return hostPageBytes(Files.readAllLines(MEMINFO));
    } catch (IOException | RuntimeException e) {
      return 0;
    }
  }

  /**
   * {@link #hostPageBytes()} for the given lines of {@code /proc/meminfo}.
   *
   * @param meminfo the file's lines ({@code HugePages_Total: N}, {@code Hugepagesize: N kB})
   * @return the page size in bytes, or 0
   */
  static long hostPageBytes(List<String> meminfo) {
    long reserved = -1;
    long pageKb = -1;
    for (String line : meminfo) {
      String[] f = line.trim().split("\\s+");
      if (f.length < 2) {
        continue;
      }
      try {
        if (f[0].equals("HugePages_Total:")) {
          reserved = Long.parseLong(f[1]);
        } else if (f[0].equals("Hugepagesize:") && f.length == 3 && f[2].equals("kB")) {
          pageKb = Long.parseLong(f[1]);
        }
      } catch (NumberFormatException e) {
        return 0;
      }
    }
    long pageBytes = pageKb * 1024;
    return reserved > 0 && pageKb > 0 && pageBytes <= MAX_PAGE_BYTES ? pageBytes : 0;
  }

  /**
   * {@code memtable_huge_page_size} for memtables of the given size on a host with the given huge
   * pages: the page size if a memtable spans at least {@link #MIN_PAGES_PER_MEMTABLE} of them, else 0.
   *
   * @param hostPageBytes {@link #hostPageBytes()}, 0 for none
   * @param writeBufferBytes a shard's memtable size
   */
  static long forMemtable(long hostPageBytes, long writeBufferBytes) {
    return hostPageBytes > 0 && writeBufferBytes >= MIN_PAGES_PER_MEMTABLE * hostPageBytes ? hostPageBytes : 0;
  }
}
