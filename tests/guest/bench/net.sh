#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# virtio-net benchmark: iperf3 TCP for BENCH_SECONDS, guest-send and guest-receive,
# against the host's iperf3 on its loopback (10.0.2.2 through QEMU user networking).
. /irqp/lib.sh
[ -n "$NET_IF" ] || net_up || exit 1
addr=$(pci_addr_of "/sys/class/net/$NET_IF/device")
irqs=$(pci_irqs "$addr")
echo "virtio-net: $NET_IF at $addr, irqs $irqs"
rc=0
for mode in ${NET_MODES:-virtio_net}; do
	for dir in send receive; do
		flag=
		[ $dir = receive ] && flag=-R
		measure "net-$mode-$dir" "$irqs" "kind=net dev=virtio-net mode=$mode job=$dir" \
			iperf3 -c 10.0.2.2 -p "$IPERF_PORT" -t "$BENCH_SECONDS" -O 1 $flag -J || rc=1
	done
done
exit $rc
