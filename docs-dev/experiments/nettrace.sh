#!/bin/sh
# experiment: the sample's rx/tx instances in auto under iperf3, counters every 250 ms
. /irqp/lib.sh
net_use virtio_net_irq_poll && vnet_mode auto || exit 1
for job in "-R" ""; do
	echo "nettrace: job '$job'"
	iperf3 -c 10.0.2.2 -p "$IPERF_PORT" -t 8 $job >/tmp/ip.out 2>&1 &
	p=$!
	t=0
	while [ $t -lt 34 ]; do
		line="t=$t"
		for i in $(poll_instances vnet); do
			line="$line ${i##*/}:$(cat $i/polls),$(cat $i/reaped),$(cat $i/deferrals),$(cat $i/scheduled)"
		done
		echo "nettrace: $line"
		sleep 0.25
		t=$((t + 1))
	done
	wait $p
	grep -E "sender|receiver" /tmp/ip.out
done
exit 0
