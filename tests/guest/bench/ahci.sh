#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# ahci, image file and null-co disks (make run's default jobs: DISK_JOBS from run.sh).
exec /irqp/bench/disk.sh ahci-file ahci-fast
