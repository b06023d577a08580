/**
 * Small runnable programs that show the p2kv API, each under a hundred lines: {@code Quickstart}
 * (open, put, get, delete, close), {@code AsyncPipeline} (many requests in flight), {@code Tuning}
 * (the options that matter and the RocksDB hook), {@code OrderedScan} (scan, range, iterators) and
 * {@code AtomicTransfer} (atomic batches across shards), {@code LargeValues} (value separation) and
 * {@code Updates} (counters, record updates and merges without locks). Run one with {@code ./p2kv
 * example NAME}.
 */
package io.p2kv.examples;
