package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Backups: each restores as the store at its cut (against a model), later ones copy only new
 * files, retention keeps the newest and frees the rest, damage is found by verify and refused by
 * restore, transfers keep their total in backups taken under load, and leftovers of an
 * interrupted backup are removed. The kill -9 cycles are in src-test ({@code CrashTest}).
 */
class BackupTest {
  @TempDir Path tmp;

  private static TreeMap<byte[], byte[]> write(P2kv store, TreeMap<byte[], byte[]> model, Random rnd, int ops) {
    for (int i = 0; i < ops; i++) {
      byte[] k = Keys.key("k" + rnd.nextInt(2000));
      if (rnd.nextInt(6) == 0) {
        store.delete(k);
        model.remove(k);
      } else {
        byte[] v = Keys.randomValue(rnd, 300);
        store.put(k, v);
        model.put(k, v);
      }
    }
    return new TreeMap<>(model);
  }

  private static void assertStoreEquals(Map<byte[], byte[]> expected, Path dir) {
    try (P2kv store = P2kv.builder().open(dir)) {
      List<KeyValue> all = store.range(null, null);
      assertEquals(expected.size(), all.size(), "pairs in " + dir);
      int i = 0;
      for (Map.Entry<byte[], byte[]> e : expected.entrySet()) {
        assertArrayEquals(e.getKey(), all.get(i).key());
        assertArrayEquals(e.getValue(), all.get(i++).value());
      }
    }
  }

  @Test
  void shouldRestoreEachBackupAsTheStoreAtItsCutAndCopyOnlyNewFiles() {
    TestSeeds.run(getClass(), "shouldRestoreEachBackupAsTheStoreAtItsCutAndCopyOnlyNewFiles", seed -> {
      Random rnd = new Random(seed);
      Path backups = tmp.resolve("backups");
      TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);
      List<TreeMap<byte[], byte[]>> states = new ArrayList<>();
      try (P2kv store = P2kv.builder().shards(4).open(tmp.resolve("store"))) {
        states.add(write(store, model, rnd, 3000));
        BackupInfo first = store.backup(backups);
        assertEquals(1, first.id());
        assertEquals(first.bytes(), first.copiedBytes(), "the first backup copies everything");
        states.add(write(store, model, rnd, 300));
        BackupInfo second = store.backup(backups);
        assertEquals(2, second.id());
        assertTrue(second.copiedBytes() < second.bytes(), "the second shares the files it did not change: " + second);
        write(store, model, rnd, 100); // after the last cut
      }
      List<BackupInfo> listed = P2kv.listBackups(backups);
      assertEquals(List.of(1L, 2L), listed.stream().map(BackupInfo::id).toList());
      for (int i = 0; i < 2; i++) {
        assertEquals(listed.get(i), P2kv.verifyBackup(backups, i + 1));
        Path target = tmp.resolve("restored-" + (i + 1));
        assertEquals(listed.get(i), P2kv.restore(backups, i + 1, target));
        assertStoreEquals(states.get(i), target);
      }
      P2kv.restoreLatest(backups, tmp.resolve("latest"));
      assertStoreEquals(states.get(1), tmp.resolve("latest"));
    });
  }

  @Test
  void shouldTakeConcurrentBackupsOfOneStoreEachWhole() throws Exception {
    Random rnd = new Random(42);
    TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);
    try (P2kv store = P2kv.builder().shards(2).open(tmp.resolve("store"))) {
      TreeMap<byte[], byte[]> state = write(store, model, rnd, 3000);
      int rounds = 4;
      java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
      try {
        List<java.util.concurrent.Future<?>> done = new ArrayList<>();
        for (String name : List.of("a", "b")) {
          done.add(pool.submit(() -> {
            for (int i = 0; i < rounds; i++) {
              store.backup(tmp.resolve("backups-" + name));
            }
            return null;
          }));
        }
        for (java.util.concurrent.Future<?> f : done) {
          f.get(); // a backup that failed fails the test with its cause
        }
      } finally {
        pool.shutdownNow();
      }
      for (String name : List.of("a", "b")) {
        Path backups = tmp.resolve("backups-" + name);
        assertEquals(rounds, P2kv.listBackups(backups).size());
        for (long id = 1; id <= rounds; id++) {
          P2kv.verifyBackup(backups, id);
          Path target = tmp.resolve("restored-" + name + "-" + id);
          P2kv.restore(backups, id, target);
          assertStoreEquals(state, target);
        }
      }
    }
  }

  @Test
  void shouldKeepTheNewestBackupsAndDeleteTheFilesOnlyOlderOnesUsed() throws Exception {
    Random rnd = new Random(7);
    Path backups = tmp.resolve("backups");
    TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);
    TreeMap<byte[], byte[]> last = null;
    try (P2kv store = P2kv.builder().shards(2).open(tmp.resolve("store"))) {
      for (int i = 0; i < 4; i++) {
        last = write(store, model, rnd, 1000);
        store.flush();
        store.compact(); // replaces every file: the old backups' files become theirs alone
        store.backup(backups);
      }
    }
    long before = filesUnder(backups.resolve("shared"));
    assertEquals(List.of(1L, 2L), P2kv.keepLastBackups(backups, 2));
    assertEquals(List.of(3L, 4L), P2kv.listBackups(backups).stream().map(BackupInfo::id).toList());
    assertTrue(filesUnder(backups.resolve("shared")) < before, "files only the deleted backups used are gone");
    assertFalse(Files.exists(backups.resolve("private").resolve("1")));
    P2kv.verifyBackup(backups, 3);
    P2kv.verifyBackup(backups, 4);
    P2kv.restore(backups, 4, tmp.resolve("r"));
    assertStoreEquals(last, tmp.resolve("r"));
    assertThrows(IllegalArgumentException.class, () -> P2kv.restore(backups, 1, tmp.resolve("r1")));
    assertThrows(IllegalArgumentException.class, () -> P2kv.keepLastBackups(backups, 0));
  }

  private static long filesUnder(Path dir) throws Exception {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile).count();
    }
  }

  @Test
  void shouldFindADamagedFileAndRefuseToRestoreIt() throws Exception {
    Path backups = tmp.resolve("backups");
    try (P2kv store = P2kv.builder().shards(2).open(tmp.resolve("store"))) {
      write(store, new TreeMap<>(Keys.UNSIGNED), new Random(1), 2000);
      store.backup(backups);
    }
    Path sst;
    try (Stream<Path> walk = Files.walk(backups.resolve("shared"))) {
      sst = walk.filter(p -> p.toString().endsWith(".sst")).findFirst().orElseThrow();
    }
    byte[] bytes = Files.readAllBytes(sst);
    bytes[bytes.length / 2] ^= 1;
    Files.write(sst, bytes);
    StoreCorruptedException verify = assertThrows(StoreCorruptedException.class, () -> P2kv.verifyBackup(backups, 1));
    assertTrue(verify.getMessage().contains(sst.getFileName().toString()) && verify.getMessage().contains("damaged"),
        verify.getMessage());
    Path target = tmp.resolve("restored");
    assertThrows(StoreCorruptedException.class, () -> P2kv.restore(backups, 1, target));
    assertFalse(Files.exists(target), "a failed restore leaves nothing behind");
  }

  /**
   * Backups taken in a loop under transfers and causal writers each restore to a consistent cut.
   * With {@code SYNC} the store recycles its logs, so from the second backup on the logs at the cut
   * are old files written over.
   */
  @ParameterizedTest
  @EnumSource(value = Durability.class, names = {"WAL", "SYNC"})
  void shouldKeepTheGuaranteeInEveryBackupTakenUnderLoad(Durability durability) throws Exception {
    TestSeeds.run(getClass(), "shouldKeepTheGuaranteeInEveryBackupTakenUnderLoad: " + durability, seed -> {
      Path backups = tmp.resolve("backups");
      byte[][][] owned;
      long total;
      CausalPairs pairs;
      List<long[]> before = new ArrayList<>();
      try (P2kv store = P2kv.builder().shards(4).durability(durability).open(tmp.resolve("store"))) {
        owned = Transfers.accounts(store, 8, 3);
        total = Transfers.fund(store, owned, 1000);
        Transfers.Writers writers = new Transfers.Writers(store, owned, 1000, seed);
        pairs = new CausalPairs(store, 4);
        try {
          for (int i = 0; i < 5; i++) {
            before.add(pairs.acknowledged());
            store.backup(backups);
          }
        } finally {
          pairs.stop();
          writers.stop();
        }
      }
      for (BackupInfo b : P2kv.listBackups(backups)) {
        Path target = tmp.resolve("restored-" + b.id());
        P2kv.restore(backups, b.id(), target);
        try (P2kv restored = P2kv.builder().open(target)) {
          assertEquals(total, Transfers.total(restored, owned), "total in backup " + b.id());
          pairs.check(restored::get, before.get((int) b.id() - 1), "backup " + b.id());
        }
      }
    });
  }

  @Test
  void shouldRemoveTheLeftoversOfAnInterruptedBackup() throws Exception {
    Path backups = tmp.resolve("backups");
    TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);
    try (P2kv store = P2kv.builder().shards(2).open(tmp.resolve("store"))) {
      write(store, model, new Random(3), 500);
      store.backup(backups);
      // What a kill in the middle of backup 2 leaves: a partial private copy, a shared file being
      // copied, an unpublished list, and the staged checkpoint in the store.
      Files.createDirectories(backups.resolve("private/2/shard-000"));
      Files.writeString(backups.resolve("private/2/shard-000/CURRENT"), "partial");
      Files.writeString(backups.resolve("meta/2.tmp"), "partial");
      Path sharedDir;
      try (Stream<Path> list = Files.list(backups.resolve("shared"))) {
        sharedDir = list.findFirst().orElseThrow().resolve("shard-000");
      }
      Files.writeString(sharedDir.resolve("999999.sst.tmp"), "partial");
      assertEquals(List.of(1L), P2kv.listBackups(backups).stream().map(BackupInfo::id).toList());
      BackupInfo next = store.backup(backups);
      assertEquals(2, next.id());
      assertFalse(Files.exists(sharedDir.resolve("999999.sst.tmp")));
      assertFalse(Files.exists(backups.resolve("meta/2.tmp")));
      assertFalse(Files.exists(tmp.resolve("store").resolve(".backup-staging")), "the staged checkpoint is deleted");
    }
    P2kv.verifyBackup(backups, 2);
    P2kv.restore(backups, 2, tmp.resolve("r"));
    assertStoreEquals(model, tmp.resolve("r"));
  }

  /**
   * A kill during a backup leaves its staged checkpoint in the store, or the hidden sibling it was
   * made in; opening the store deletes both (it holds the store's lock, so no backup of it is
   * running), and leaves the store's own files alone.
   */
  @Test
  void shouldDeleteWhatAKilledBackupStagedWhenTheStoreOpens() throws Exception {
    Path dir = tmp.resolve("store");
    TreeMap<byte[], byte[]> model = new TreeMap<>(Keys.UNSIGNED);
    try (P2kv store = P2kv.builder().shards(2).open(dir)) {
      write(store, model, new Random(5), 200);
    }
    Path staged = Files.createDirectories(dir.resolve(".backup-staging/shard-000"));
    Files.writeString(staged.resolve("000009.sst"), "partial");
    Files.writeString(dir.resolve(".backup-staging/INCOMPLETE"), "interrupted");
    Path sibling = Files.createDirectories(dir.resolve("..backup-staging.p2kv-incomplete-" + ProcessHandle.current().pid() + "-1"));
    Files.writeString(sibling.resolve("INCOMPLETE"), "interrupted");
    List<String> before;
    try (Stream<Path> list = Files.list(dir)) {
      before = list.map(p -> p.getFileName().toString()).filter(n -> !n.contains("backup-staging")).sorted().toList();
    }
    try (P2kv store = P2kv.builder().open(dir)) {
      assertFalse(Files.exists(dir.resolve(".backup-staging")));
      assertFalse(Files.exists(sibling));
      for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
        assertArrayEquals(e.getValue(), store.get(e.getKey()));
      }
    }
    try (Stream<Path> list = Files.list(dir)) {
      assertEquals(before, list.map(p -> p.getFileName().toString()).sorted().toList());
    }
  }

  @Test
  void shouldNotShareFilesBetweenAStoreAndItsRestoredCopyInOneBackupDirectory() {
    Path backups = tmp.resolve("backups");
    TreeMap<byte[], byte[]> original = new TreeMap<>(Keys.UNSIGNED);
    try (P2kv store = P2kv.builder().shards(2).open(tmp.resolve("store"))) {
      write(store, original, new Random(1), 500);
      store.backup(backups); // 1
    }
    // A restored copy has the same RocksDB identity; both go on, and both back up into one directory.
    P2kv.restore(backups, 1, tmp.resolve("copy"));
    TreeMap<byte[], byte[]> copy = new TreeMap<>(original);
    try (P2kv store = P2kv.builder().open(tmp.resolve("store"));
        P2kv clone = P2kv.builder().open(tmp.resolve("copy"))) {
      write(store, original, new Random(2), 500);
      write(clone, copy, new Random(3), 500);
      store.backup(backups); // 2
      clone.backup(backups); // 3: files numbered as backup 2's, with other contents
    }
    for (long id = 1; id <= 3; id++) {
      P2kv.verifyBackup(backups, id);
    }
    P2kv.restore(backups, 2, tmp.resolve("r2"));
    P2kv.restore(backups, 3, tmp.resolve("r3"));
    assertStoreEquals(original, tmp.resolve("r2"));
    assertStoreEquals(copy, tmp.resolve("r3"));
  }

  @Test
  void shouldNotShareFilesBetweenTwoStoresInOneBackupDirectory() {
    Path backups = tmp.resolve("backups");
    TreeMap<byte[], byte[]> a = new TreeMap<>(Keys.UNSIGNED);
    TreeMap<byte[], byte[]> b = new TreeMap<>(Keys.UNSIGNED);
    try (P2kv one = P2kv.builder().shards(2).open(tmp.resolve("one"));
        P2kv two = P2kv.builder().shards(2).open(tmp.resolve("two"))) {
      write(one, a, new Random(1), 500);
      write(two, b, new Random(2), 500);
      one.backup(backups);
      two.backup(backups); // the same file names: 000011.sst and so on
    }
    P2kv.restore(backups, 1, tmp.resolve("r1"));
    P2kv.restore(backups, 2, tmp.resolve("r2"));
    assertStoreEquals(a, tmp.resolve("r1"));
    assertStoreEquals(b, tmp.resolve("r2"));
  }
}
