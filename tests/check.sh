#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make check: every test of the project, ending with "N passed, N failed".
#
# Usage: tests/check.sh
#
# Stages: host unit tests (KTAP parser, console scanner), the series (current, applies
# to pristine with git am), static checks, W=1 cross builds (i386, arm64, riscv64),
# semantic-patch tests, the debug kernel (lockdep and friends) and its initramfs, then
# its QEMU boots: the KUnit suites and the guest tests with kmemleak=off, the tests
# that scan for leaks (KMEMLEAK_TESTS) with kmemleak on; then a KASAN kernel
# boots for the KUnit suite and a fio verify per converted disk.  The guest console
# must be clean: any warning, oops, lockdep, KASAN or stall report fails, and so does a
# level-triggered interrupt storm (QEMU's IOAPIC trace).
# Exits non-zero on any failure, boot timeout or missing piece.
set -u
. "$(dirname "$0")/lib.sh"

PASS=0
FAIL=0
N=0
FAILED=

result() # result ok|fail NAME [why]
{
	N=$((N + 1))
	if [ "$1" = ok ]; then
		PASS=$((PASS + 1))
		echo "ok $N $2"
	else
		FAIL=$((FAIL + 1))
		FAILED="$FAILED $2"
		echo "not ok $N $2${3:+ # $3}"
	fi
}

# results_from FILE: fold "ok NAME"/"not ok NAME" lines (ktap.py output) into the totals.
results_from()
{
	local line name
	while IFS= read -r line; do
		case "$line" in
		"not ok "*) name=${line#not ok } ;;
		"ok "*) name=${line#ok } ;;
		*) continue ;;
		esac
		# drop the runner's own test number, if it printed one
		case "$name" in [0-9]*" "*) name=${name#* } ;; esac
		case "$line" in
		"not ok "*) result fail "$name" ;;
		*) result ok "$name" ;;
		esac
	done <"$1"
}

finish()
{
	[ -n "$FAILED" ] && echo "# failed:$FAILED"
	echo "$PASS passed, $FAIL failed"
	[ "$FAIL" = 0 ] && [ "$PASS" -gt 0 ]
	exit $?
}

STAGES=10
tmp=$(mktemp -d "${TMPDIR:-/tmp}/irqp-check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

stage 1 $STAGES "host unit tests (KTAP parser, console scanner, report, script syntax)"
"$IRQP_TOP/tests/unit/run.sh" >"$tmp/unit" 2>&1
results_from "$tmp/unit"

stage 2 $STAGES "patch series: current and applies to pristine linux-source-6.1"
if "$IRQP_TOP/tests/series.sh" check >"$tmp/series" 2>&1; then
	result ok series-current
else
	cat "$tmp/series"
	result fail series-current "patches/ is stale"
fi
if "$IRQP_TOP/tests/series.sh" apply >"$tmp/apply" 2>&1; then
	result ok series-applies
else
	cat "$tmp/apply"
	result fail series-applies
	finish
fi

stage 3 $STAGES "static checks: checkpatch --strict, kernel-doc, sparse + W=1, in-tree users"
"$IRQP_TOP/tests/kernel-checks.sh" >"$tmp/static" 2>&1
grep '^# ' "$tmp/static"
results_from "$tmp/static"

stage 4 $STAGES "cross builds: the series' objects with W=1 for i386, arm64, riscv64"
"$IRQP_TOP/tests/cross-checks.sh" >"$tmp/cross" 2>&1
grep '^# ' "$tmp/cross"
results_from "$tmp/cross"

stage 5 $STAGES "semantic patch tests"
if [ -x "$IRQP_TOP/semantic-patches/run-tests.sh" ]; then
	# -t: also "make coccicheck MODE=report" over the patched tree's drivers/ that use
	# the API, against semantic-patches/coccicheck-expected.txt.
	"$IRQP_TOP/semantic-patches/run-tests.sh" -t "$WORKTREE" >"$tmp/cocci" 2>&1
	sed -n 's/^\(not ok\|ok\) [0-9]* /\1 cocci./p' "$tmp/cocci" >"$tmp/cocci.res"
	results_from "$tmp/cocci.res"
	grep -q '^[0-9]* passed, 0 failed$' "$tmp/cocci" || { tail -n 30 "$tmp/cocci"; result fail cocci-runner; }
else
	result fail cocci-runner "semantic-patches/run-tests.sh missing"
fi

stage 6 $STAGES "debug kernel (lockdep, atomic sleep, debug objects, stall detectors)"
if "$IRQP_TOP/tests/build-kernel.sh" debug; then
	result ok build-debug-kernel
else
	result fail build-debug-kernel
	finish
fi

stage 7 $STAGES "initramfs"
if "$IRQP_TOP/tests/mkinitramfs.sh" debug; then
	result ok initramfs
else
	result fail initramfs
	finish
fi

stage 8 $STAGES "boot in QEMU (TCG) and run the guest tests"
GUEST_TESTS=${GUEST_TESTS:-boot,fio-ahci,fio-mptsas,net-iperf,ahci-modes,ahci-eio,ahci-switch,ahci-cpuhp,ahci-unbind,mptsas-modes,mptsas-eio,mptsas-switch,mptsas-cpuhp,mptsas-unbind,mptsas-reset,params-input,vnet-basic,vnet-modes,vnet-unbind}
# kmemleak records a stack trace for every allocation: with it, each PCI probe spent
# 7-11 s in ACPI's interrupt routing and the tests took about half again as long
# (README.md, make check's stage 8).  Only the tests that scan for leaks boot with it.
KMEMLEAK_TESTS=${KMEMLEAK_TESTS:-vnet-unbind}
main_tests='' leak_tests=''
for t in ${GUEST_TESTS//,/ }; do
	case ",$KMEMLEAK_TESTS," in
	*",$t,"*) leak_tests=${leak_tests:+$leak_tests,}$t ;;
	*) main_tests=${main_tests:+$main_tests,}$t ;;
	esac
done

# guest_boot TESTS PREFIX [CMDLINE]: boot the debug kernel with the guest tests TESTS
# and record their results and the boot's checks, named PREFIX...  The run directory
# is left in $RUN_DIR.  Returns 1 if the boot did not complete.
guest_boot()
{
	local tests=$1 p=$2 rc
	RUN_DIR=$BUILD_DIR/runs/check-$(date +%Y%m%d-%H%M%S)${p:+-${p%.}}
	export RUN_DIR
	# QEMU traces its IOAPIC: a level-triggered line still asserted after 10000 EOIs
	# in a row (an interrupt storm; mptsas is the only INTx device) is a failure.
	BLKDEBUG=1 QEMU_TRACE=ioapic_mem_write,ioapic_eoi_delayed_reassert \
		KERNEL_CMDLINE_EXTRA="${3:-} ${KERNEL_CMDLINE_EXTRA:-}" \
		"$IRQP_TOP/tests/qemu-run.sh" -t "${QEMU_TIMEOUT:-1200}" -T "$tests" debug
	rc=$?
	case $rc in
	0) result ok "${p}guest-boot" ;;
	2) result fail "${p}guest-boot" "timeout; console: $RUN_DIR/console.log"; return 1 ;;
	*) result fail "${p}guest-boot" "qemu failed; see $RUN_DIR"; return 1 ;;
	esac
	python3 "$IRQP_TOP/tests/ktap.py" --prefix guest. "$RUN_DIR/ktap.log" >"$tmp/guest"
	[ $? = 2 ] && result fail "${p}guest-ktap" "no KTAP from the guest: $RUN_DIR/ktap.log"
	results_from "$tmp/guest"
	# The guest's own diagnostics are worth seeing next to their verdicts.
	grep -E '^# ' "$RUN_DIR/ktap.log" | sed 's/^/  /'
	python3 "$IRQP_TOP/tests/ioapic-storm.py" "$RUN_DIR/qemu-trace.log" "$RUN_DIR/console.log" \
		>"$tmp/storm"
	rc=$?
	sed 's/^/  /' "$tmp/storm"
	if [ $rc = 2 ]; then
		result fail "${p}qemu-trace-live" "$RUN_DIR/qemu-trace.log"
	else
		result ok "${p}qemu-trace-live"
		if [ $rc = 0 ]; then
			result ok "${p}ioapic-no-storm"
		else
			result fail "${p}ioapic-no-storm" \
				"level-triggered interrupt storm; $RUN_DIR/qemu-trace.log"
		fi
	fi
	if python3 "$IRQP_TOP/tests/scan-log.py" "$RUN_DIR/console.log" >"$tmp/scan"; then
		result ok "${p}guest-console-clean"
	else
		cat "$tmp/scan"
		result fail "${p}guest-console-clean" "$RUN_DIR/console.log"
	fi
	echo "# run directory: $RUN_DIR"
}

# kunit_results: the KUnit suite runs built in at every boot; its results are taken
# from the first one ($RUN_DIR).  Every suite the debug kernel builds in must report.
kunit_results()
{
	local suite n
	python3 "$IRQP_TOP/tests/ktap.py" --kunit "$RUN_DIR/console.log" >"$tmp/kunit"
	results_from "$tmp/kunit"
	for suite in ${KUNIT_SUITES:-irq_poll}; do
		n=$(grep -c "^\(not \)\?ok kunit\.$suite\." "$tmp/kunit")
		if [ "$n" -gt 0 ]; then
			result ok "kunit-suite-ran.$suite"
		else
			result fail "kunit-suite-ran.$suite" "no results from KUnit suite $suite"
		fi
	done
	grep '^# totals' "$tmp/kunit" | sed 's/^# totals/  kunit totals/'
}

if [ -n "$main_tests" ]; then
	guest_boot "$main_tests" "" kmemleak=off || finish
	kunit_results
fi
if [ -n "$leak_tests" ]; then
	guest_boot "$leak_tests" kmemleak. || finish
	[ -n "$main_tests" ] || kunit_results
fi

stage 9 $STAGES "KASAN kernel: the KUnit suite and a fio verify per converted disk"
# A third flavour (tests/kconfig/kasan.config): KASAN without lock debugging, booted
# once.  ahci-modes and mptsas-modes verify with fio in every mode, so the library's
# poll, deferral and teardown paths run under KASAN; any report fails the console scan.
if ! "$IRQP_TOP/tests/build-kernel.sh" kasan; then
	result fail build-kasan-kernel
elif ! "$IRQP_TOP/tests/mkinitramfs.sh" kasan; then
	result fail kasan.initramfs
else
	result ok build-kasan-kernel
	KRUN=$BUILD_DIR/runs/check-kasan-$(date +%Y%m%d-%H%M%S)
	RUN_DIR=$KRUN BLKDEBUG=1 "$IRQP_TOP/tests/qemu-run.sh" -t "${QEMU_TIMEOUT:-1200}" \
		-T "${KASAN_TESTS:-ahci-modes,mptsas-modes}" kasan
	case $? in
	0) result ok kasan.guest-boot ;;
	2) result fail kasan.guest-boot "timeout; console: $KRUN/console.log" ;;
	*) result fail kasan.guest-boot "qemu failed; see $KRUN" ;;
	esac
	python3 "$IRQP_TOP/tests/ktap.py" --prefix kasan.guest. "$KRUN/ktap.log" >"$tmp/kguest"
	[ $? = 2 ] && result fail kasan.guest-ktap "no KTAP from the guest: $KRUN/ktap.log"
	results_from "$tmp/kguest"
	grep -E '^# ' "$KRUN/ktap.log" | sed 's/^/  /'
	python3 "$IRQP_TOP/tests/ktap.py" --prefix kasan. --kunit "$KRUN/console.log" >"$tmp/kkunit"
	results_from "$tmp/kkunit"
	if grep -q '^\(not \)\?ok kasan\.kunit\.irq_poll\.' "$tmp/kkunit"; then
		result ok kasan.kunit-suite-ran.irq_poll
	else
		result fail kasan.kunit-suite-ran.irq_poll "no results from KUnit suite irq_poll"
	fi
	if python3 "$IRQP_TOP/tests/scan-log.py" "$KRUN/console.log" >"$tmp/kscan"; then
		result ok kasan.console-clean
	else
		cat "$tmp/kscan"
		result fail kasan.console-clean "$KRUN/console.log"
	fi
	echo "# KASAN run directory: $KRUN"
fi

stage 10 $STAGES "harness self-test: broken runs must fail loudly"
"$IRQP_TOP/tests/selftest.sh" >"$tmp/self" 2>&1
grep '^# ' "$tmp/self"
results_from "$tmp/self"
finish
