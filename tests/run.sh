#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make run: build the perf kernel, boot it once, measure disk and network traffic in
# every interrupt mode, print the comparison; CSV and PNG plots land next to the table.
#
# Usage: tests/run.sh      (BENCH_SECONDS, BENCH_ROUNDS, BENCH_WARMUP, BENCH=ahci,mptsas,net,
#                          DISK_JOBS, DISK_RUNS, NET_MODES, NET_JOBS override the defaults;
#                          QEMU_SMP, QEMU_PIN, QEMU_ICOUNT, FAST_LATENCY_NS, FIO_PIN the setup)
set -eu
. "$(dirname "$0")/lib.sh"

# Refuse bad settings before anything is built or booted.
rounds=${BENCH_ROUNDS:-3}
secs=${BENCH_SECONDS:-2}
bench=${BENCH-ahci,mptsas,net}
diskjobs=${DISK_JOBS-qd32 r50 qd4 qd1}
for v in "BENCH_SECONDS=$secs" "BENCH_ROUNDS=$rounds" "QEMU_SMP=${QEMU_SMP:-2}" \
	${BENCH_WARMUP+"BENCH_WARMUP=$BENCH_WARMUP"}; do
	case "${v#*=}" in
	'' | *[!0-9]* | 0*) die "${v%%=*} must be a positive whole number, not '${v#*=}'" ;;
	esac
done
# Seconds from a job's first completed unit of work to its window (guest default 0.7)
warmup=${BENCH_WARMUP:-}
[ -z "$warmup" ] || [ "$warmup" -le 60 ] || die "BENCH_WARMUP must be 60 s or less, not '$warmup'"
known=$(cd "$IRQP_TOP/tests/guest/bench" && ls *.sh | sed 's/\.sh$//' | grep -vx disk | tr '\n' ' ')
[ -n "$bench" ] || die "BENCH is empty (known: $known)"
for b in ${bench//,/ }; do
	case " $known " in
	*" $b "*) ;;
	*) die "BENCH: unknown benchmark '$b' (known: $known)" ;;
	esac
done
# BENCH=mmio traces every register access of the disk controllers in QEMU, which
# slows them: it runs alone, and its report is counts (tests/mmio-count.py).
mmio=0
case ",$bench," in
,mmio,) mmio=1 ;;
*,mmio,*) die "BENCH: 'mmio' runs alone (its QEMU trace slows every other benchmark)" ;;
esac
# The guest's clock source (tests/qemu-run.sh): tsc (tsc=reliable) or hpet (what the
# kernel picks under TCG by itself).
case "${BENCH_CLOCK:-tsc}" in
tsc | hpet) ;;
*) die "BENCH_CLOCK: unknown clock source '$BENCH_CLOCK' (tsc hpet)" ;;
esac
# fio on the CPU that takes its disk's interrupts (1, the default) or where the guest's
# scheduler puts it (0); see "Where fio runs" in README.md.
fiopin=${FIO_PIN-1}
case "$fiopin" in
0 | 1) ;;
*) die "FIO_PIN must be 0 or 1, not '$fiopin'" ;;
esac
[ -n "$diskjobs" ] || die "DISK_JOBS is empty"
seen_qd32=0
for j in $diskjobs; do
	case "$j" in
	qd32) seen_qd32=1 ;;
	qd[1-9] | qd[1-9][0-9] | qd[1-9][0-9][0-9]) ;;
	r[1-9] | r[1-9][0-9])
		[ $seen_qd32 = 1 ] || die "DISK_JOBS: '$j' needs qd32 before it (rates are percentages of off's QD32 IOPS)" ;;
	*) die "DISK_JOBS: unknown job '$j' (qdN: iodepth N, 1-999; rP: P% of off's QD32 IOPS, 1-99)" ;;
	esac
done
# defer_ok SPEC: SPEC is defer-IRQS-USECS, IRQS 1-99 and USECS a whole number from 1
# (a fixed deferral: defer_hard_irqs, flush_timeout_ns in microseconds)
defer_ok()
{
	case "$1" in
	defer-[1-9]-[1-9]* | defer-[1-9][0-9]-[1-9]*)
		case "$1" in defer-*-*[!0-9]*) return 1 ;; esac ;;
	*) return 1 ;;
	esac
}
defer_rule="IRQS 1-99 and USECS from 1, whole numbers"
for m in ${DISK_RUNS:-}; do
	case "$m" in
	off | off2 | on | auto | threaded | defer) ;;
	defer-*) defer_ok "$m" || die "DISK_RUNS: '$m': defer-IRQS-USECS takes $defer_rule" ;;
	*) die "DISK_RUNS: unknown run '$m' (off off2 on auto threaded defer defer-IRQS-USECS)" ;;
	esac
done
for m in ${NET_MODES:-}; do
	case "$m" in
	virtio_net | virtio_net2 | virtio_net-gro | virtio_net-defer | sample-on | sample-auto | sample-defer | sample-threaded) ;;
	sample-defer-*) defer_ok "${m#sample-}" ||
		die "NET_MODES: '$m': sample-defer-IRQS-USECS takes $defer_rule" ;;
	*) die "NET_MODES: unknown mode '$m' (virtio_net virtio_net2 virtio_net-gro virtio_net-defer sample-on sample-auto sample-defer sample-defer-IRQS-USECS sample-threaded)" ;;
	esac
done
for j in ${NET_JOBS:-}; do
	case "$j" in
	send | receive | udp64) ;;
	*) die "NET_JOBS: unknown job '$j' (send receive udp64)" ;;
	esac
done

# tests/unit/run.sh: only the checks above
[ "${IRQP_VALIDATE_ONLY:-0}" = 1 ] && exit 0

STAGES=5
stage 1 $STAGES "apply the patch series to the work tree"
"$IRQP_TOP/tests/series.sh" check || echo "WARNING: patches/ is stale; building the committed series (run 'make patches')" >&2
"$IRQP_TOP/tests/series.sh" apply
stage 2 $STAGES "perf kernel (no lock debugging)"
"$IRQP_TOP/tests/build-kernel.sh" perf
stage 3 $STAGES "initramfs"
"$IRQP_TOP/tests/mkinitramfs.sh" perf
nb=$(echo "${bench//,/ }" | wc -w)
stage 4 $STAGES "boot and benchmark ($bench: ${secs}s windows, $rounds rounds, disk jobs $diskjobs)"
export RUN_DIR=$BUILD_DIR/runs/run-$(date +%Y%m%d-%H%M%S)
btimeout=$((600 + 400 * (secs + ${warmup:-0} + 5) * rounds))
extra="irqp.secs=$secs irqp.rounds=$rounds irqp.diskjobs=$(echo $diskjobs | tr ' ' ,) irqp.benchtimeout=$btimeout irqp.fiopin=$fiopin"
[ -n "$warmup" ] && extra="$extra irqp.warmup=$warmup"
[ -n "${DISK_RUNS:-}" ] && extra="$extra irqp.diskruns=$(echo $DISK_RUNS | tr ' ' ,)"
[ -n "${NET_MODES:-}" ] && extra="$extra irqp.netmodes=$(echo $NET_MODES | tr ' ' ,)"
[ -n "${NET_JOBS:-}" ] && extra="$extra irqp.netjobs=$(echo $NET_JOBS | tr ' ' ,)"
if [ $mmio = 1 ]; then
	export QEMU_TRACE=ahci_mem_read,ahci_mem_write,mptsas_mmio_read,mptsas_mmio_write,pci_cfg_read
fi
KERNEL_CMDLINE_EXTRA="$extra ${KERNEL_CMDLINE_EXTRA:-}" \
	"$IRQP_TOP/tests/qemu-run.sh" -t "${QEMU_TIMEOUT:-$((600 + nb * btimeout))}" -B "$bench" perf ||
	die "benchmark boot failed" "$RUN_DIR/console.log"
python3 "$IRQP_TOP/tests/ktap.py" "$RUN_DIR/ktap.log" >/dev/null ||
	{ grep -E '^(# |not ok)' "$RUN_DIR/ktap.log" | tail -n 30 >&2; die "a benchmark failed in the guest" "$RUN_DIR/ktap.log"; }
python3 "$IRQP_TOP/tests/scan-log.py" "$RUN_DIR/console.log" ||
	die "the guest log is not clean" "$RUN_DIR/console.log"
clock=$(sed -n 's/.*clocksource: Switched to clocksource \([a-z0-9-]*\).*/\1/p' "$RUN_DIR/console.log" | tail -n 1)
[ "$clock" = "${BENCH_CLOCK:-tsc}" ] ||
	die "the guest's clock source is '$clock', not BENCH_CLOCK=${BENCH_CLOCK:-tsc}" "$RUN_DIR/console.log"

stage 5 $STAGES "report"
{
	echo "kernel: $(make -s -C "$WORKTREE" O="$BUILD_DIR/out/perf" kernelrelease 2>/dev/null)"
	echo "series: $(git -C "$WORKTREE" log --oneline pristine..HEAD | wc -l) patches, $(cat "$SRC_DIR/applied")"
	echo "config: $(sha256sum "$BUILD_DIR/out/perf/.config" | cut -c1-16)"
	# benchmarks that fix their own jobs, runs or rounds (tests/guest/bench/)
	own=
	for b in $(echo "$bench" | tr , ' '); do
		case $b in sweep | ahci-sweep | aa | mmio) own="$own bench/$b.sh" ;; esac
	done
	pin=
	[ "${QEMU_PIN:-0}" = 1 ] && pin=", pinned"
	fio="fio where the scheduler puts it"
	[ "$fiopin" = 1 ] && fio="fio on its disk's interrupt CPU"
	echo "setup: ${QEMU_SMP:-2} vCPUs, ${QEMU_ICOUNT:+icount $QEMU_ICOUNT, }accel ${QEMU_ACCEL:-tcg,thread=multi}$pin, host cores: $(nproc), guest clock source: $clock; BENCH=$bench, ${secs}s windows${warmup:+ after ${warmup}s of warm-up}, $rounds rounds, disk jobs: $diskjobs${DISK_RUNS:+, runs: $DISK_RUNS}${own:+ (their own jobs, runs or rounds in$own)}, $fio, fast regime: null-co latency ${FAST_LATENCY_NS:-20000} ns"
	echo "elapsed at report: $(elapsed)"
	echo "qemu: $(cat "$RUN_DIR/qemu-cmd")"
} >"$RUN_DIR/run-info.txt"
mkdir -p "$BUILD_DIR/results"
python3 "$IRQP_TOP/tests/report.py" "$RUN_DIR" || die "the report found broken records" "$RUN_DIR/results"
if [ $mmio = 1 ]; then
	python3 "$IRQP_TOP/tests/mmio-count.py" "$RUN_DIR" || die "no register counts" "$RUN_DIR/qemu-trace.log"
	# 'make results' takes mmio.txt from here; the timings of this run mean nothing
	ln -sfn "$RUN_DIR" "$BUILD_DIR/results/latest-mmio"
	echo "results: $RUN_DIR/mmio.{txt,csv} ($(elapsed))"
	exit 0
fi
ln -sfn "$RUN_DIR" "$BUILD_DIR/results/latest"
echo "results: $RUN_DIR/{results.txt,summary.txt,figures.txt,results.csv,*.png} ($(elapsed))"
echo "         'make results' copies them to results/ for a commit (quoted figures: tests/figures.py)"
