#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The guest booted the kernel we built, with the three devices under test bound.
. /irqp/lib.sh
rc=0
uname -r
case "$(uname -r)" in *-irqpoll*) ;; *) echo "not our kernel"; rc=1 ;; esac
for drv in ahci mptsas virtio-pci; do
	n=$(ls /sys/bus/pci/drivers/$drv 2>/dev/null | grep -c ':')
	echo "driver $drv: $n device(s)"
	[ "$n" -ge 1 ] || rc=1
done
[ "$(nproc)" -ge 2 ] || { echo "expected 2 CPUs, have $(nproc)"; rc=1; }
exit $rc
