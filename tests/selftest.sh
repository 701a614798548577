#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Harness self-test: breaking something must fail loudly.  Three short boots of the
# debug kernel, each broken on purpose, and the verdicts the harness must reach:
#
#   selftest.missing-disk   mptsas HBA without its disk: fio-mptsas fails, saying so
#   selftest.splat          a guest backtrace (sysrq-l): the console scan fails with it
#   selftest.no-userspace   rdinit=/nonexistent: the kernel never runs init, and the
#                           scan rejects the log as "never reached user space"
#   selftest.timeout        a 3 s limit: qemu-run.sh stops QEMU and exits 2
#
# Usage: tests/selftest.sh     prints "ok NAME" / "not ok NAME" lines
set -u
. "$(dirname "$0")/lib.sh"

base=$BUILD_DIR/runs/selftest-$(date +%Y%m%d-%H%M%S)
qrun()
{
	local name=$1
	shift
	RUN_DIR=$base/$name "$IRQP_TOP/tests/qemu-run.sh" "$@" >"$base.$name.out" 2>&1
}
mkdir -p "$base"

NO_MPTSAS_DISK=1 KERNEL_CMDLINE_EXTRA="irqp.diskwait=5" qrun broken -t 600 -T fio-mptsas,selftest-splat debug
rc=$?
if [ $rc = 0 ] && grep -q '^not ok 1 fio-mptsas' "$base/broken/ktap.log" &&
   grep -q 'no disk behind driver mptsas' "$base/broken/ktap.log"; then
	echo "ok selftest.missing-disk"
else
	echo "# qemu-run rc=$rc; $base/broken/ktap.log"
	echo "not ok selftest.missing-disk"
fi
out=$(python3 "$IRQP_TOP/tests/scan-log.py" "$base/broken/console.log")
if [ $? = 1 ] && printf '%s\n' "$out" | grep -q ': call trace$'; then
	echo "ok selftest.splat"
else
	printf '%s\n' "$out" | head -n 5 | sed 's/^/# /'
	echo "not ok selftest.splat"
fi

KERNEL_CMDLINE_EXTRA="rdinit=/nonexistent" qrun noinit -t 300 -T boot debug
python3 "$IRQP_TOP/tests/scan-log.py" "$base/noinit/console.log" >/dev/null
if [ $? = 2 ]; then
	echo "ok selftest.no-userspace"
else
	echo "not ok selftest.no-userspace"
fi

qrun timeout -t 3 -T boot debug
rc=$?
if [ $rc = 2 ] && grep -q 'did not finish within 3s' "$base.timeout.out"; then
	echo "ok selftest.timeout"
else
	echo "# qemu-run rc=$rc"
	echo "not ok selftest.timeout"
fi
