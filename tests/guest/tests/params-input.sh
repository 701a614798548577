#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Bad input to the run-time knobs of the conversions and of their irq_poll instances
# must fail with EINVAL (tests/guest-tools/write-value.c reports errno) and leave the
# value as it was: the kernel.irq_poll* sysctls and the
# /sys/kernel/irq_poll/instances/<name>/ files of the real instances (the
# conversions have no module parameters of their own any more; the test checks that
# too).
. /irqp/lib.sh
rc=0
n=0
# reject FILE VALUE...: every VALUE must be refused and FILE keep its contents.
reject()
{
	local f=$1 v before after err
	shift
	[ -e "$f" ] || { echo "FAIL: $f missing"; rc=1; return; }
	before=$(cat "$f")
	for v in "$@"; do
		n=$((n + 1))
		err=$(write-value "$f" "$v")
		case "$err" in
		EINVAL) ;;
		ok) echo "FAIL: $f accepted '$v'"; rc=1 ;;
		*) echo "FAIL: $f <- '$v': $err, not EINVAL"; rc=1 ;;
		esac
		after=$(cat "$f")
		[ "$after" = "$before" ] || { echo "FAIL: $f changed to '$after' after '$v'"; rc=1; }
	done
}
for p in /sys/module/libahci/parameters/irq_poll* /sys/module/mptbase/parameters/*poll*; do
	[ -e "$p" ] && { echo "FAIL: $p: polling knobs live in sysfs now"; rc=1; }
done
reject /proc/sys/kernel/irq_poll 2 -1 abc
reject /proc/sys/kernel/irq_poll_budget 0 -5 abc
reject /proc/sys/kernel/irq_poll_budget_usecs 0 100001
for drv in ahci mptsas; do
	insts=$(poll_instances "$drv")
	[ -n "$insts" ] || { echo "FAIL: $drv has no irq_poll instance"; rc=1; continue; }
	for i in $insts; do
		reject "$i/weight" 0 -3 many 1025 0x10 99999999999
		reject "$i/defer_hard_irqs" -1 x 101 0x2
		reject "$i/flush_timeout_ns" -1 1 9999 100000001 abc 0x2710
		reject "$i/mode" on 1 threadedx
	done
done
echo "$n bad values refused"
exit $rc
