#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Debugging aid (not in make check): switch mptsas from polled to stock mode and back
# around short fio runs, dumping the IOC's interrupt registers (BAR1: IntStatus at
# 0x30, IntMask at 0x34), the instance counters and /proc/interrupts at each step.
. /irqp/lib.sh
dev=$(find_disk mptsas) || exit 1
addr=$(pci_addr_of "/sys/block/${dev#/dev/}/device")
bar1=$(sed -n 2p /sys/bus/pci/devices/$addr/resource | cut -d' ' -f1)
dump()
{
	echo "== $1: IntStatus=$(devmem $((bar1 + 0x30)) 32) IntMask=$(devmem $((bar1 + 0x34)) 32)" \
		"sysctl=$(cat /proc/sys/kernel/irq_poll) irqs=$(irq_count "$(pci_irqs "$addr")")"
	for f in scheduled polls reaped empty_polls rearm_races; do
		printf ' %s=%s' $f "$(poll_stat mptsas $f)"
	done
	echo
}
short()
{
	timeout 60 fio --name=d --filename="$dev" --direct=1 --ioengine=libaio --iodepth=4 \
		--rw=randread --bs=4k --size=16m --io_size=2m --output-format=terse >/dev/null 2>&1
	echo "fio rc=$?"
}
dump start
short; dump "after fio, polling on"
echo 0 >/proc/sys/kernel/irq_poll; dump "switched off"
short; dump "after fio, polling off"
echo 1 >/proc/sys/kernel/irq_poll; dump "switched on"
short; dump "after fio, polling on again"
exit 0
