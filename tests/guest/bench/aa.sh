#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# A/A only (tests/noise-study.sh): "off" twice per round on ahci's image file and
# mptsas's null-co disk on INTx (DISK_JOBS, default QD32 and QD1): how far apart
# identical runs land.
BENCH_RUNS="off off2"
DISK_JOBS=${DISK_JOBS:-qd32 qd1}
export BENCH_RUNS DISK_JOBS
exec /irqp/bench/disk.sh ahci-file mptsas-intx-fast
