#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Load sweep (make run BENCH=sweep): every disk target at QD 1..32 and at 25/50/75% of
# the QD32 IOPS of "off", in modes off, on, auto and a fixed deferral, with the A/A
# control.  Plots: interrupts, p99 and CPU per I/O against IOPS (tests/report.py).
DISK_JOBS=${SWEEP_JOBS:-qd32 qd1 qd2 qd4 qd8 qd16 r25 r50 r75}
BENCH_RUNS=${SWEEP_RUNS:-off on auto defer off2}
export DISK_JOBS BENCH_RUNS
exec /irqp/bench/disk.sh ahci-file ahci-fast mptsas-intx-file mptsas-intx-fast \
	mptsas-msi-file mptsas-msi-fast
