import org.rocksdb.*;
import java.util.*;
public class WbBench {
  static byte[] buf = new byte[1 << 20];
  static int pos;
  static void varint(int v) { while ((v & ~0x7F) != 0) { buf[pos++] = (byte) ((v & 0x7F) | 0x80); v >>>= 7; } buf[pos++] = (byte) v; }
  public static void main(String[] a) throws Exception {
    RocksDB.loadLibrary();
    int n = 32;
    byte[][] keys = new byte[n][16], vals = new byte[n][112];
    Random r = new Random(1);
    for (int i = 0; i < n; i++) { r.nextBytes(keys[i]); r.nextBytes(vals[i]); }
    WriteBatch reused = new WriteBatch();
    for (int round = 0; round < 5; round++) {
      long t0 = System.nanoTime();
      int iters = 200000;
      long sink = 0;
      for (int it = 0; it < iters; it++) {
        for (int i = 0; i < n; i++) reused.put(keys[i], vals[i]);
        sink += reused.count();
        reused.clear();
      }
      long t1 = System.nanoTime();
      for (int it = 0; it < iters; it++) {
        pos = 12;
        Arrays.fill(buf, 0, 12, (byte) 0);
        for (int i = 0; i < n; i++) { buf[pos++] = 1; varint(keys[i].length); System.arraycopy(keys[i], 0, buf, pos, keys[i].length); pos += keys[i].length; varint(vals[i].length); System.arraycopy(vals[i], 0, buf, pos, vals[i].length); pos += vals[i].length; }
        buf[8] = (byte) n;
        byte[] rep = Arrays.copyOf(buf, pos);
        WriteBatch wb = new WriteBatch(rep);
        sink += wb.count();
        wb.close();
      }
      long t2 = System.nanoTime();
      System.out.printf("jni puts %.2f us/batch, serialized %.2f us/batch (%d)%n", (t1 - t0) / 1e3 / iters, (t2 - t1) / 1e3 / iters, sink);
    }
    // equality check
    WriteBatch x = new WriteBatch();
    for (int i = 0; i < n; i++) x.put(keys[i], vals[i]);
    pos = 12; Arrays.fill(buf, 0, 12, (byte) 0);
    for (int i = 0; i < n; i++) { buf[pos++] = 1; varint(keys[i].length); System.arraycopy(keys[i], 0, buf, pos, keys[i].length); pos += keys[i].length; varint(vals[i].length); System.arraycopy(vals[i], 0, buf, pos, vals[i].length); pos += vals[i].length; }
    buf[8] = (byte) n;
    System.out.println("equal: " + Arrays.equals(x.data(), Arrays.copyOf(buf, pos)));
  }
}
