#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Unbind and rebind DRIVER's controller with polling on: first with I/O stopped, then
# under I/O.  I/O cut off by the unbind may fail; nothing may hang, and the disk
# must work after the rebind.
. /irqp/lib.sh
drv=$1
dev=$(find_disk "$drv") || exit 1
addr=$(pci_addr_of "/sys/block/${dev#/dev/}/device")
rebind()
{
	echo "$addr" >/sys/bus/pci/drivers/$drv/bind || return 1
	dev=$(find_disk "$drv" 30) || return 1
	set_mode "$drv" on
}
set_mode "$drv" on || exit 1
rc=0
echo "$addr" >/sys/bus/pci/drivers/$drv/unbind || exit 1
[ -z "$(poll_instances "$drv")" ] || { echo "FAIL: instance left after unbind"; rc=1; }
rebind || exit 1
fio_verify "$dev" 8m || rc=1
echo "idle unbind/rebind: ok"

fio --name=busy --filename="$dev" --direct=1 --ioengine=libaio --iodepth=16 \
	--rw=randread --bs=4k --size=64m --time_based --runtime=20 \
	--output-format=terse >/dev/null 2>&1 &
pid=$!
sleep 3
echo "$addr" >/sys/bus/pci/drivers/$drv/unbind || rc=1
t=60
while kill -0 $pid 2>/dev/null && [ $t -gt 0 ]; do sleep 1; t=$((t - 1)); done
kill -0 $pid 2>/dev/null && { echo "FAIL: fio hangs after unbind"; kill -9 $pid; rc=1; }
wait $pid
echo "fio after unbind under I/O: rc=$? (errors expected)"
rebind || exit 1
fio_verify "$dev" 8m || rc=1
set_mode "$drv" off
exit $rc
