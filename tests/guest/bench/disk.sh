#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Disk benchmark for one controller (argument: ahci or mptsas): 4k random reads at
# QD32 (saturation), QD1 (latency) and at a moderate load (fio rate_iops at half the
# QD32 IOPS of the stock path), in each interrupt mode in turn, same boot.
. /irqp/lib.sh
drv=${1:-}
[ -n "$drv" ] || { echo "usage: disk.sh ahci|mptsas"; exit 2; }
dev=$(find_disk "$drv") || exit 1
addr=$(pci_addr_of "/sys/block/${dev#/dev/}/device")
irqs=$(pci_irqs "$addr")
echo "$drv: $dev at $addr, irqs $irqs"
# Fill the part of the disk the reads touch, so they hit written blocks.
fio --name=fill --filename="$dev" --direct=1 --ioengine=libaio --iodepth=16 --rw=write \
	--bs=1m --size=256m --output-format=terse >/dev/null || exit 1
rc=0
rate=
# measure() records the instances' counters around each job (reaped per poll, ...).
POLL_DRV=$drv
for mode in ${BENCH_MODES:-$(modes_of "$drv")}; do
	set_mode "$drv" "$mode" || { echo "cannot set mode $mode"; rc=1; continue; }
	for job in qd32 qd1 moderate; do
		case $job in
		moderate)
			# half the saturation rate of the stock path, same boot
			[ -n "$rate" ] || continue
			set -- --size=256m --rate_iops="$rate"
			qd=32 ;;
		*)
			set -- --size=256m
			qd=${job#qd} ;;
		esac
		measure "$drv-$mode-$job" "$irqs" "kind=disk dev=$drv mode=$mode job=$job" \
			fio_job "$dev" "$qd" "$@" || rc=1
		if [ "$mode" = off ] && [ "$job" = qd32 ]; then
			rate=$(grep -m1 '"iops"' "/results/$drv-off-qd32/out.json" | tr -dc '0-9.' |
				awk '{ printf "%d", $1 / 2 }')
			echo "$drv: moderate load at $rate IOPS"
		fi
	done
done
# How late the deferral timer fires: trace irq_poll_defer (timer armed) and
# irq_poll_timer (it fired) for a QD1 run in "defer" mode and keep the delays.
T=/sys/kernel/tracing
if [ -d $T/events/irq_poll ] && case " ${BENCH_MODES:-$(modes_of "$drv")} " in
	*" defer "*) true ;; *) false ;; esac; then
	set_mode "$drv" defer
	echo 0 >$T/tracing_on
	echo >$T/trace
	echo 1 >$T/events/irq_poll/irq_poll_defer/enable
	echo 1 >$T/events/irq_poll/irq_poll_timer/enable
	echo 1 >$T/tracing_on
	fio_job "$dev" 1 --size=256m --runtime=3 >/dev/null
	echo 0 >$T/tracing_on
	echo 0 >$T/events/irq_poll/enable
	d=/results/$drv-timer
	mkdir -p $d
	printf 'kind=timer\ndev=%s\nrequested_ns=%s\n' "$drv" "$DEFER_NS" >$d/meta
	# "... 123.456789: irq_poll_defer: id=3 ..." -> delays in us, defer to timer
	awk '{
		for (i = 1; i < NF; i++)
			if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = substr($i, 1, length($i) - 1); ev = $(i + 1); break }
		for (j = i; j <= NF; j++)
			if ($j ~ /^id=/) id = $j
		if (ev == "irq_poll_defer:") armed[id] = ts
		else if (ev == "irq_poll_timer:" && (id in armed)) {
			printf "%.0f\n", (ts - armed[id]) * 1e6; delete armed[id]
		}
	}' $T/trace | sort -n >$d/delays_us
	echo "$drv: deferral timer, $(wc -l <$d/delays_us) samples"
	echo >$T/trace
fi
set_mode "$drv" off
exit $rc
