#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# See /irqp/disk/switch.sh.
exec /irqp/disk/switch.sh ahci
