#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Unit test of the guest's interrupt storm watch (spur_watch/spur_step/spur_stop in
# tests/guest/lib.sh), under busybox sh as in the guest, on a fake /proc/irq: a
# sequence of /proc/irq/N/spurious samples with the kernel's counter resets, and the
# line's total from a fake /proc/interrupts count.
#
# Usage: busybox sh tests/unit/spurious.sh    prints "ok NAME" / "not ok NAME" lines
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../guest/lib.sh"
tmp=${TMPDIR:-/tmp}/irqp-spur.$$
mkdir -p "$tmp/proc/64999"
trap 'rm -rf "$tmp"' EXIT
SPUR_PROC=$tmp/proc
SPUR_PERIOD=5	# the background sampler stays asleep: the test takes the samples
irq_count()
{
	cat "$tmp/total"
}
sample() # sample COUNT UNHANDLED: what the kernel shows now; the sampler reads it
{
	printf 'count %s\nunhandled %s\nlast_unhandled 0 ms\n' "$1" "$2" >"$SPUR_PROC/64999/spurious"
	spur_step 64999
}

# case NAME WANT(0 pass, 1 storm) TOTAL "COUNT UNHANDLED" ...: first sample at start.
case_()
{
	local name=$1 want=$2 total=$3 out rc
	shift 3
	echo 0 >"$tmp/total"
	sample $1 >/dev/null 2>&1
	spur_watch 64999 "unit $name" >/dev/null
	sleep 0.3
	shift
	for s in "$@"; do
		sample $s
	done
	echo "$total" >"$tmp/total"
	out=$(spur_stop)
	rc=$?
	if [ "$rc" = "$want" ]; then
		echo "ok spurious.$name"
	else
		printf '%s\n' "$out" | sed 's/^/# /'
		echo "not ok spurious.$name"
	fi
}

# No unhandled interrupt, across a count reset at 100000.
case_ clean 0 100000 "500 0" "90000 0" "20 0" "480 0"
# A storm: unhandled grows, the count resets (unhandled with it), then the
# unhandled counter restarts at 1 after a quiet 100 ms: 797 + 400 + 2 of 2000.
case_ storm-resets 1 2000 "99000 3" "99990 800" "500 400" "900 2"
# 1% is allowed, more is not.
case_ one-percent 0 1000 "0 0" "600 10"
case_ over-one-percent 1 1000 "0 0" "600 11"
