#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# iperf3 TCP both ways between the guest (virtio_net) and the host's iperf3 server on
# its loopback, reached through QEMU user networking as 10.0.2.2.
. /irqp/lib.sh
[ -n "$NET_IF" ] || net_use virtio_net || exit 1
[ -n "$IPERF_PORT" ] || { echo "no irqp.port on the command line"; exit 1; }
ping -c 2 -W 5 10.0.2.2 >/dev/null 2>&1 && echo "ping 10.0.2.2: ok"
rc=0
for dir in send receive; do
	flag=
	[ $dir = receive ] && flag=-R
	if iperf3 -c 10.0.2.2 -p "$IPERF_PORT" -t 3 $flag -f m >/tmp/ip.$$ 2>&1; then
		rate=$(awk '/receiver$/ { print $(NF-2) }' /tmp/ip.$$)
		echo "guest-$dir: $rate Mbit/s"
		[ -n "$rate" ] || rc=1
	else
		cat /tmp/ip.$$
		rc=1
	fi
done
rm -f /tmp/ip.$$
exit $rc
