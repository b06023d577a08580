import org.rocksdb.*;
import java.util.*;
public class Levels {
  public static void main(String[] a) throws Exception {
    RocksDB.loadLibrary();
    try (Options o = new Options()) {
      List<byte[]> names = RocksDB.listColumnFamilies(o, a[0]);
      List<ColumnFamilyDescriptor> d = new ArrayList<>();
      for (byte[] n : names) d.add(new ColumnFamilyDescriptor(n));
      List<ColumnFamilyHandle> h = new ArrayList<>();
      try (DBOptions dbo = new DBOptions(); RocksDB db = RocksDB.openReadOnly(dbo, a[0], d, h)) {
        System.out.println(db.getProperty(h.get(0), "rocksdb.levelstats"));
        for (LiveFileMetaData f : db.getLiveFilesMetaData()) System.out.println("L" + f.level() + " " + f.fileName() + " " + f.size() + " entries=" + f.numEntries());
      }
    }
  }
}
