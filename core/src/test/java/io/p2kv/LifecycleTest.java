package io.p2kv;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Open, reopen, manifest, directory lock, close. */
class LifecycleTest {
  @TempDir Path tmp;

  @ParameterizedTest
  @EnumSource(Durability.class)
  void shouldKeepDataAcrossCloseAndReopenInEveryDurabilityMode(Durability durability) {
    try (P2kv store = P2kv.builder().shards(3).durability(durability).open(tmp)) {
      for (int i = 0; i < 1000; i++) {
        store.put(Keys.key("k" + i), Keys.key("v" + i));
      }
      store.delete(Keys.key("k7"));
    }
    try (P2kv store = P2kv.builder().durability(durability).open(tmp)) {
      assertEquals(3, store.shardCount(), "an unset shard count adopts the manifest's");
      for (int i = 0; i < 1000; i++) {
        assertArrayEquals(i == 7 ? null : Keys.key("v" + i), store.get(Keys.key("k" + i)));
      }
    }
  }

  @Test
  void shouldWriteAManifestAndOneDirectoryPerShard() throws IOException {
    P2kv.builder().shards(4).open(tmp).close();
    String manifest = Files.readString(tmp.resolve("MANIFEST"));
    assertTrue(manifest.contains("shards=4"), manifest);
    assertTrue(manifest.contains("hash=murmur3_x86_32"), manifest);
    for (int i = 0; i < 4; i++) {
      assertTrue(Files.isDirectory(tmp.resolve(String.format("shard-%03d", i))));
    }
  }

  @Test
  void shouldRefuseToReopenWithAnotherShardCountNamingBoth() {
    P2kv.builder().shards(4).open(tmp).close();
    ManifestMismatchException e =
        assertThrows(ManifestMismatchException.class, () -> P2kv.builder().shards(2).open(tmp));
    assertTrue(e.getMessage().contains("4 shards") && e.getMessage().contains("shards=2"), e.getMessage());
    // The refused open left the store intact and unlocked.
    P2kv.builder().shards(4).open(tmp).close();
  }

  @Test
  void shouldRefuseASecondOpenerInTheSameProcess() {
    try (P2kv store = P2kv.builder().shards(2).open(tmp)) {
      StoreLockedException e = assertThrows(StoreLockedException.class, () -> P2kv.builder().open(tmp));
      assertTrue(e.getMessage().contains("already open"), e.getMessage());
      store.put(Keys.key("still"), Keys.key("works"));
    }
    P2kv.builder().open(tmp).close();
  }

  @Test
  void shouldRefuseASecondOpenerInAnotherProcess() throws Exception {
    try (P2kv store = P2kv.builder().shards(2).open(tmp)) {
      store.put(Keys.key("held"), Keys.key("open"));
      String out = secondOpenerInAnotherProcess();
      assertTrue(out.contains("LOCKED: ") && out.contains("already open in another process"), out);
    }
  }

  @Test
  void shouldStillExcludeOtherProcessesAfterRefusingASecondOpenerInThisOne() throws Exception {
    try (P2kv store = P2kv.builder().shards(2).open(tmp)) {
      assertThrows(StoreLockedException.class, () -> P2kv.builder().open(tmp));
      assertThrows(StoreLockedException.class, () -> P2kv.builder().open(tmp.resolve(".").resolve("shard-000").resolve("..")));
      // Closing a second descriptor on LOCK would have released this process's lock on it.
      String out = secondOpenerInAnotherProcess();
      assertTrue(out.contains("LOCKED: ") && out.contains("already open in another process"), out);
      store.put(Keys.key("still"), Keys.key("works"));
    }
  }

  /** Runs {@link SecondOpener} on the store in a child JVM; returns what it printed (it exits 0 if refused). */
  private String secondOpenerInAnotherProcess() throws Exception {
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process child =
        new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"), SecondOpener.class.getName(), tmp.toString())
            .redirectErrorStream(true)
            .start();
    assertTrue(child.waitFor(60, TimeUnit.SECONDS), "child finished");
    String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertEquals(0, child.exitValue(), out);
    return out;
  }

  /** Child-process entry point for the cross-process lock test. */
  public static final class SecondOpener {
    public static void main(String[] args) {
      try (P2kv store = P2kv.builder().open(Path.of(args[0]))) {
        System.out.println("OPENED " + store.shardCount());
        System.exit(1);
      } catch (StoreLockedException e) {
        System.out.println("LOCKED: " + e.getMessage());
      }
    }
  }

  @Test
  void shouldLeaveNothingBehindWhenACreationFails() throws IOException {
    RuntimeException e = assertThrows(RuntimeException.class, () -> P2kv.builder().shards(3)
        .rocksDbConfigurer((shard, options) -> {
          if (shard == 1) {
            throw new IllegalStateException("injected: no options for shard 1");
          }
        })
        .open(tmp));
    assertTrue(String.valueOf(e.getMessage()).contains("injected") || String.valueOf(e.getCause()).contains("injected"), e.toString());
    try (var list = Files.list(tmp)) {
      assertEquals(List.of(), list.map(p -> p.getFileName().toString()).filter(n -> !n.equals("LOCK")).toList(),
          "the failed creation's shard directories are gone");
    }
    try (P2kv store = P2kv.builder().shards(3).open(tmp)) { // and the directory creates a store again
      store.put(Keys.key("a"), Keys.key("b"));
      assertEquals(3, store.shardCount());
    }
  }

  @Test
  void shouldRefuseANonEmptyDirectoryThatIsNotAStore() throws IOException {
    Files.writeString(tmp.resolve("notes.txt"), "mine");
    P2kvException e = assertThrows(P2kvException.class, () -> P2kv.builder().open(tmp));
    assertTrue(e.getMessage().contains("not a p2kv store"), e.getMessage());
    assertEquals("mine", Files.readString(tmp.resolve("notes.txt")));
    try (var list = Files.list(tmp)) {
      assertEquals(List.of("notes.txt"), list.map(p -> p.getFileName().toString()).toList(), "the refused open created nothing");
    }
  }

  @Test
  void shouldSayThatAPathIsAFile() throws IOException {
    Path file = Files.writeString(tmp.resolve("store"), "not a directory");
    P2kvException e = assertThrows(P2kvException.class, () -> P2kv.builder().open(file));
    assertTrue(e.getMessage().contains("is a file"), e.getMessage());
    assertEquals("not a directory", Files.readString(file));
  }

  @Test
  void shouldReportADamagedShardAsCorrupted() throws IOException {
    try (P2kv store = P2kv.builder().shards(2).open(tmp)) {
      store.put(Keys.key("a"), Keys.key("b"));
    }
    // CURRENT names the shard's RocksDB manifest; make it name one that does not exist.
    Files.writeString(tmp.resolve("shard-001").resolve("CURRENT"), "MANIFEST-999999\n");
    StoreCorruptedException e = assertThrows(StoreCorruptedException.class, () -> P2kv.builder().open(tmp));
    assertTrue(e.getMessage().contains("shard 1") || e.getMessage().contains("shard-001"), e.getMessage());
    // The refused open unlocked the directory: the same error again, not StoreLockedException.
    assertThrows(StoreCorruptedException.class, () -> P2kv.builder().open(tmp));
  }

  @Test
  void shouldRefuseAManifestEditedToFewerShards() throws IOException {
    try (P2kv store = P2kv.builder().shards(3).open(tmp)) {
      for (int i = 0; i < 300; i++) {
        store.put(Keys.key("k" + i), Keys.key("v" + i));
      }
    }
    Path manifest = tmp.resolve("MANIFEST");
    Files.writeString(manifest, Files.readString(manifest).replace("shards=3", "shards=2"));
    StoreCorruptedException e = assertThrows(StoreCorruptedException.class, () -> P2kv.builder().open(tmp));
    assertTrue(e.getMessage().contains("shard-002"), e.getMessage());
    // Put the manifest back: the store opens with all its keys.
    Files.writeString(manifest, Files.readString(manifest).replace("shards=2", "shards=3"));
    try (P2kv store = P2kv.builder().open(tmp)) {
      for (int i = 0; i < 300; i++) {
        assertArrayEquals(Keys.key("v" + i), store.get(Keys.key("k" + i)));
      }
    }
  }

  @Test
  void shouldRefuseAStrayShardDirectory() throws IOException {
    P2kv.builder().shards(2).open(tmp).close();
    Files.createDirectory(tmp.resolve("shard-007"));
    StoreCorruptedException e = assertThrows(StoreCorruptedException.class, () -> P2kv.builder().open(tmp));
    assertTrue(e.getMessage().contains("shard-007"), e.getMessage());
  }

  @Test
  void shouldReportACorruptedManifestClearly() throws IOException {
    P2kv.builder().shards(2).open(tmp).close();
    Files.writeString(tmp.resolve("MANIFEST"), "format.version=1\nshards=two\n");
    StoreCorruptedException e = assertThrows(StoreCorruptedException.class, () -> P2kv.builder().open(tmp));
    assertTrue(e.getMessage().contains("shards"), e.getMessage());
  }

  @Test
  void shouldReportAMissingShardDirectoryInsteadOfCreatingAnEmptyShard() throws IOException {
    try (P2kv store = P2kv.builder().shards(2).open(tmp)) {
      store.put(Keys.key("a"), Keys.key("b"));
    }
    deleteTree(tmp.resolve("shard-001"));
    StoreCorruptedException e = assertThrows(StoreCorruptedException.class, () -> P2kv.builder().open(tmp));
    assertTrue(e.getMessage().contains("shard-001"), e.getMessage());
    assertTrue(!Files.exists(tmp.resolve("shard-001")), "no empty shard was created in its place");
  }

  @Test
  void shouldRefuseShardDirectoriesWithoutAManifest() throws IOException {
    P2kv.builder().shards(2).open(tmp).close();
    Files.delete(tmp.resolve("MANIFEST"));
    StoreCorruptedException e = assertThrows(StoreCorruptedException.class, () -> P2kv.builder().open(tmp));
    assertTrue(e.getMessage().contains("no MANIFEST"), e.getMessage());
  }

  @Test
  void shouldCloseIdempotentlyAndThenRefuseEveryOperation() {
    P2kv store = P2kv.builder().shards(2).open(tmp);
    store.put(Keys.key("k"), Keys.key("v"));
    store.close();
    store.close();
    byte[] k = Keys.key("k");
    assertThrows(StoreClosedException.class, () -> store.put(k, k));
    assertThrows(StoreClosedException.class, () -> store.get(k));
    assertThrows(StoreClosedException.class, () -> store.delete(k));
    assertThrows(StoreClosedException.class, () -> store.multiGet(List.of(k)));
    assertThrows(StoreClosedException.class, () -> store.write(new Batch().put(k, k)));
    assertThrows(StoreClosedException.class, store::stats);
    assertTrue(store.putAsync(k, k).isCompletedExceptionally());
    assertTrue(store.getAsync(k).isCompletedExceptionally());
  }

  @Test
  void shouldOpenWithPinningRequestedEvenWhereItCannotPin() {
    try (P2kv store = P2kv.builder().shards(2).pinning(Pinning.ALWAYS).open(tmp)) {
      store.put(Keys.key("k"), Keys.key("v"));
      assertArrayEquals(Keys.key("v"), store.get(Keys.key("k")));
    }
  }

  @Test
  void shouldReportStatsPerShard() {
    try (P2kv store = P2kv.builder().shards(2).readPath(ReadPath.WORKER).open(tmp)) {
      for (int i = 0; i < 100; i++) {
        store.put(Keys.key("k" + i), Keys.key("v"));
      }
      store.delete(Keys.key("k1"));
      store.get(Keys.key("k2"));
      store.write(new Batch().put(Keys.key("k3"), Keys.key("x")));
      StoreStats stats = store.stats();
      assertEquals(2, stats.shards().size());
      assertEquals(100, stats.shards().stream().mapToLong(ShardStats::puts).sum());
      assertEquals(1, stats.shards().stream().mapToLong(ShardStats::deletes).sum());
      assertEquals(1, stats.shards().stream().mapToLong(ShardStats::batches).sum());
      assertEquals(1, stats.shards().stream().mapToLong(ShardStats::workerReads).sum());
      assertEquals(102, stats.writeOps());
      assertTrue(stats.memtableBytes() > 0);
      assertTrue(stats.shards().get(0).estimatedKeys() >= 0);
      assertNull(store.get(Keys.key("k1")));
    }
  }

  static void deleteTree(Path p) throws IOException {
    try (var walk = Files.walk(p)) {
      for (Path q : walk.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(q);
      }
    }
  }
}
