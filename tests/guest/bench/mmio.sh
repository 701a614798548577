#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Register accesses per I/O (make run BENCH=mmio): the disk jobs on the three fast
# targets in modes off, on and auto, one round, with every window marked for QEMU's
# trace of the controllers' register handlers (mmio_mark in /irqp/lib.sh; counted by
# tests/mmio-count.py).  The trace slows QEMU's device models, so this run's timings
# mean nothing: it gives counts only.  One round: the trace writes about 150 MB.
MMIO_MARK=1
BENCH_RUNS="off on auto"
BENCH_ROUNDS=1
export MMIO_MARK BENCH_RUNS BENCH_ROUNDS
rm -f /results/mmio-windows
exec /irqp/bench/disk.sh ahci-fast mptsas-intx-fast mptsas-msi-fast
