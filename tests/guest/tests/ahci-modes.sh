#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# See /irqp/disk/modes.sh.
exec /irqp/disk/modes.sh ahci
