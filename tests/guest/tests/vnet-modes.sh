#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The sample driver's instances switched between on, on + deferral and threaded every
# second under iperf3 traffic in both directions; the traffic must survive, each mode
# must have done work (polls, deferrals, kthread polls), and a checksummed transfer
# must pass afterwards.
. /irqp/lib.sh
net_use virtio_net_irq_poll || exit 1
vdev=$(virtio_net_dev)
rx=/sys/kernel/irq_poll/instances/vnet-$vdev-rx0
rc=0
d0=$(cat $rx/deferrals)
iperf3 -c 10.0.2.2 -p "$IPERF_PORT" -t 24 --bidir -f m >/tmp/ip.$$ 2>&1 &
pid=$!
n=0
for round in 1 2 3 4 5 6 7 8; do
	for mode in on defer threaded; do
		sleep 1
		vnet_mode $mode || { echo "FAIL: switch to $mode"; rc=1; }
		n=$((n + 1))
	done
	[ "$(cat $rx/mode)" = threaded ] || { echo "FAIL: threaded not set"; rc=1; }
	# kthread comm is "irq_poll/<name>", cut to 15 characters
	ps | grep -q "[i]rq_poll/vnet" || { echo "FAIL: no kthread in threaded mode"; rc=1; }
done
wait $pid || { cat /tmp/ip.$$; rc=1; }
grep -E 'receiver$' /tmp/ip.$$ | tail -2 | sed 's/^/iperf3: /'
rm -f /tmp/ip.$$
vnet_mode on || rc=1
d1=$(cat $rx/deferrals)
echo "$n mode switches under traffic; rx0 deferrals: $((d1 - d0))"
[ "$d1" -gt "$d0" ] || { echo "FAIL: no deferral in defer mode"; rc=1; }
net_put 16 || rc=1
net_get 16 || rc=1
net_use virtio_net || rc=1
exit $rc
