#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# virtio-net benchmark, all drivers and modes in one boot: iperf3 TCP guest-send and
# guest-receive, and optionally a UDP run of 64-byte datagrams at a fixed rate towards
# the guest, against the harness's iperf3 server at 10.0.2.2.  Throughput is the
# interface's byte count over the measured window (window_job in /irqp/lib.sh).
# Rows (NET_MODES, default "virtio_net sample-on sample-auto virtio_net2"): virtio_net
# (NAPI, GRO off: the baseline), virtio_net2 (the same again: the A/A control),
# virtio_net-gro (GRO on, for reference), virtio_net-defer (GRO off, NAPI's own
# deferral with the settings of "defer": napi_defer_hard_irqs and gro_flush_timeout),
# and the sample irq_poll driver in modes on, auto, defer, defer-N-US (defer_hard_irqs=N,
# flush_timeout_ns=US µs) and threaded.
# NET_JOBS picks jobs (send receive udp64).  BENCH_ROUNDS repeats the whole set, every
# other round in reverse order; the report pairs each row with the nearest baseline
# run (virtio_net or virtio_net2) of its round by "seq".
. /irqp/lib.sh
UDP_RATE=${UDP_RATE:-20M}
MODES=${NET_MODES:-virtio_net sample-on sample-auto virtio_net2}
rc=0

# net_bench MODE ROUND SEQ: hand the NIC to MODE's driver, then run the jobs.
net_bench()
{
	local mode=$1 round=$2 seq=$3 gro defer=0 flush=0 addr irqs job flag dir insts=
	case $mode in
	virtio_net | virtio_net2 | virtio_net-gro | virtio_net-defer) net_use virtio_net || return 1
		gro=off
		[ $mode = virtio_net-gro ] && gro=on
		[ $mode = virtio_net-defer ] && defer=$DEFER_IRQS flush=$DEFER_NS
		ethtool -K "$NET_IF" gro $gro &&
			echo $defer >"/sys/class/net/$NET_IF/napi_defer_hard_irqs" &&
			echo $flush >"/sys/class/net/$NET_IF/gro_flush_timeout" || return 1 ;;
	sample-*) net_use virtio_net_irq_poll && vnet_mode "${mode#sample-}" || return 1
		insts=$(poll_instances vnet) ;;
	*) echo "unknown mode $mode"; return 1 ;;
	esac
	# MSI-X vectors are allocated anew by each driver: read them after the hand-over.
	addr=$(pci_addr_of "/sys/class/net/$NET_IF/device")
	irqs=$(pci_irqs "$addr")
	echo "round $round, $mode: $NET_IF at $addr, irqs $irqs"
	# the offloads in effect: a send path without them costs several times the CPU
	echo "round $round, $mode: offloads:" $(ethtool -k "$NET_IF" 2>/dev/null |
		grep -E '^(scatter-gather|tx-checksumming|tcp-segmentation-offload|generic-segmentation-offload|generic-receive-offload):' |
		tr -d ' ' | tr '\n' ' ')
	for job in ${NET_JOBS:-send receive}; do
		dir=rx
		case $job in
		send) flag= dir=tx ;;
		receive) flag=-R ;;
		udp64) flag="-R -u -l 64 -b $UDP_RATE"; job=udp64-receive ;;
		*) echo "unknown job $job"; return 1 ;;
		esac
		log "bench: net round $round/${BENCH_ROUNDS:-1} $mode $job"
		window_job "net-$mode-$job-r$round" \
			"kind=net dev=virtio-net regime=tap job=$job mode=$mode round=$round seq=$seq" \
			"net $NET_IF $dir" "$irqs" "$insts" \
			iperf3 -c 10.0.2.2 -p "$IPERF_PORT" -t $((BENCH_SECONDS + BENCH_RAMP_MS / 1000 + 2)) $flag -J ||
			return 1
	done
}

round=1
while [ $round -le "${BENCH_ROUNDS:-1}" ]; do
	order=$MODES
	[ $((round % 2)) = 0 ] && order=$(printf '%s\n' $MODES | sed -n '1!G;h;$p')
	seq=0
	for mode in $order; do
		seq=$((seq + 1))
		net_bench "$mode" $round $seq || rc=1
	done
	round=$((round + 1))
done
net_use virtio_net >/dev/null || rc=1
exit $rc
