#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Interleaved trial pairs (../interleaved-pairs.diff, not in the series) in the
# two models of this directory: cl.c and lone.c built from the committed
# library, then from a copy with the diff applied, for each block length,
# wash-out and count of blocks below, then from one with
# ../interleaved-pairs-wip.diff applied.  Prints what README.md quotes
# ("Interleaved trial pairs").
set -e
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/irqp-interleave.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

for d in a b; do
	mkdir -p "$tmp/$d"
	cp -r "$top/lib-irqpoll" "$tmp/$d/"
done
# git apply, not patch(1), which a fresh Debian may lack; no repository above $tmp.
(cd "$tmp/a" && GIT_CEILING_DIRECTORIES=$tmp git apply "$here/../interleaved-pairs.diff")
(cd "$tmp/b" && GIT_CEILING_DIRECTORIES=$tmp git apply "$here/../interleaved-pairs-wip.diff")
python3 "$here/mk.py" "$tmp/a/lib-irqpoll/lib/irq_poll.c" "$tmp/ctl.in"
python3 "$here/mk.py" "$tmp/b/lib-irqpoll/lib/irq_poll.c" "$tmp/ctl.wip"
python3 "$here/mk.py" "$top/lib-irqpoll/lib/irq_poll.c" "$tmp/ctl.committed"
cp "$here/cl.c" "$here/lone.c" "$tmp/"

for bw in committed "8 4 8" "8 4 16" "4 2 16" "16 8 4" wip; do
	if [ "$bw" = committed ]; then
		echo "as committed:"
		cp "$tmp/ctl.committed" "$tmp/ctl.h"
	elif [ "$bw" = wip ]; then
		echo "interleaved-pairs-wip.diff:"
		cp "$tmp/ctl.wip" "$tmp/ctl.h"
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
