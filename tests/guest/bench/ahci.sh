#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
exec /irqp/bench/disk.sh ahci
