package io.p2kv.examples.tools;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.p2kv.P2kv;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The launcher's command line: help, usage errors (exit code 2) and failures (exit code 1). */
class P2kvCliTest {
  @TempDir Path tmp;

  /** What one run of the command line returned and printed. */
  record Run(int code, String out, String err) {
    List<String> errLines() {
      return err.lines().toList();
    }
  }

  static Run cli(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int code = P2kvCli.run(args, new PrintStream(out, true, UTF_8), new PrintStream(err, true, UTF_8));
    return new Run(code, out.toString(UTF_8), err.toString(UTF_8));
  }

  @ParameterizedTest
  @ValueSource(strings = {"--help", "-h", "help"})
  void shouldExplainEveryCommandOnHelp(String flag) {
    Run r = cli(flag);
    assertEquals(0, r.code());
    for (String command : List.of("demo", "stats DIR", "example NAME", "--help")) {
      assertTrue(r.out().contains("\n  " + command), command + " in\n" + r.out());
    }
    for (String option : List.of("--keys", "--threads", "--seconds", "--shards", "--dir", "--keep")) {
      assertTrue(r.out().contains(option), option);
    }
    P2kvCli.EXAMPLES.forEach((name, example) -> assertTrue(
        r.out().lines().anyMatch(l -> l.matches(" +" + name + " +" + Pattern.quote(example.summary()))), name + " in\n" + r.out()));
  }

  @Test
  void shouldPrintHelpForACommandToo() {
    assertEquals(0, cli("demo", "--help").code());
  }

  static void assertUsageError(Run r, String message) {
    assertEquals(2, r.code(), r.err());
    assertTrue(r.errLines().get(0).startsWith("p2kv: ") && r.errLines().get(0).contains(message), r.err());
    assertEquals("", r.errLines().get(1), "one line of error, then the usage");
    assertTrue(r.errLines().get(2).startsWith("usage: ./p2kv"), r.err());
    assertEquals("", r.out());
  }

  @Test
  void shouldRejectAMissingCommand() {
    assertUsageError(cli(), "no command given");
  }

  @Test
  void shouldRejectAnUnknownCommand() {
    assertUsageError(cli("bench"), "unknown command 'bench'");
  }

  @Test
  void shouldRejectBadDemoOptions() {
    assertUsageError(cli("demo", "--keys", "many"), "--keys must be a whole number");
    assertUsageError(cli("demo", "--keys", "0"), "--keys must be a whole number from 1");
    assertUsageError(cli("demo", "--keys"), "--keys needs a value");
    assertUsageError(cli("demo", "--seconds", "-1"), "--seconds must be a number above 0");
    assertUsageError(cli("demo", "--threads=0"), "--threads must be a whole number");
    assertUsageError(cli("demo", "--fast"), "unknown option for demo: '--fast'");
  }

  @Test
  void shouldRefuseADemoDirectoryThatIsNotEmpty() throws Exception {
    Files.writeString(tmp.resolve("precious.txt"), "keep me");
    assertUsageError(cli("demo", "--dir", tmp.toString()), "is not an empty directory");
    assertEquals("keep me", Files.readString(tmp.resolve("precious.txt")));
  }

  @Test
  void shouldParseCountsWithSeparatorsAndSuffixes() throws Exception {
    assertEquals(20_000, P2kvCli.count("--keys", "20k", 1, Long.MAX_VALUE));
    assertEquals(1_000_000, P2kvCli.count("--keys", "1m", 1, Long.MAX_VALUE));
    assertEquals(1_000_000, P2kvCli.count("--keys", "1_000_000", 1, Long.MAX_VALUE));
    assertEquals(1_000_000, P2kvCli.count("--keys", "1,000,000", 1, Long.MAX_VALUE));
  }

  @Test
  void shouldRejectStatsOfADirectoryThatIsNotAStoreWithoutCreatingOne() throws Exception {
    assertUsageError(cli("stats", tmp.toString()), "is not a p2kv store (it has no MANIFEST)");
    try (var list = Files.list(tmp)) {
      assertEquals(0, list.count(), "stats must not create a store");
    }
    assertUsageError(cli("stats", tmp.resolve("absent").toString()), "is not a directory");
    assertUsageError(cli("stats"), "exactly one argument");
  }

  @Test
  void shouldFailStatsWithTheStoresOwnMessageWhenTheStoreIsOpen() {
    Path dir = tmp.resolve("store");
    try (P2kv store = P2kv.builder().shards(1).memoryBudgetBytes(16L << 20).open(dir)) {
      store.put(new byte[] {1}, new byte[] {2});
      Run r = cli("stats", dir.toString());
      assertEquals(1, r.code(), r.err());
      assertTrue(r.err().startsWith("p2kv: store ") && r.err().contains("is already open"), r.err());
    }
  }

  @Test
  void shouldRejectAnUnknownExample() {
    assertUsageError(cli("example", "HelloWorld"), "no example named 'HelloWorld'");
  }

  @Test
  void shouldPassAnExampleAllItsArguments() {
    // KafkaWordCount takes two; the third word on the command line is the example's second.
    Run wrong = cli("example", "KafkaWordCount", "only-one");
    assertEquals(1, wrong.code(), wrong.err());
    assertTrue(wrong.err().contains("usage: KafkaWordCount"), wrong.err());
    // Both reach it (no broker list: Kafka refuses its configuration before anything starts).
    Run passed = cli("example", "KafkaWordCount", "", tmp.resolve("wc").toString());
    assertEquals(1, passed.code(), passed.err());
    assertTrue(passed.err().contains("bootstrap.servers"), passed.err());
  }

  @Test
  void shouldRunAnExampleByNameInTheGivenDirectory() {
    Path dir = tmp.resolve("quickstart");
    PrintStream saved = System.out;
    Run r;
    try {
      System.setOut(new PrintStream(new ByteArrayOutputStream(), true, UTF_8));
      r = cli("example", "quickstart", dir.toString());
    } finally {
      System.setOut(saved);
    }
    assertEquals(0, r.code(), r.err());
    assertTrue(Files.isRegularFile(dir.resolve("MANIFEST")));
  }

  @Test
  void shouldCheckpointBackUpListAndRestoreAClosedStore() {
    Path src = tmp.resolve("src");
    try (P2kv store = P2kv.builder().shards(2).open(src)) {
      store.put("k".getBytes(UTF_8), "v1".getBytes(UTF_8));
    }
    Run cp = cli("checkpoint", src.toString(), tmp.resolve("cp").toString());
    assertEquals(0, cp.code(), cp.err());
    Path backups = tmp.resolve("backups");
    Run b1 = cli("backup", src.toString(), backups.toString());
    assertEquals(0, b1.code(), b1.err());
    assertTrue(b1.out().startsWith("backup 1 of "), b1.out());
    try (P2kv store = P2kv.builder().open(src)) {
      store.put("k".getBytes(UTF_8), "v2".getBytes(UTF_8));
    }
    Run b2 = cli("backup", src.toString(), backups.toString(), "--keep-last", "1");
    assertEquals(0, b2.code(), b2.err());
    assertTrue(b2.out().contains("deleted backups [1]"), b2.out());
    Run list = cli("backups", backups.toString(), "--verify");
    assertEquals(0, list.code(), list.err());
    assertEquals(1, list.out().lines().count(), list.out());
    assertTrue(list.out().trim().startsWith("2 ") && list.out().contains("verified"), list.out());
    assertEquals(0, cli("restore", backups.toString(), tmp.resolve("latest").toString()).code());
    assertEquals(0, cli("restore", backups.toString(), "2", tmp.resolve("two").toString()).code());
    assertEquals(1, cli("restore", backups.toString(), "1", tmp.resolve("one").toString()).code(), "backup 1 was deleted");
    for (String[] expected : List.of(new String[] {"cp", "v1"}, new String[] {"latest", "v2"}, new String[] {"two", "v2"})) {
      try (P2kv store = P2kv.builder().open(tmp.resolve(expected[0]))) {
        assertEquals(expected[1], new String(store.get("k".getBytes(UTF_8)), UTF_8), expected[0]);
      }
    }
  }

  @Test
  void shouldRejectBadCopyArguments() throws Exception {
    assertUsageError(cli("checkpoint", tmp.toString()), "checkpoint takes a store directory and a target directory");
    assertUsageError(cli("checkpoint", tmp.resolve("none").toString(), tmp.resolve("x").toString()), "is not a directory");
    assertUsageError(cli("backup", tmp.toString(), "b", "--keep-last", "0"), "--keep-last must be a whole number from 1");
    assertUsageError(cli("restore", tmp.toString()), "restore takes a backup directory");
    Path src = tmp.resolve("src");
    try (P2kv store = P2kv.builder().shards(2).open(src)) {
      store.put("k".getBytes(UTF_8), "v".getBytes(UTF_8));
    }
    Files.createDirectories(tmp.resolve("full"));
    Files.writeString(tmp.resolve("full").resolve("x"), "x");
    Run r = cli("checkpoint", src.toString(), tmp.resolve("full").toString());
    assertEquals(1, r.code());
    assertTrue(r.err().contains("is not empty"), r.err());
  }
}
