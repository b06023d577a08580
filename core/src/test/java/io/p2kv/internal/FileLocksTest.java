package io.p2kv.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A lock this JVM holds is refused to a second taker in this JVM, whatever path names the file,
 * and can be taken again once released. (That other processes stay excluded after such a refusal
 * is LifecycleTest's, with a child process.)
 */
class FileLocksTest {
  @TempDir Path tmp;

  @Test
  void shouldRefuseASecondTakerInThisJvmUntilTheFirstReleases() throws Exception {
    Path dir = Files.createDirectories(tmp.resolve("d"));
    Path alias = Files.createSymbolicLink(tmp.resolve("alias"), dir);
    FileLocks.Held first = FileLocks.tryLock(dir.resolve("LOCK"));
    FileLocks.Busy busy = assertThrows(FileLocks.Busy.class, () -> FileLocks.tryLock(dir.resolve("LOCK")));
    assertEquals(FileLocks.Holder.THIS_PROCESS, busy.holder);
    busy = assertThrows(FileLocks.Busy.class, () -> FileLocks.tryLock(alias.resolve("LOCK")));
    assertEquals(FileLocks.Holder.THIS_PROCESS, busy.holder, "the same file through a symbolic link");
    first.close();
    try (FileLocks.Held again = FileLocks.tryLock(alias.resolve("LOCK"))) {
      assertThrows(FileLocks.Busy.class, () -> FileLocks.tryLock(dir.resolve("LOCK")));
    }
    FileLocks.tryLock(dir.resolve("LOCK")).close();
  }
}
