#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# IOC resets under I/O with polling on: a hard (diag) reset through /dev/mptctl and a
# SCSI host reset through SG_SCSI_RESET.  fio's crc32c verify must still pass: no
# completion lost or duplicated across the reset.
. /irqp/lib.sh
dev=$(find_disk mptsas) || exit 1
set_mode mptsas on || exit 1
fio_verify "$dev" 64m >/tmp/rs.$$ 2>&1 &
pid=$!
rc=0
sleep 2
# The IOC number grows with every attach (mptsas-unbind rebinds): take it from the
# instance name, mpt-ioc<N>.
ioc=$(poll_instances mptsas | head -n 1)
ioc=${ioc##*/mpt-ioc}
mpt-reset ioc "$ioc" || { echo "FAIL: hard reset of ioc$ioc"; rc=1; }
sleep 2
mpt-reset host "$dev" || { echo "FAIL: host reset"; rc=1; }
wait $pid || rc=1
cat /tmp/rs.$$
p=$(poll_stat mptsas polls)
echo "polls so far: $p"
fio_verify "$dev" 8m || rc=1
set_mode mptsas off
exit $rc
