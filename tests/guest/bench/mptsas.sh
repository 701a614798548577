#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# mptsas on INTx and on MSI (two HBAs, same boot), image file and null-co disks.
exec /irqp/bench/disk.sh mptsas-intx-file mptsas-intx-fast mptsas-msi-file mptsas-msi-fast
