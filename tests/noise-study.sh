#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Noise study: which QEMU setup gives the quietest A/A control under TCG.  Boots the
# perf kernel once per candidate setup and runs the A/A benchmark (bench/aa.sh: "off"
# twice per round, ahci file and mptsas INTx fast disks, QD32 and QD1), then reports
# each candidate's spread: how far the 90% bootstrap interval of off2/off reaches from
# 1.0, the largest over the disks and jobs, per metric.  make run uses the winner.
#
# Usage: tests/noise-study.sh [CANDIDATE...]    (default: all; needs the perf kernel,
#        'make kernel-perf'; run it under the shared lock, it boots QEMU)
#   base    -smp 2, tcg,thread=multi, STUDY_SECONDS windows, fio on the CPU that takes
#           its disk's interrupts (the make run default)
#   smp1    -smp 1
#   pin     -smp 2 with each vCPU thread pinned to its own host CPU (taskset)
#   long    base with 3x longer windows
#   rounds  base with twice the rounds of half as long windows (the same measured time;
#           the median of 6 rounds leaves out more of a heavy tail than that of 3)
#   icount  -smp 2, tcg,thread=single, -icount shift=auto,sleep=on
#   float   base with fio where the guest's scheduler puts it (FIO_PIN=0: make run's
#           default before 2026-12-05 19:47, and the setup the others were first measured in)
# STUDY_BASE=RUN_DIR: take candidate "base" from that make run's A/A rows (same disks
# and jobs) instead of booting it.
# STUDY_SECONDS (3, as make run), STUDY_ROUNDS (3) and STUDY_JOBS (qd32 qd1) set the
# cost.  Output:
# $BUILD_DIR/study/study-results.txt (also printed) and a run directory per candidate.
set -eu
. "$(dirname "$0")/lib.sh"

secs=${STUDY_SECONDS:-3}
jobs=${STUDY_JOBS:-qd32 qd1}
rounds=${STUDY_ROUNDS:-3}
cands=${*:-base float smp1 pin long icount}
out=$BUILD_DIR/study
mkdir -p "$out"
n=$(echo $cands | wc -w)
k=0
stage 1 $((n + 2)) "initramfs with this checkout's guest scripts"
"$IRQP_TOP/tests/mkinitramfs.sh" perf
for c in $cands; do
	k=$((k + 1))
	s=$secs
	r=$rounds
	env=()
	extra=irqp.fiopin=1
	case $c in
	base) if [ -n "${STUDY_BASE:-}" ]; then
			rm -rf "$out/base"
			mkdir -p "$out/base"
			cp "$STUDY_BASE/results.csv" "$out/base/"
			echo "make run $STUDY_BASE" >"$out/base/wall_s"
			continue
		fi ;;
	smp1) env=(QEMU_SMP=1) ;;
	pin) env=(QEMU_PIN=1) ;;
	long) s=$((secs * 3)) ;;
	rounds) [ "$secs" -ge 2 ] && [ $((secs % 2)) = 0 ] ||
			die "candidate rounds halves STUDY_SECONDS ($secs): an even number"
		s=$((secs / 2)) r=$((rounds * 2)) ;;
	icount) env=(QEMU_ICOUNT=shift=auto,sleep=on) ;;
	float) extra=irqp.fiopin=0 ;;
	*) die "unknown candidate '$c' (base smp1 pin long icount float rounds)" ;;
	esac
	stage $((k + 1)) $((n + 2)) "candidate $c (${env[*]:-defaults}, ${s}s windows, $r rounds)"
	rd=$out/$c
	rm -rf "$rd"
	t0=$(date +%s)
	env "${env[@]}" RUN_DIR="$rd" \
		KERNEL_CMDLINE_EXTRA="irqp.secs=$s irqp.rounds=$r irqp.benchtimeout=1800 irqp.diskjobs=$(echo $jobs | tr ' ' ,) $extra" \
		"$IRQP_TOP/tests/qemu-run.sh" -t 2400 -B aa perf >"$out/$c.log" 2>&1 ||
		{ tail -n 20 "$out/$c.log"; echo "candidate $c: boot failed" >"$rd.failed"; continue; }
	echo "$(( $(date +%s) - t0 ))" >"$rd/wall_s"
	python3 "$IRQP_TOP/tests/report.py" "$rd" >"$rd/report.log" 2>&1 || true
done

stage $((n + 2)) $((n + 2)) "spreads"
python3 - "$out" "$jobs" $cands <<'PY' | tee "$out/study-results.txt"
import csv, os, sys
out, jobs, cands = sys.argv[1], sys.argv[2].split(), sys.argv[3:]
metrics = [('iops', 'IOPS', 0.10), ('p50_us', 'p50', 0.10), ('irq_io', 'irq/IO', 0.05),
           ('cpu_us_io', 'CPU/IO', 0.05)]
print('A/A spread per candidate: how far the 90% bootstrap interval of off2/off reaches '
      'from 1.0 (largest over ahci-file and mptsas-intx-fast and the jobs), and the worst '
      'of those over its target (+-10% IOPS/p50, +-5% irq/CPU); lower is quieter')
print('jobs: %s' % ' '.join(jobs))
print('%-8s %7s %s %9s' % ('setup', 'wall s', ' '.join('%16s' % t for _, t, _ in metrics), 'worst/tgt'))
best = None
for c in cands:
    d = os.path.join(out, c)
    f = os.path.join(d, 'results.csv')
    if not os.path.isfile(f):
        print('%-8s failed (see %s.log)' % (c, os.path.join(out, c)))
        continue
    rows = [r for r in csv.DictReader(open(f)) if r['mode'] == 'off2' and r['job'] in jobs and
            (r['dev'], r['regime']) in (('ahci', 'file'), ('mptsas-intx', 'fast'))]
    cells, worst = [], 0.0
    for k, t, tgt in metrics:
        w = 0.0
        for r in rows:
            if r.get(k + '_ratio_lo'):
                w = max(w, float(r[k + '_ratio_hi']) - 1, 1 - float(r[k + '_ratio_lo']))
        cells.append('%15.1f%%' % (100 * w))
        worst = max(worst, w / tgt)
    wall = open(os.path.join(d, 'wall_s')).read().strip() if os.path.isfile(os.path.join(d, 'wall_s')) else '?'
    print('%-8s %7s %s %9.2f' % (c, wall.split()[0] if wall[0].isdigit() else '-', ' '.join(cells), worst))
    if best is None or worst < best[1]:
        best = (c, worst)
if best:
    print('quietest: %s (worst spread %.2f of the target)' % best)
PY
