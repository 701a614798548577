#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Usage: lib-at.sh N DIR
#
# The library as patch N of the series left it: lib-irqpoll/ copied to DIR
# (replaced if it exists) with the library patches after N reversed, newest
# first.  Prints DIR/lib/irq_poll.c, for mk.py (which takes the header next
# to it).  The model's figures for an older controller are pinned this way.
set -e
[ $# -eq 2 ] || { echo "usage: lib-at.sh N DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../.." && pwd)
n=$1
dir=$2
case $n in ''|*[!0-9]*) echo "lib-at.sh: N must be a patch number, not '$n'" >&2; exit 2 ;; esac
last=$(ls "$top/lib-irqpoll/patches" | sed -n 's/^\([0-9]\{4\}\)-.*\.diff$/\1/p' | sort | tail -n 1)
[ "$(expr "$n" + 0)" -le "$(expr "$last" + 0)" ] ||
	{ echo "lib-at.sh: no patch $n (the library has $last)" >&2; exit 2; }
rm -rf "$dir"
cp -r "$top/lib-irqpoll" "$dir"
for p in $(ls "$dir/patches" | grep '^[0-9]\{4\}-.*\.diff$' | sort -r); do
	[ "$(expr "$(echo "$p" | cut -c1-4)" + 0)" -gt "$n" ] || break
	# git apply, not patch(1); no repository above DIR's parent.
	(cd "$dir" && GIT_CEILING_DIRECTORIES=$(dirname "$dir") git apply -R "patches/$p")
done
echo "$dir/lib/irq_poll.c"
