import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.*;
import static java.nio.file.StandardOpenOption.*;

/** fdatasync latency: appending to a growing file vs overwriting a file that already has its size. */
public class FsyncProbe {
  public static void main(String[] a) throws Exception {
    int n = Integer.parseInt(a[0]);
    int size = Integer.parseInt(a[1]);
    Path dir = Path.of(a[2]);
    Files.createDirectories(dir);
    ByteBuffer buf = ByteBuffer.allocateDirect(size);
    for (String mode : new String[] {"append", "overwrite", "append", "overwrite"}) {
      Path f = dir.resolve("f-" + mode);
      Files.deleteIfExists(f);
      try (FileChannel ch = FileChannel.open(f, CREATE, WRITE, READ)) {
        if (mode.equals("overwrite")) {
          ByteBuffer z = ByteBuffer.allocateDirect(1 << 20);
          for (long off = 0; off < (long) n * size; off += z.capacity()) { z.clear(); ch.write(z, off); }
          ch.force(true);
        }
        long pos = 0;
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
          buf.clear();
          ch.write(buf, pos);
          pos += size;
          ch.force(false);
        }
        long t = System.nanoTime() - t0;
        System.out.printf("%s: %d writes of %d B, %.1f us per write+fdatasync%n", mode, n, size, t / 1e3 / n);
      }
      Files.delete(f);
    }
  }
}
