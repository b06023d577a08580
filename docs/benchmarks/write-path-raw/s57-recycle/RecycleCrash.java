import java.io.*;
import java.nio.charset.StandardCharsets;
import java.nio.file.*;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.atomic.*;
import org.rocksdb.*;

/**
 * Plain RocksDB, recycle_log_file_num=4, point-in-time recovery (the default), sync=true puts, and
 * table files ingested over the memtable's key range (each one flushes the memtable, which
 * switches logs, and takes a sequence number no log record carries). The parent kills the child
 * with SIGKILL at a random moment, reopens the DB and checks that every acknowledged put is there.
 * Usage: RecycleCrash cycles dir [recycle [sync]]   (child: RecycleCrash child dir recycle start sync);
 * with sync false the puts are acknowledged once in the OS (a process crash keeps them).
 */
public class RecycleCrash {
  static Options options(int recycle) {
    return new Options().setInfoLogLevel(InfoLogLevel.INFO_LEVEL).setCreateIfMissing(true).setWriteBufferSize(1 << 20).setRecycleLogFileNum(recycle);
  }

  static byte[] key(long n) { return String.format("w-%012d", n).getBytes(StandardCharsets.UTF_8); }

  public static void main(String[] a) throws Exception {
    RocksDB.loadLibrary();
    if (a[0].equals("child")) { child(Path.of(a[1]), Integer.parseInt(a[2]), Long.parseLong(a[3]), Boolean.parseBoolean(a[4])); return; }
    int cycles = Integer.parseInt(a[0]);
    Path dir = Path.of(a[1]);
    int recycle = a.length > 2 ? Integer.parseInt(a[2]) : 4;
    boolean sync = a.length <= 3 || Boolean.parseBoolean(a[3]);
    Random rnd = new Random(7);
    int lost = 0, failedOpens = 0;
    long start = 0;
    for (int c = 0; c < cycles; c++) {
      Process p = new ProcessBuilder(ProcessHandle.current().info().command().get(), "-cp", System.getProperty("java.class.path"),
          "RecycleCrash", "child", dir.toString(), "" + recycle, "" + start, "" + sync).redirectError(ProcessBuilder.Redirect.INHERIT).start();
      BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
      AtomicLong lastAck = new AtomicLong(-1);
      AtomicLong ingests = new AtomicLong();
      Thread reader = new Thread(() -> {
        try { for (String l; (l = in.readLine()) != null; ) {
          if (l.startsWith("ACK ")) lastAck.set(Long.parseLong(l.substring(4)));
          else if (l.startsWith("ING")) ingests.incrementAndGet();
        } } catch (IOException ignored) { }
      });
      reader.start();
      Thread.sleep(1500 + rnd.nextInt(2000));
      p.toHandle().destroyForcibly();
      p.waitFor();
      reader.join();
      long acked = lastAck.get();
      int missing = 0;
      try (Options o = options(recycle); RocksDB db = RocksDB.open(o, dir.toString())) {
        for (long n = start; n <= acked; n++) if (db.get(key(n)) == null) missing++;
      } catch (RocksDBException e) {
        failedOpens++;
        System.out.println("cycle " + c + ": open failed: " + e.getMessage());
        break;
      }
      if (missing > 0) lost++;
      System.out.printf("cycle %d: acked %d..%d, %d ingests, missing %d%n", c, start, acked, ingests.get(), missing);
      start = Math.max(start, acked + 1);
    }
    System.out.printf("recycle=%d sync=%s: %d cycles with acknowledged puts missing, %d failed opens%n", recycle, sync, lost, failedOpens);
  }

  static void child(Path dir, int recycle, long start, boolean sync) throws Exception {
    PrintStream out = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
    try (Options o = options(recycle); WriteOptions w = new WriteOptions().setSync(sync); RocksDB db = RocksDB.open(o, dir.toString())) {
      AtomicLong next = new AtomicLong(start);
      Thread ing = new Thread(() -> {
        try (EnvOptions eo = new EnvOptions(); Options so = new Options(); IngestExternalFileOptions io = new IngestExternalFileOptions()) {
          for (int i = 0; ; i++) {
            long n = next.get();
            if (n < start + 3) { Thread.sleep(1); continue; }
            Path f = dir.resolve("ing-" + System.nanoTime() + ".sst");
            try (SstFileWriter sw = new SstFileWriter(eo, so)) {
              sw.open(f.toString());
              // Two keys around acknowledged ones: the file's range holds memtable keys, so the
              // ingest flushes the memtable first and takes a sequence number of its own.
              sw.put(String.format("w-%012d.i", n - 3).getBytes(StandardCharsets.UTF_8), new byte[8]);
              sw.put(String.format("w-%012d.i", n - 1).getBytes(StandardCharsets.UTF_8), new byte[8]);
              sw.finish();
            }
            db.ingestExternalFile(List.of(f.toString()), io);
            Files.deleteIfExists(f);
            synchronized (out) { out.println("ING"); }
            Thread.sleep(5);
          }
        } catch (Exception e) { e.printStackTrace(); }
      });
      ing.setDaemon(true);
      ing.start();
      byte[] v = new byte[100];
      while (true) {
        long n = next.get();
        db.put(w, key(n), v);
        next.set(n + 1);
        synchronized (out) { out.println("ACK " + n); }
      }
    }
  }
}
