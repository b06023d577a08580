package io.p2kv.bench.report;

/**
 * The part of a hand-written document that a report tool regenerates: the text between a begin
 * and an end marker, replaced on every run while the prose around it stays.
 */
final class GeneratedSection {
  private GeneratedSection() {}

  /**
   * {@code doc} with the text between {@code begin} and {@code end} replaced by {@code generated}.
   *
   * @param doc the document
   * @param begin the begin marker (kept)
   * @param end the end marker (kept)
   * @param generated the new text between them
   * @param what the document's name, for the error
   * @return the new document
   * @throws IllegalArgumentException if the markers are missing or out of order
   */
  static String replace(String doc, String begin, String end, String generated, String what) {
    int b = doc.indexOf(begin);
    int e = doc.indexOf(end);
    if (b < 0 || e < b) {
      throw new IllegalArgumentException(what + " lacks the markers " + begin + " ... " + end);
    }
    return doc.substring(0, b + begin.length()) + "\n" + generated + doc.substring(e);
  }
}
