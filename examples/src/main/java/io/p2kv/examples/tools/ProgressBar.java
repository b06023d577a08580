package io.p2kv.examples.tools;

import java.io.PrintStream;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Thread-safe: a one-line progress display on a terminal: a bar, the count, the rate and the time
 * left, redrawn in place ten times a second by a daemon thread. Off a terminal (a log, a test) it
 * prints only the final line, so logs stay short.
 */
final class ProgressBar implements AutoCloseable {
  private static final int WIDTH = 24;
  private static final long REDRAW_MILLIS = 100;

  private final PrintStream out;
  private final boolean live;
  private final String label;
  private final long total;
  private final boolean timed;
  private final LongSupplier done;
  private final long startNanos = System.nanoTime();
  private final Thread ticker;
  private int lastLength;
  private boolean closed;

  /**
   * A bar that fills as {@code done} approaches {@code total} operations.
   *
   * @param out where to draw
   * @param live whether {@code out} is a terminal
   * @param label what is running
   * @param total operations expected
   * @param done operations done so far
   * @return the running bar; close it when done
   */
  static ProgressBar count(PrintStream out, boolean live, String label, long total, LongSupplier done) {
    return new ProgressBar(out, live, label, total, false, done);
  }

  /**
   * A bar that fills over a fixed time, showing the rate of {@code done}.
   *
   * @param out where to draw
   * @param live whether {@code out} is a terminal
   * @param label what is running
   * @param millis how long the phase lasts
   * @param done operations done so far
   * @return the running bar; close it when done
   */
  static ProgressBar timed(PrintStream out, boolean live, String label, long millis, LongSupplier done) {
    return new ProgressBar(out, live, label, millis, true, done);
  }

  private ProgressBar(PrintStream out, boolean live, String label, long total, boolean timed, LongSupplier done) {
    this.out = out;
    this.live = live;
    this.label = label;
    this.total = Math.max(1, total);
    this.timed = timed;
    this.done = done;
    if (live) {
      ticker = new Thread(this::tick, "p2kv-progress");
      ticker.setDaemon(true);
      ticker.start();
    } else {
      ticker = null;
    }
  }

  private void tick() {
    try {
      while (!Thread.currentThread().isInterrupted()) {
        draw(false);
        TimeUnit.MILLISECONDS.sleep(REDRAW_MILLIS);
      }
    } catch (InterruptedException e) {
      // closed
    }
  }

  private synchronized void draw(boolean last) {
    if (closed) {
      return;
    }
    long elapsedNanos = Math.max(1, System.nanoTime() - startNanos);
    long ops = done.getAsLong();
    double rate = ops * 1e9 / elapsedNanos;
    long position = timed ? TimeUnit.NANOSECONDS.toMillis(elapsedNanos) : ops;
    double fraction = last ? 1 : Math.min(1, (double) position / total);
    int filled = (int) Math.round(fraction * WIDTH);
    String line;
    if (timed) {
      line = String.format(Locale.ROOT, "%-30s [%s%s] %5.1f s  %,12.0f ops/s",
          label, "#".repeat(filled), "-".repeat(WIDTH - filled), elapsedNanos / 1e9, rate);
    } else {
      String eta = last ? String.format(Locale.ROOT, "took %.1f s", elapsedNanos / 1e9)
          : rate <= 0 ? "ETA -" : String.format(Locale.ROOT, "ETA %.0f s", Math.max(0, total - ops) / rate);
      line = String.format(Locale.ROOT, "%-30s [%s%s] %3.0f%%  %,d/%,d  %,.0f ops/s  %s",
          label, "#".repeat(filled), "-".repeat(WIDTH - filled), fraction * 100, ops, total, rate, eta);
    }
    if (live) {
      // Pad over the previous, possibly longer, line.
      out.print("\r" + line + " ".repeat(Math.max(0, lastLength - line.length())));
      lastLength = line.length();
    } else {
      out.print(line);
    }
    if (last) {
      out.println();
    }
    out.flush();
  }

  @Override
  public void close() {
    if (ticker != null) {
      ticker.interrupt();
      try {
        ticker.join();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    draw(true);
    synchronized (this) {
      closed = true;
    }
  }
}
