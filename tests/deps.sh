#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Install what the irq-poll build, harness and tests need, with apt-get.
#
# Usage: tests/deps.sh
#
# Packages already installed are left alone, so a warm run costs a dpkg query.  A
# package apt-get cannot install stops the run with its name.
set -eu
. "$(dirname "$0")/lib.sh"

PACKAGES="linux-source-6.1 qemu-system-x86 qemu-utils fio iperf3 sparse coccinelle
busybox-static ccache gnuplot-nox bc bison flex libelf-dev libssl-dev cpio xz-utils
dwarves gcc make git python3 python3-ply python3-git perl rsync kmod iproute2 procps
ethtool gcc-i686-linux-gnu gcc-aarch64-linux-gnu gcc-riscv64-linux-gnu"

missing=
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed' ||
		missing="$missing $p"
done
[ -z "$missing" ] && exit 0

echo "deps: installing:$missing"
[ "$(id -u)" = 0 ] || die "need root to install:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null || die "apt-get update failed"
for p in $missing; do
	apt-get install -y -q --no-install-recommends "$p" >/dev/null ||
		die "could not install package '$p' with apt-get"
done
