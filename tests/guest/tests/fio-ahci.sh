#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# fio crc32c write-then-verify on the disk behind ahci.
. /irqp/lib.sh
dev=$(find_disk ahci) || exit 1
echo "ahci disk: $dev"
fio_verify "$dev"
