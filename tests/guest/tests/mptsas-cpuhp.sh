#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# See /irqp/disk/cpuhp.sh.
exec /irqp/disk/cpuhp.sh mptsas
