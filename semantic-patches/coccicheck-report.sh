#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# "make coccicheck MODE=report" with each irq_poll script, over the
# directories of drivers/ that use irq_poll (or blk_iopoll), compared with
# the hits recorded in coccicheck-expected.txt.
#
# Usage: coccicheck-report.sh [-u] TREE
#   TREE  a kernel tree with the series applied (the scripts are taken from
#         its scripts/coccinelle/api/, as "make coccicheck" does)
#   -u    rewrite coccicheck-expected.txt from this run (then review it
#         against HITS.md: every hit needs a verdict there)
#
# Directories: every directory of drivers/ holding a .c or .h file that
# calls an irq_poll_*() function, uses struct irq_poll, includes
# <linux/irq_poll.h> or mentions blk_iopoll, minus those inside another
# listed directory (coccicheck M=DIR recurses).  A plain "grep -rl
# irq_poll" also finds names such as sdio_irq_poll or mpi3mr's irq_poll
# fields, which the scripts cannot match.  J=1, niced.
#
# A hit is compared as "script: file: message": line and column are
# dropped, so that an edit elsewhere in the file does not count as a new
# hit; the number of hits per file and message is compared.
#
# Prints "ok - coccicheck/SCRIPT" or "not ok - coccicheck/SCRIPT" (with
# the differences), and exits non-zero on any difference.
#
# Copyright: (C) 2026 irq-poll developers
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
expected=$here/coccicheck-expected.txt
update=0
[ "${1:-}" = -u ] && { update=1; shift; }
[ $# = 1 ] || { sed -n '7,12s/^# \{0,1\}//p' "$0" >&2; exit 2; }
tree=$(cd "$1" && pwd) || exit 2
[ -f "$tree/scripts/coccicheck" ] || { echo "not ok - coccicheck: $tree is not a kernel tree"; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/irq-poll-coccicheck.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

cd "$tree" || exit 1
grep -rlE --include='*.[ch]' \
	'\birq_poll_[a-z_]+[[:space:]]*\(|\bstruct irq_poll\b|<linux/irq_poll\.h>|\bblk_iopoll' \
	drivers | xargs -r -n1 dirname | sort -u >"$tmp/alldirs"
dirs=()
while read -r d; do
	inside=0
	for p in ${dirs[@]+"${dirs[@]}"}; do
		case $d/ in "$p"/*) inside=1 ;; esac
	done
	[ $inside = 1 ] || dirs+=("$d")
done <"$tmp/alldirs"
echo "# directories: ${dirs[*]}"

fail=0
for cocci in "$here"/*.cocci; do
	name=$(basename "$cocci" .cocci)
	sp=scripts/coccinelle/api/$name.cocci
	if [ ! -f "$sp" ]; then
		echo "# $sp missing in $tree"
		echo "not ok - coccicheck/$name"; fail=1; continue
	fi
	cmp -s "$sp" "$cocci" || echo "# note: $sp differs from semantic-patches/$name.cocci (patches/ stale?)"
	st=0
	for d in "${dirs[@]}"; do
		nice -n 19 make -s coccicheck MODE=report COCCI="$sp" M="$d" J=1 \
			>"$tmp/log" 2>&1 || { st=1; sed 's/^/# /' "$tmp/log" | tail -5; }
		# file:line:col-col: message
		sed -n -E "s|^(drivers/[^:]+):[0-9]+:[0-9]+-[0-9]+: (.*)$|$name: \\1: \\2|p" \
			"$tmp/log" >>"$tmp/got"
		grep -E '^drivers/[^:]+:[0-9]+:' "$tmp/log" | sed 's/^/#   /'
	done
	touch "$tmp/got"
	if [ $update = 1 ]; then
		grep -v "^$name: " "$expected" 2>/dev/null >"$tmp/exp.new"
		grep "^$name: " "$tmp/got" >>"$tmp/exp.new"
		LC_ALL=C sort "$tmp/exp.new" >"$expected"
	fi
	grep "^$name: " "$tmp/got" | LC_ALL=C sort >"$tmp/got.$name"
	grep "^$name: " "$expected" 2>/dev/null | LC_ALL=C sort >"$tmp/exp.$name"
	if ! diff -u "$tmp/exp.$name" "$tmp/got.$name" >"$tmp/diff"; then
		sed -n -e 's/^-\([^-].*\)/# lost hit: \1/p' \
			-e 's/^+\([^+].*\)/# new hit: \1/p' "$tmp/diff"
		st=1
	fi
	if [ $st = 0 ]; then
		echo "ok - coccicheck/$name"
	else
		echo "not ok - coccicheck/$name"; fail=1
	fi
done
exit $fail
