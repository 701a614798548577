#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fio crc32c write-then-verify on DRIVER's disk in each interrupt mode, checking
# through the instance counters that "off" never polls, "on" does, and "defer"
# defers.
. /irqp/lib.sh
drv=$1
dev=$(find_disk "$drv") || exit 1
rc=0
for mode in off on defer; do
	set_mode "$drv" "$mode" || { rc=1; continue; }
	p0=$(poll_stat "$drv" polls)
	d0=$(poll_stat "$drv" deferrals)
	fio_verify "$dev" 16m || rc=1
	p1=$(poll_stat "$drv" polls)
	d1=$(poll_stat "$drv" deferrals)
	echo "$drv $mode: $((p1 - p0)) polls, $((d1 - d0)) deferrals"
	case $mode in
	off) [ "$p1" -eq "$p0" ] || { echo "FAIL: polls in off mode"; rc=1; } ;;
	on) [ "$p1" -gt "$p0" ] || { echo "FAIL: no polls in on mode"; rc=1; } ;;
	defer) [ "$d1" -gt "$d0" ] || { echo "FAIL: no deferral in defer mode"; rc=1; } ;;
	esac
done
set_mode "$drv" off
exit $rc
