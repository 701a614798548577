#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Deferral sweep on ahci (make run BENCH=ahci-sweep): the disk jobs with polling off and
# with defer_hard_irqs/flush_timeout_ns pairs (mode defer-N-US), to show the
# interrupts-for-throughput trade-off under TCG.
BENCH_RUNS=${SWEEP_RUNS:-off defer defer-1-50 defer-2-50 defer-2-200 defer-4-100 defer-8-20 off2}
export BENCH_RUNS
exec /irqp/bench/disk.sh ahci-file ahci-fast
