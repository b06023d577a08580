package io.p2kv.systemtest;

import java.io.IOException;

/** Runs operating-system commands the fault tests need (mount, chattr). */
final class Commands {
  private Commands() {}

  /**
   * Runs a command to its end, discarding its output.
   *
   * @param cmd the command and its arguments
   * @return whether it ran and exited with 0
   */
  static boolean run(String... cmd) throws InterruptedException {
    try {
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor() == 0;
    } catch (IOException e) {
      return false;
    }
  }
}
