#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# virtio-net benchmark, all drivers and modes in one boot: iperf3 TCP for
# BENCH_SECONDS guest-send and guest-receive, and a UDP run of 64-byte datagrams at a
# fixed rate towards the guest, against the harness's iperf3 server at 10.0.2.2.
# Rows (NET_MODES): virtio_net (NAPI, GRO off: the baseline), virtio_net-gro (GRO on,
# for reference), and the sample irq_poll driver in modes on, defer and threaded.
. /irqp/lib.sh
UDP_RATE=${UDP_RATE:-20M}
rc=0
for mode in ${NET_MODES:-virtio_net virtio_net-gro sample-on sample-defer sample-threaded}; do
	case $mode in
	virtio_net | virtio_net-gro) net_use virtio_net || { rc=1; continue; }
		gro=off
		[ $mode = virtio_net-gro ] && gro=on
		ethtool -K "$NET_IF" gro $gro || { rc=1; continue; } ;;
	sample-*) net_use virtio_net_irq_poll && vnet_mode "${mode#sample-}" ||
		{ rc=1; continue; } ;;
	*) echo "unknown mode $mode"; rc=1; continue ;;
	esac
	# MSI-X vectors are allocated anew by each driver: read them after the hand-over.
	addr=$(pci_addr_of "/sys/class/net/$NET_IF/device")
	irqs=$(pci_irqs "$addr")
	echo "$mode: $NET_IF at $addr, irqs $irqs"
	for dir in send receive; do
		flag=
		[ $dir = receive ] && flag=-R
		measure "net-$mode-$dir" "$irqs" "kind=net dev=virtio-net mode=$mode job=$dir" \
			iperf3 -c 10.0.2.2 -p "$IPERF_PORT" -t "$BENCH_SECONDS" -O 1 $flag -J || rc=1
	done
	measure "net-$mode-udp64" "$irqs" "kind=net dev=virtio-net mode=$mode job=udp64-receive" \
		iperf3 -c 10.0.2.2 -p "$IPERF_PORT" -t "$BENCH_SECONDS" -O 1 -R -u -l 64 \
		-b "$UDP_RATE" -J || rc=1
done
net_use virtio_net >/dev/null || rc=1
exit $rc
