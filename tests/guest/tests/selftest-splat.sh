#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Harness self-test only: make the kernel print backtraces of all CPUs (sysrq-l), which
# the host's console scanner must report as a failure.
echo l >/proc/sysrq-trigger
sleep 1
exit 0
