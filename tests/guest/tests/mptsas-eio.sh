#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# See /irqp/disk/eio.sh.
exec /irqp/disk/eio.sh mptsas
