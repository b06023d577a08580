import org.rocksdb.*;
public class Props {
  public static void main(String[] a) throws Exception {
    RocksDB.loadLibrary();
    try (Options o = new Options(); SstFileReader r = new SstFileReader(o)) {
      r.open(a[0]);
      TableProperties p = r.getTableProperties();
      System.out.println("entries=" + p.getNumEntries() + " dataBlocks=" + p.getNumDataBlocks() + " dataSize=" + p.getDataSize()
        + " indexSize=" + p.getIndexSize() + " filterSize=" + p.getFilterSize() + " filterPolicy=" + p.getFilterPolicyName()
        + " rawKey=" + p.getRawKeySize() + " rawValue=" + p.getRawValueSize() + " compression=" + p.getCompressionName() + " creation=" + p.getCreationTime() + " cf=" + p.getColumnFamilyName() + " props=" + p.getUserCollectedProperties().keySet());
      try (ReadOptions ro = new ReadOptions(); SstFileReaderIterator it = r.newIterator(ro)) {
        it.seekToFirst(); int n = 0;
        while (it.isValid() && n < 3) { System.out.println(new String(it.key()) + " -> " + it.value().length); it.next(); n++; }
      }
    }
  }
}
