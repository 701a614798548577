#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fio crc32c write-then-verify on the disk behind mptsas (QEMU mptsas1068).
. /irqp/lib.sh
dev=$(find_disk mptsas) || exit 1
echo "mptsas disk: $dev"
fio_verify "$dev"
