package io.p2kv.systemtest;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.p2kv.Durability;
import io.p2kv.P2kv;
import io.p2kv.P2kvException;
import io.p2kv.StoreCorruptedException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Damage done to a closed store on disk: each opens with a clear error naming what is wrong, or
 * recovers as RocksDB's WAL recovery allows, and never silently serves a store that lost durable
 * acknowledged writes.
 */
class DiskFaultTest {
  @TempDir Path tmp;

  private static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private Path populated(int shards, int keys) {
    Path dir = tmp.resolve("store");
    try (P2kv store = P2kv.builder().shards(shards).durability(Durability.SYNC).open(dir)) {
      for (int i = 0; i < keys; i++) {
        store.put(b("k" + i), b("v" + i));
      }
    }
    return dir;
  }

  @Test
  void shouldRefuseToOpenWhenAShardDirectoryWasRemoved() throws IOException {
    Path dir = populated(3, 100);
    deleteTree(dir.resolve("shard-002"));
    StoreCorruptedException e = assertThrows(StoreCorruptedException.class, () -> P2kv.builder().open(dir));
    assertTrue(e.getMessage().contains("shard-002") && e.getMessage().contains("missing"), e.getMessage());
  }

  @Test
  void shouldFailClearlyWhenAShardDirectoryIsReadOnly() throws Exception {
    Path dir = populated(2, 100);
    Path shard = dir.resolve("shard-001");
    boolean immutable = makeReadOnly(shard);
    assumeTrue(immutable, "cannot make a directory read-only here (root without chattr)");
    try {
      P2kvException e = assertThrows(P2kvException.class, () -> P2kv.builder().open(dir));
      assertTrue(e.getMessage().contains("shard-001") && e.getMessage().contains("shard 1"), e.getMessage());
    } finally {
      makeWritable(shard);
    }
    // Nothing was lost: with the permission back, every write is there.
    try (P2kv store = P2kv.builder().open(dir)) {
      for (int i = 0; i < 100; i++) {
        assertArrayEquals(b("v" + i), store.get(b("k" + i)));
      }
    }
  }

  @Test
  void shouldReportACorruptedManifest() throws IOException {
    Path dir = populated(2, 10);
    Files.writeString(dir.resolve("MANIFEST"), "garbage\u0000\u0001");
    StoreCorruptedException e = assertThrows(StoreCorruptedException.class, () -> P2kv.builder().open(dir));
    assertTrue(e.getMessage().contains("MANIFEST"), e.getMessage());
  }

  @Test
  void shouldRecoverEveryCompleteRecordBeforeATruncatedWalTail() throws IOException {
    Path dir = populated(1, 200);
    // The shard closed with its data in the WAL only (RocksDB does not flush on close when the
    // WAL is on): cut the last log file in the middle of its last record, as a torn write would.
    Path wal;
    try (Stream<Path> files = Files.list(dir.resolve("shard-000"))) {
      List<Path> logs = files.filter(p -> p.toString().endsWith(".log")).sorted(Comparator.comparing(Path::toString)).toList();
      wal = logs.get(logs.size() - 1);
    }
    long size = Files.size(wal);
    assertTrue(size > 1000, "the data is in the WAL: " + size + " bytes");
    try (RandomAccessFile f = new RandomAccessFile(wal.toFile(), "rw")) {
      f.setLength(size - 7);
    }
    try (P2kv store = P2kv.builder().open(dir)) {
      // Point-in-time recovery: every record before the torn one is intact, in order.
      int present = 0;
      while (present < 200 && store.get(b("k" + present)) != null) {
        assertArrayEquals(b("v" + present), store.get(b("k" + present)));
        present++;
      }
      for (int i = present; i < 200; i++) {
        assertTrue(store.get(b("k" + i)) == null, "no hole: k" + i + " after a missing record");
      }
      assertTrue(present >= 199, "only the torn last record may be missing, found " + present);
      store.put(b("after"), b("ok"));
      assertArrayEquals(b("ok"), store.get(b("after")));
    }
  }

  private static boolean makeReadOnly(Path dir) throws Exception {
    if (!"root".equals(System.getProperty("user.name"))) {
      return dir.toFile().setWritable(false, false);
    }
    return Commands.run("chattr", "+i", dir.toString());
  }

  private static void makeWritable(Path dir) throws Exception {
    if (!"root".equals(System.getProperty("user.name"))) {
      dir.toFile().setWritable(true, false);
    } else {
      Commands.run("chattr", "-i", dir.toString());
    }
  }


  private static void deleteTree(Path p) throws IOException {
    try (Stream<Path> walk = Files.walk(p)) {
      for (Path q : walk.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(q);
      }
    }
  }
}
