#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make run: build the perf kernel, boot it once, measure disk and network traffic in
# every interrupt mode, print the comparison; CSV and PNG plots land next to the table.
#
# Usage: tests/run.sh      (BENCH_SECONDS, BENCH_ROUNDS, BENCH=ahci,mptsas,net,
#                          NET_MODES, NET_JOBS override the defaults)
set -eu
. "$(dirname "$0")/lib.sh"

# Refuse bad settings before anything is built or booted.
rounds=${BENCH_ROUNDS:-3}
for v in "BENCH_SECONDS=${BENCH_SECONDS:-10}" "BENCH_ROUNDS=$rounds"; do
	case "${v#*=}" in
	'' | *[!0-9]* | 0*) die "${v%%=*} must be a positive whole number, not '${v#*=}'" ;;
	esac
done
for m in ${NET_MODES:-}; do
	case "$m" in
	virtio_net | virtio_net-gro | virtio_net-defer | sample-on | sample-defer | sample-threaded) ;;
	*) die "NET_MODES: unknown mode '$m' (virtio_net virtio_net-gro virtio_net-defer sample-on sample-defer sample-threaded)" ;;
	esac
done
for j in ${NET_JOBS:-}; do
	case "$j" in
	send | receive | udp64) ;;
	*) die "NET_JOBS: unknown job '$j' (send receive udp64)" ;;
	esac
done

STAGES=5
stage 1 $STAGES "apply the patch series to the work tree"
"$IRQP_TOP/tests/series.sh" check || echo "WARNING: patches/ is stale; building the committed series (run 'make patches')" >&2
"$IRQP_TOP/tests/series.sh" apply
stage 2 $STAGES "perf kernel (no lock debugging)"
"$IRQP_TOP/tests/build-kernel.sh" perf
stage 3 $STAGES "initramfs"
"$IRQP_TOP/tests/mkinitramfs.sh" perf
stage 4 $STAGES "boot and benchmark (${BENCH:-ahci,mptsas,net}, ${BENCH_SECONDS:-10}s per job, network ${rounds} rounds)"
export RUN_DIR=$BUILD_DIR/runs/run-$(date +%Y%m%d-%H%M%S)
extra="irqp.secs=${BENCH_SECONDS:-10} irqp.rounds=$rounds"
[ -n "${NET_MODES:-}" ] && extra="$extra irqp.netmodes=$(echo $NET_MODES | tr ' ' ,)"
[ -n "${NET_JOBS:-}" ] && extra="$extra irqp.netjobs=$(echo $NET_JOBS | tr ' ' ,)"
KERNEL_CMDLINE_EXTRA="$extra ${KERNEL_CMDLINE_EXTRA:-}" \
	"$IRQP_TOP/tests/qemu-run.sh" -t "${QEMU_TIMEOUT:-$((1200 + 90 * ${BENCH_SECONDS:-10} * rounds))}" -B "${BENCH:-ahci,mptsas,net}" perf ||
	die "benchmark boot failed" "$RUN_DIR/console.log"
python3 "$IRQP_TOP/tests/ktap.py" "$RUN_DIR/ktap.log" >/dev/null ||
	{ grep -E '^(# |not ok)' "$RUN_DIR/ktap.log" | tail -n 30 >&2; die "a benchmark failed in the guest" "$RUN_DIR/ktap.log"; }
python3 "$IRQP_TOP/tests/scan-log.py" "$RUN_DIR/console.log" ||
	die "the guest log is not clean" "$RUN_DIR/console.log"

stage 5 $STAGES "report"
{
	echo "kernel: $(make -s -C "$WORKTREE" O="$BUILD_DIR/out/perf" kernelrelease 2>/dev/null)"
	echo "series: $(git -C "$WORKTREE" log --oneline pristine..HEAD | wc -l) patches, $(cat "$SRC_DIR/applied")"
	echo "config: $(sha256sum "$BUILD_DIR/out/perf/.config" | cut -c1-16)"
	echo "vcpus: 2 (TCG, -cpu max), host cores: $(nproc)"
	echo "qemu: $(cat "$RUN_DIR/qemu-cmd")"
} >"$RUN_DIR/run-info.txt"
python3 "$IRQP_TOP/tests/report.py" "$RUN_DIR"
echo "results: $RUN_DIR/results.txt, $RUN_DIR/results.csv, $RUN_DIR/*.png"
mkdir -p "$BUILD_DIR/results"
ln -sfn "$RUN_DIR" "$BUILD_DIR/results/latest"
