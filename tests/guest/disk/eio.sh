#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# QEMU blkdebug fails every read of sector 1000000 of each disk with EIO (set up by
# tests/qemu-run.sh).  With polling on, a read there must fail with an I/O error
# (after the midlayer's or libata EH's retries), and the disk must keep working.
. /irqp/lib.sh
drv=$1
dev=$(find_disk "$drv") || exit 1
set_mode "$drv" on || exit 1
rc=0
out=$(fio --name=bad --filename="$dev" --direct=1 --ioengine=psync --rw=read --bs=4k \
	--offset=512000000 --size=4k 2>&1)
if [ $? = 0 ]; then
	echo "FAIL: read of the bad sector succeeded"
	rc=1
else
	printf '%s\n' "$out" | grep -q 'Input/output error' ||
		{ echo "FAIL: no EIO reported"; printf '%s\n' "$out"; rc=1; }
	echo "bad sector: EIO as expected"
fi
fio_verify "$dev" 8m || rc=1
set_mode "$drv" off
exit $rc
