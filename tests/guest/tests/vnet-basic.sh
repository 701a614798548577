#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The sample irq_poll virtio-net driver (samples/irq_poll): hand the NIC over from
# virtio_net, then link, address and ping; 64 MiB each way with sha256 compared end to
# end; iperf3 TCP both ways; the instances and the driver's ethtool counters must show
# that polling did the work, and that every sent skb was freed by a poll or by
# ndo_start_xmit().  The NIC goes back to virtio_net at the end.
. /irqp/lib.sh
[ -n "$NETCHECK_PORT" ] && [ -n "$IPERF_PORT" ] || { echo "no irqp.port/nport"; exit 1; }
net_use virtio_net_irq_poll || exit 1
rc=0
echo "sample driver: $NET_IF, $(ethtool -i "$NET_IF" | grep '^driver')"
[ "$(cat /sys/class/net/$NET_IF/carrier)" = 1 ] || { echo "FAIL: no carrier"; rc=1; }
echo "link: carrier $(cat /sys/class/net/$NET_IF/carrier), operstate $(cat /sys/class/net/$NET_IF/operstate)"
ping -c 3 -W 5 10.0.2.2 >/dev/null || { echo "FAIL: ping"; rc=1; }
net_put 64 || rc=1
net_get 64 || rc=1
for flag in "" -R; do
	iperf3 -c 10.0.2.2 -p "$IPERF_PORT" -t 3 $flag -f m >/tmp/ip.$$ 2>&1 || { cat /tmp/ip.$$; rc=1; }
	echo "iperf3 ${flag:-send}: $(awk '/receiver$/ { print $(NF-2) " Mbit/s" }' /tmp/ip.$$)"
done
rm -f /tmp/ip.$$
vdev=$(virtio_net_dev)
for q in rx0 tx0; do
	i=/sys/kernel/irq_poll/instances/vnet-$vdev-$q
	p=$(cat "$i/polls" 2>/dev/null)
	echo "$q: $(cat "$i/scheduled") scheduled, $p polls, $(cat "$i/reaped") reaped"
	[ "${p:-0}" -gt 0 ] || { echo "FAIL: $q never polled"; rc=1; }
done
ethtool -S "$NET_IF" >/tmp/es.$$ || rc=1
grep -E 'rx0_(packets|polls|irqs|pkts_per_poll)|tx0_(packets|polls|irqs)' /tmp/es.$$ | tr -s ' ' | tr '\n' ' '
echo
# at least the 64 MiB fetched went through the driver's receive path
by=$(awk '$1 == "rx0_bytes:" { print $2 }' /tmp/es.$$)
[ "${by:-0}" -gt 67108864 ] || { echo "FAIL: rx0_bytes ${by:-?} after 64 MiB received"; rc=1; }
# every sent skb was freed by a transmit poll or by ndo_start_xmit(), which did
# free some during the 64 MiB send (a few packets may leave between the two reads)
pk=$(awk '$1 == "tx0_packets:" { print $2 }' /tmp/es.$$)
xf=$(awk '$1 == "tx0_xmit_freed:" { print $2 }' /tmp/es.$$)
polled=$(cat "/sys/kernel/irq_poll/instances/vnet-$vdev-tx0/reaped")
echo "tx0: $pk packets freed, $xf by ndo_start_xmit, $polled by polls"
[ "${xf:-0}" -gt 0 ] || { echo "FAIL: ndo_start_xmit freed nothing"; rc=1; }
d=$((${pk:-0} - ${xf:-0} - ${polled:-0}))
[ $d -ge -16 ] && [ $d -le 16 ] ||
	{ echo "FAIL: tx0_packets - tx0_xmit_freed - reaped = $d"; rc=1; }
rm -f /tmp/es.$$
net_use virtio_net || rc=1
exit $rc
