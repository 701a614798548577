#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# See /irqp/disk/unbind.sh.
exec /irqp/disk/unbind.sh mptsas
