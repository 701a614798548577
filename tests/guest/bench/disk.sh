#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Disk benchmark for one controller (argument: ahci or mptsas; the name of this script
# as bench-ahci.sh / bench-mptsas.sh picks it too): 4k random reads at QD32
# (saturation) and QD1 (latency), in each interrupt mode in turn, same boot.
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
for mode in ${BENCH_MODES:-off}; do
	set_mode "$drv" "$mode" || { echo "cannot set mode $mode"; rc=1; continue; }
	for job in qd32 qd1; do
		qd=${job#qd}
		measure "$drv-$mode-$job" "$irqs" "kind=disk dev=$drv mode=$mode job=$job" \
			fio_job "$dev" "$qd" --size=256m || rc=1
	done
done
set_mode "$drv" off
exit $rc
