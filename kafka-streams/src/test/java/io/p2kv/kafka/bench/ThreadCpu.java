package io.p2kv.kafka.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

/**
 * The process's CPU time by thread group, for a benchmark to report where a phase's CPU went (Linux
 * only): Java threads by their full names (ThreadMXBean), the JVM's and RocksDB's native threads by
 * the names in {@code /proc/self/task/}, and the whole process from {@code /proc/self/stat}
 * ("other" is what no group claims).
 */
final class ThreadCpu {
  /** Clock ticks per second of {@code /proc}'s times (the kernel's USER_HZ; 100 on Linux). */
  private static final double TICK_NANOS = 1e9 / 100;

  /** Key prefix of a Java thread group's heap allocation (bytes) in a snapshot. */
  private static final String ALLOCATED = "allocated:";

  private ThreadCpu() {}

  /**
   * CPU nanoseconds per group now ("total" is the whole process), and each Java thread group's
   * heap allocation in bytes (key {@value #ALLOCATED} and the group).
   */
  static Map<String, Long> snapshot() throws IOException {
    Map<String, Long> groups = new TreeMap<>();
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    long[] ids = mx.getAllThreadIds();
    ThreadInfo[] infos = mx.getThreadInfo(ids);
    com.sun.management.ThreadMXBean allocations = (com.sun.management.ThreadMXBean) mx;
    for (int i = 0; i < ids.length; i++) {
      long cpu = mx.getThreadCpuTime(ids[i]);
      if (infos[i] != null && cpu > 0) {
        String group = javaGroup(infos[i].getThreadName());
        groups.merge(group, cpu, Long::sum);
        long allocated = allocations.getThreadAllocatedBytes(ids[i]);
        if (allocated > 0) {
          groups.merge(ALLOCATED + group, allocated, Long::sum);
        }
      }
    }
    try (Stream<Path> tasks = Files.list(Path.of("/proc/self/task"))) {
      for (Path task : (Iterable<Path>) tasks::iterator) {
        try {
          String group = nativeGroup(Files.readString(task.resolve("comm")).trim());
          if (group != null) {
            groups.merge(group, ticks(Files.readString(task.resolve("stat"))), Long::sum);
          }
        } catch (IOException gone) {
          // the thread ended between the listing and the read
        }
      }
    }
    groups.put("total", ticks(Files.readString(Path.of("/proc/self/stat"))));
    return groups;
  }

  /**
   * CPU microseconds per record by group between two snapshots, and heap bytes allocated per record
   * by each Java thread group (threads that ended in between are missing), as RESULT fields.
   */
  static String perRecord(String prefix, Map<String, Long> before, Map<String, Long> after, long records) {
    StringBuilder out = new StringBuilder();
    long claimed = 0;
    for (Map.Entry<String, Long> e : after.entrySet()) {
      long d = e.getValue() - before.getOrDefault(e.getKey(), 0L);
      if (e.getKey().startsWith(ALLOCATED)) {
        out.append(String.format(" %sAllocBytes.%s=%.0f", prefix, e.getKey().substring(ALLOCATED.length()), (double) d / records));
        continue;
      }
      if (!e.getKey().equals("total")) {
        claimed += d;
      }
      out.append(String.format(" %sCpuUs.%s=%.2f", prefix, e.getKey(), d / 1e3 / records));
    }
    long total = after.get("total") - before.get("total");
    out.append(String.format(" %sCpuUs.other=%.2f", prefix, (total - claimed) / 1e3 / records));
    return out.toString();
  }

  private static String javaGroup(String name) {
    if (name.contains("StreamThread")) {
      return "stream";
    } else if (name.startsWith("p2kv-shard")) {
      return "p2kvWorker";
    } else if (name.contains("producer-network-thread")) {
      return "producer";
    } else if (name.contains("StateUpdater")) {
      return "stateUpdater";
    }
    return "javaOther";
  }

  private static String nativeGroup(String comm) {
    if (comm.startsWith("rocksdb:")) {
      return "rocksdbBackground";
    } else if (comm.startsWith("GC Thread") || comm.startsWith("G1 ") || comm.startsWith("VM Thread")) {
      return "gc";
    } else if (comm.startsWith("C1 Compiler") || comm.startsWith("C2 Compiler")) {
      return "jit";
    }
    return null;
  }

  /** utime + stime of a {@code stat} line, in nanoseconds (fields 14 and 15, after the name). */
  private static long ticks(String stat) {
    String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    return (long) ((Long.parseLong(f[11]) + Long.parseLong(f[12])) * TICK_NANOS);
  }
}
