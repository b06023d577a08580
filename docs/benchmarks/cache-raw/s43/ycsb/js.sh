java -Xms1g -Xmx1g -cp 'ycsb-binding/target/p2kv-ycsb-binding.jar:ycsb-binding/target/lib/*' site.ycsb.Client -t -db io.p2kv.ycsb.P2kvYcsbClient -P ycsb-binding/workloads/p2kvs-c -threads 32 -p operationcount=5000000 -p p2kv.dir=/tmp/s43/ycsb/P2kvYcsbClient -p p2kv.shards=1 -p p2kv.readpath=direct -p p2kv.maxbatch=32 -p p2kv.sync=false -p p2kv.memorybudgetmb=512 -p p2kv.cachemb=128 > /tmp/s43/ycsb/jstack-run.txt 2>&1 &
P=$!
sleep 9
for i in 1 2 3 4 5 6; do jstack $P > /tmp/s43/ycsb/jstack-$i.txt; sleep 1; done
wait
