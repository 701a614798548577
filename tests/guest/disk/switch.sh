#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Switch DRIVER's interrupt mode every second (off, on, defer, threaded) while fio
# writes and verifies 64 MiB: no lost or duplicated completion, no hang.
. /irqp/lib.sh
drv=$1
dev=$(find_disk "$drv") || exit 1
fio_verify "$dev" 64m >/tmp/sw.$$ 2>&1 &
pid=$!
n=0
rc=0
while kill -0 $pid 2>/dev/null; do
	case $((n % 4)) in
	0) set_mode "$drv" off ;;
	1) set_mode "$drv" on ;;
	2) set_mode "$drv" defer ;;
	3) set_mode "$drv" threaded ;;
	esac || { echo "FAIL: mode switch $n"; rc=1; }
	n=$((n + 1))
	sleep 1
done
wait $pid || rc=1
cat /tmp/sw.$$
echo "$drv: $n mode switches under fio"
set_mode "$drv" off
[ $n -ge 3 ] || { echo "FAIL: fio ended before 3 switches"; rc=1; }
exit $rc
