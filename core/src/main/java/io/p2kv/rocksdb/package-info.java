/** The RocksDB tuning hook: the only public package that names RocksDB types. */
package io.p2kv.rocksdb;
