#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Interleaved trial pairs in the two models of this directory: cl.c and lone.c
# built from the library of patch 18 (lib-at.sh), then from a copy of it with
# ../interleaved-pairs.diff applied, for each block length, wash-out and count
# of blocks below, then from the library of patch 19, that diff made a patch.
# Prints what README.md quotes ("Interleaved trial pairs").
set -e
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/irqp-interleave.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$tmp/a"
"$here/lib-at.sh" 18 "$tmp/p18" >/dev/null
"$here/lib-at.sh" 18 "$tmp/a/lib-irqpoll" >/dev/null
# git apply, not patch(1), which a fresh Debian may lack; no repository above $tmp.
(cd "$tmp/a" && GIT_CEILING_DIRECTORIES=$tmp git apply "$here/../interleaved-pairs.diff")
python3 "$here/mk.py" "$tmp/a/lib-irqpoll/lib/irq_poll.c" "$tmp/ctl.in"
python3 "$here/mk.py" "$tmp/p18/lib/irq_poll.c" "$tmp/ctl.p18"
"$here/lib-at.sh" 19 "$tmp/p19" >/dev/null
python3 "$here/mk.py" "$tmp/p19/lib/irq_poll.c" "$tmp/ctl.p19"
cp "$here/cl.c" "$here/lone.c" "$tmp/"

for bw in p18 "8 4 8" "8 4 16" "4 2 16" "16 8 4" p19; do
	if [ "$bw" = p18 ]; then
		echo "patch 18:"
		cp "$tmp/ctl.p18" "$tmp/ctl.h"
	elif [ "$bw" = p19 ]; then
		echo "patch 19:"
		cp "$tmp/ctl.p19" "$tmp/ctl.h"
	else
		set -- $bw
		echo "blocks of $1 ms, the first $2 ms not counted, $3 blocks:"
		sed -e "s/^#define IRQ_POLL_AUTO_BLOCK_NS.*/#define IRQ_POLL_AUTO_BLOCK_NS ($1 * NSEC_PER_MSEC)/" \
		    -e "s/^#define IRQ_POLL_AUTO_WASH_NS.*/#define IRQ_POLL_AUTO_WASH_NS ($2 * NSEC_PER_MSEC)/" \
		    -e "s/^#define IRQ_POLL_AUTO_BLOCKS.*/#define IRQ_POLL_AUTO_BLOCKS $3/" \
		    "$tmp/ctl.in" >"$tmp/ctl.h"
	fi
	gcc -O2 -Wall -Werror -o "$tmp/cl" "$tmp/cl.c"
	gcc -O2 -Wall -Werror -o "$tmp/lone" "$tmp/lone.c"
	{
		"$tmp/cl" 2 150 25 15 60 0.7 2.7 20 40
		"$tmp/cl" 4 400 50 15 80 0.7 2.7 20
		"$tmp/cl" 32 100 50 15 80 0.7 2.7 20
		"$tmp/cl" 64 100 50 15 80 0.7 2.7 10
		"$tmp/cl" 128 100 50 15 80 0.7 2.7 10
		"$tmp/cl" 32 50 200 15 20 0.7 2.7 10
		"$tmp/lone" 150 128 0.4 50 0.7 2.7 400
		"$tmp/lone" 150 128 0.4 50 12 14 400
		"$tmp/lone" 150 150 0.4 50 12 14 400
	} | sed 's/^/  /'
done
