package io.p2kv.kafka.bench;

import com.sun.jna.Library;
import com.sun.jna.Native;
import com.sun.jna.Structure;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;

/**
 * Where a benchmark child's resident memory goes, for {@link StreamsBenchmark}'s {@code
 * -Dbench.memdetail=true} (a child JVM option): the JVM's own native memory outside the heap
 * (Native Memory Tracking, when the child also runs with {@code -XX:NativeMemoryTracking=summary}),
 * and glibc's heap: the bytes malloc has handed out and not had back (RocksDB's memtables, block
 * cache and table readers, and the JVM's own mallocs), those it keeps free without returning them
 * to the kernel, and the resident set after {@code malloc_trim(0)} returns them. Measured in
 * docs/benchmarks/KAFKA-STREAMS.md, stop 52.
 *
 * <p>Runs {@code malloc_trim} last, after everything else is read; the phase's other figures are
 * read before it. A part that cannot be read is left out: without NMT its field is missing, and a
 * C library without {@code mallinfo2} (glibc before 2.33, musl) gives a {@code MallocError} field
 * instead of failing the run.
 */
final class MemoryBreakdown {
  private static final Pattern NMT_TOTAL = Pattern.compile("Total: reserved=(\\d+)KB, committed=(\\d+)KB");
  private static final Pattern NMT_HEAP = Pattern.compile("Java Heap \\(reserved=(\\d+)KB, committed=(\\d+)KB");

  private MemoryBreakdown() {}

  /** The breakdown as {@code " <phase>Name=KiB"} fields, or "" unless {@code bench.memdetail} is set. */
  static String of(String phase) {
    if (!Boolean.getBoolean("bench.memdetail")) {
      return "";
    }
    StringBuilder out = new StringBuilder();
    try {
      String nmt = (String) ManagementFactory.getPlatformMBeanServer().invoke(
          new ObjectName("com.sun.management:type=DiagnosticCommand"), "vmNativeMemory",
          new Object[] {new String[] {"summary", "scale=KB"}}, new String[] {String[].class.getName()});
      Matcher total = NMT_TOTAL.matcher(nmt);
      Matcher heap = NMT_HEAP.matcher(nmt);
      if (total.find() && heap.find()) {
        long nonHeap = Long.parseLong(total.group(2)) - Long.parseLong(heap.group(2));
        out.append(' ').append(phase).append("NmtNonHeapKb=").append(nonHeap);
      }
    } catch (Exception e) {
      out.append(' ').append(phase).append("NmtError=").append(e.getClass().getSimpleName());
    }
    try {
      C c = Native.load("c", C.class);
      MallInfo2 info = c.mallinfo2();
      out.append(String.format(" %sMallocInUseKb=%d %sMallocFreeKb=%d",
          phase, (info.uordblks + info.hblkhd) >> 10, phase, info.fordblks >> 10));
      c.malloc_trim(0);
      out.append(' ').append(phase).append("RssAfterTrimKb=").append(rssKb());
    } catch (Exception | LinkageError e) {
      out.append(' ').append(phase).append("MallocError=").append(e.getClass().getSimpleName());
    }
    return out.toString();
  }

  /** The two glibc calls used. */
  public interface C extends Library {
    MallInfo2 mallinfo2();

    int malloc_trim(long pad);
  }

  /** glibc's {@code struct mallinfo2} (2.33 and later): ten {@code size_t} fields, by value. */
  @Structure.FieldOrder({"arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks", "keepcost"})
  public static class MallInfo2 extends Structure implements Structure.ByValue {
    /** Bytes of the arenas' heaps (not mmapped). */
    public long arena;
    /** Free chunks. */
    public long ordblks;
    /** Free fastbin blocks. */
    public long smblks;
    /** Mmapped regions. */
    public long hblks;
    /** Bytes in mmapped regions. */
    public long hblkhd;
    /** Unused. */
    public long usmblks;
    /** Bytes in free fastbin blocks. */
    public long fsmblks;
    /** Bytes allocated and in use from the arenas. */
    public long uordblks;
    /** Bytes free in the arenas. */
    public long fordblks;
    /** Bytes the top chunk could release. */
    public long keepcost;
  }

  private static String rssKb() throws java.io.IOException {
    for (String l : Files.readAllLines(Path.of("/proc/self/status"))) {
      if (l.startsWith("VmRSS:")) {
        return l.substring("VmRSS:".length()).replace("kB", "").trim();
      }
    }
    return "?";
  }
}
