package io.p2kv.examples;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.KeyValue;
import io.p2kv.P2kv;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs every example program, checks what it prints and what it leaves in its store. */
class ExamplesTest {
  @TempDir Path tmp;

  /** Runs an example's main with {@code dir} and returns what it printed. */
  private static String run(ExampleMain main, Path dir) throws Exception {
    PrintStream saved = System.out;
    ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    System.setOut(new PrintStream(buffer, true, UTF_8));
    try {
      main.main(new String[] {dir.toString()});
    } finally {
      System.setOut(saved);
    }
    String printed = buffer.toString(UTF_8);
    saved.print(printed);
    return printed;
  }

  interface ExampleMain {
    void main(String[] args) throws Exception;
  }

  @Test
  void kafkaWordCountShouldCountWordsInTheSharedP2kvStore() {
    try (org.apache.kafka.streams.TopologyTestDriver d = new org.apache.kafka.streams.TopologyTestDriver(
        KafkaWordCount.topology(), KafkaWordCount.props("unused:9092", tmp))) {
      var lines = d.createInputTopic("lines",
          new org.apache.kafka.common.serialization.StringSerializer(),
          new org.apache.kafka.common.serialization.StringSerializer());
      lines.pipeInput("a", "the cat and the hat");
      lines.pipeInput("b", "The end");
      var counts = d.<String, Long>getKeyValueStore(KafkaWordCount.STORE);
      assertEquals(3L, counts.get("the"));
      assertEquals(1L, counts.get("cat"));
      assertEquals(1L, counts.get("end"));
      assertNull(counts.get("dog"));
    }
    assertTrue(Files.isDirectory(tmp.resolve("p2kv-word-count/p2kv")), "the counts live in p2kv");
  }

  @Test
  void quickstartShouldPutGetDeleteAndFindItsDataAfterReopening() throws Exception {
    Path dir = tmp.resolve("quickstart");
    String out = run(Quickstart::main, dir);

    assertTrue(out.contains("get user:42     -> Ada Lovelace"), out);
    assertTrue(out.contains("after overwrite -> Ada King"), out);
    assertTrue(out.contains("after delete    -> null"), out);
    assertTrue(out.contains("multiGet a,zz,b -> [1, null, 2]"), out);
    assertTrue(out.contains("after reopen, a -> 1"), out);
    try (P2kv store = P2kv.builder().open(dir)) {
      assertNull(store.get("user:42".getBytes(UTF_8)));
      assertArrayEquals("2".getBytes(UTF_8), store.get("b".getBytes(UTF_8)));
    }
  }

  @Test
  void asyncPipelineShouldCompleteEveryRequestItIssued() throws Exception {
    Path dir = tmp.resolve("async");
    String out = run(AsyncPipeline::main, dir);

    assertTrue(out.contains("100,000 async puts in"), out);
    assertTrue(out.contains("lengths of the first ten values: [7, 7, 7, 7, 7, 7, 7, 7, 7, 7]"), out);
    assertTrue(out.contains("1000 values emptied with callbacks"), out);
    assertTrue(out.contains("absent key reads as null"), out);
    try (P2kv store = P2kv.builder().open(dir)) {
      int last = AsyncPipeline.PAIRS - 1;
      assertArrayEquals(("value-" + last).getBytes(UTF_8), store.get(AsyncPipeline.key(last)));
      assertArrayEquals(new byte[0], store.get(AsyncPipeline.key(0)));
    }
  }

  @Test
  void tuningShouldOpenTwoShardsAndReportBatchingAndLatencies() throws Exception {
    Path dir = tmp.resolve("tuning");
    String out = run(Tuning::main, dir);

    assertTrue(out.contains("shard 0: ") && out.contains("shard 1: "), out);
    assertTrue(out.lines().anyMatch(l -> l.startsWith("PUT ") && l.contains("10,000 ops")), out);
    assertTrue(out.lines().anyMatch(l -> l.startsWith("GET ")), out);
    try (P2kv store = P2kv.builder().open(dir)) {
      assertEquals(2, store.shardCount(), "the shard count is kept in the MANIFEST");
      assertArrayEquals(new byte[100], store.get("key-9999".getBytes(UTF_8)));
    }
  }

  @Test
  void orderedScanShouldPrintEveryReadInKeyOrder() throws Exception {
    String out = run(OrderedScan::main, tmp.resolve("scan"));

    assertTrue(out.lines().anyMatch(l -> l.matches("user:00\\.\\.03 live on shards \\[[0-3], [0-3], [0-3], [0-3]\\]")), out);
    assertTrue(out.contains("scan(user:05, 3)       -> [user:05, user:06, user:07]\n"), out);
    assertTrue(out.contains("next page              -> [user:08, user:09, user:10]\n"), out);
    assertTrue(out.contains("range(order:, order;)  -> [order:1=3 books, order:2=1 lamp]\n"), out);
    assertTrue(out.contains("range(null, user:02)   -> [order:1, order:2, user:00, user:01]\n"), out);
    assertTrue(out.contains("iterator, first two    -> [user:00, user:01]\n"), out);
    assertTrue(out.contains("after seek(user:17)    -> [user:17, user:18, user:19]\n"), out);
    assertTrue(out.contains("reverse below user:10  -> [user:09, user:08, user:07]\n"), out);
    assertTrue(out.contains("after seek(user:03)    -> [user:03, user:02, user:01, user:00]\n"), out);
    assertTrue(out.contains("prefix order:          -> [order:1, order:2]\n"), out);
  }

  @Test
  void largeValuesShouldPutLargeValuesInBlobFilesOnlyUnderValueSeparation() throws Exception {
    String out = run(LargeValues::main, tmp.resolve("large"));

    String sizeAware = out.lines().filter(l -> l.startsWith("sizeAware ")).findFirst().orElseThrow();
    String none = out.lines().filter(l -> l.startsWith("none ")).findFirst().orElseThrow();
    assertTrue(sizeAware.contains("large value 16384 bytes (round 2)"), out);
    assertTrue(none.contains("large value 16384 bytes (round 2)"), out);
    assertTrue(sizeAware.matches(".*blob files [1-9][0-9,]* bytes.*"), "large values separated: " + out);
    assertTrue(none.contains("blob files 0 bytes") && none.endsWith("blobs from never bytes"), "none keeps all inline: " + out);
  }

  @Test
  void atomicTransferShouldKeepTheTotalAcrossShardsAndThreads() throws Exception {
    Path dir = tmp.resolve("transfer");
    String out = run(AtomicTransfer::main, dir);

    for (int t = 0; t < AtomicTransfer.THREADS; t++) {
      String owns = "thread " + t + " owns \\[acct:" + t + ":\\d+ \\(shard 0\\), acct:" + t + ":\\d+ \\(shard 1\\), "
          + "acct:" + t + ":\\d+ \\(shard 2\\), acct:" + t + ":\\d+ \\(shard 3\\)\\]";
      assertTrue(out.lines().anyMatch(l -> l.matches(owns)), owns + " in\n" + out);
    }
    assertTrue(out.contains("8,000 cross-shard transfers by 4 threads; meanwhile "), out);
    assertTrue(out.contains("total after the transfers: 16,000 (expected 16,000)\n"), out);
    try (P2kv store = P2kv.builder().open(dir)) {
      assertEquals(16_000, AtomicTransfer.total(store), "the total survives close and reopen");
      List<KeyValue> accounts = store.range("acct:".getBytes(UTF_8), "acct;".getBytes(UTF_8));
      assertEquals(16, accounts.size());
      assertTrue(accounts.stream().allMatch(kv -> AtomicTransfer.balance(kv.value()) >= 0), "no overdraft");
    }
  }

  @Test
  void updatesShouldCountEveryIncrementAndKeepEveryThreadsField() throws Exception {
    Path dir = tmp.resolve("updates");
    String out = run(Updates::main, dir);

    assertTrue(out.contains("total: 40,000 views (expected 40,000)\n"), out);
    assertTrue(out.contains("page:docs: 13,334 views\n"), out);
    assertTrue(out.contains("user:ada has 9 fields: name=Ada, seen-by-0, ...\n"), out);
    assertTrue(out.contains("log has 8 entries\n"), out);
    assertTrue(out.contains("refused update: record is locked by policy\n"), out);
    assertTrue(out.lines().anyMatch(l -> l.matches("40,017 update functions ran, the longest for \\d+ us; mean write batch [0-9.]+")), out);
    try (P2kv store = P2kv.builder().open(dir)) {
      long total = 0;
      for (String page : Updates.PAGES) {
        total += java.nio.ByteBuffer.wrap(store.get(page.getBytes(UTF_8))).getLong();
      }
      assertEquals(40_000, total, "the counters survive close and reopen");
    }
  }

  @Test
  void snapshotsAndBackupsShouldShowTheSameTotalInEveryCut() throws Exception {
    String out = run(SnapshotsAndBackups::main, tmp.resolve("cuts"));

    assertTrue(out.contains("snapshot total: 8000\n"), out);
    assertTrue(out.contains("all copied\n") && out.contains("backup 3: ") && out.contains("incremental\n"), out);
    assertTrue(out.contains("deleted backups [1]\n"), out);
    assertTrue(out.contains("backup 2 verified\nbackup 3 verified\n"), out);
    assertTrue(out.contains("checkpoint total: 8000\n") && out.contains("restored total: 8000\n"), out);
  }

  @Test
  void examplesShouldRunAgainInTheDirectoryOfAnEarlierRun() throws Exception {
    Path updates = tmp.resolve("updates-twice");
    run(Updates::main, updates);
    String again = run(Updates::main, updates);
    assertTrue(again.contains("total: 40,000 views (expected 40,000)\n"), again);
    assertTrue(again.contains("log has 8 entries\n"), again);
    Path cuts = tmp.resolve("cuts-twice");
    run(SnapshotsAndBackups::main, cuts);
    String second = run(SnapshotsAndBackups::main, cuts);
    assertTrue(second.contains("checkpoint total: 8000\n") && second.contains("restored total: 8000\n"), second);
    assertTrue(Files.isDirectory(cuts.resolve("checkpoint-2")) && Files.isDirectory(cuts.resolve("restored-2")));
  }

  @Test
  void examplesShouldDeleteTheTemporaryStoreTheyCreateWhenGivenNoDirectory() throws Exception {
    ExampleDir dir = ExampleDir.fromArgs(new String[0], "p2kv-example-test");
    assertTrue(dir.temporary());
    Files.writeString(dir.path().resolve("file"), "x");
    dir.close();
    assertTrue(Files.notExists(dir.path()));
  }

  @Test
  void everyExampleShouldStayUnderOneHundredLines() throws IOException {
    Path sources = Path.of("src/main/java/io/p2kv/examples");
    List<Path> examples;
    try (Stream<Path> list = Files.list(sources)) {
      examples = list.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> !p.getFileName().toString().equals("package-info.java"))
          .toList();
    }
    for (String name : List.of("Quickstart", "AsyncPipeline", "Tuning", "OrderedScan", "AtomicTransfer", "LargeValues",
        "Updates", "SnapshotsAndBackups")) {
      assertTrue(examples.contains(sources.resolve(name + ".java")), name + " in " + examples);
    }
    for (Path p : examples) {
      long lines = Files.readAllLines(p).size();
      assertTrue(lines < 100, p + " has " + lines + " lines");
    }
  }
}
