package io.p2kv;

/**
 * A named way of folding an operand into a stored value, declared once per open with {@link
 * P2kv.Builder#mergeOperator(String, MergeOperator)} and applied by {@link P2kv#merge}: the Java
 * counterpart of a RocksDB merge operator, which rocksdbjni cannot take from Java.
 *
 * <p>It runs on the key's shard worker, like an {@link P2kv#update update} function, with the same
 * rules: it must be short, must not call the store, must not keep the arrays it is given or
 * returns, and should be a pure function of its arguments (if the engine write fails its result is
 * discarded). It is called exactly once per merge that reaches the worker. What it throws fails
 * only that merge, with {@link UpdateFunctionException}.
 *
 * <pre>{@code
 * P2kv store = P2kv.builder()
 *     .mergeOperator("append", (existing, operand) -> existing == null ? operand : concat(existing, operand))
 *     .open(dir);
 * store.merge(key, "event;".getBytes(UTF_8), "append");
 * }</pre>
 */
@FunctionalInterface
public interface MergeOperator {
  /**
   * Folds an operand into the current value.
   *
   * @param existing the key's current value, or null if the key is absent; the operator's own copy,
   *     which it may modify and return
   * @param operand the operand given to {@link P2kv#merge}
   * @return the new value, or null to delete the key (an absent key stays absent)
   */
  byte[] merge(byte[] existing, byte[] operand);
}
