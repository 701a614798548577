#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Take CPU 1 offline and back online repeatedly while fio writes and verifies on
# DRIVER's disk with polling on: instances pending on the dying CPU must move.
. /irqp/lib.sh
drv=$1
dev=$(find_disk "$drv") || exit 1
cpu=/sys/devices/system/cpu/cpu1/online
[ -w $cpu ] || { echo "cpu1 cannot go offline"; exit 1; }
set_mode "$drv" on || exit 1
fio_verify "$dev" 64m >/tmp/hp.$$ 2>&1 &
pid=$!
n=0
while kill -0 $pid 2>/dev/null; do
	echo 0 >$cpu && sleep 0.3 && echo 1 >$cpu || { echo "FAIL: hotplug write"; break; }
	sleep 0.3
	n=$((n + 1))
done
wait $pid
rc=$?
echo 1 >$cpu 2>/dev/null
cat /tmp/hp.$$
echo "$drv: $n offline/online cycles under fio"
set_mode "$drv" off
[ $n -ge 2 ] || { echo "FAIL: fio ended before 2 cycles"; rc=1; }
exit $rc
