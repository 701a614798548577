#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unit test of tests/figures.py: quotes of benchmark figures in prose must be in the
# committed results.  A made-up results directory, a text with good quotes (must
# pass, and expand), texts with each kind of bad quote (must fail, naming the line),
# and the repository's own cover letter, commit messages, README and
# docs-dev/benchmarks.md.
#
# Usage: tests/unit/figures.sh    prints "ok NAME" / "not ok NAME" lines
here=$(cd "$(dirname "$0")" && pwd)
fig=$here/../figures.py
tmp=${TMPDIR:-/tmp}/irqp-fig.$$
mkdir -p "$tmp"
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/figures.txt" <<'X'
# KEY = VALUE
ahci.fast.qd32.auto.irq_io = 0.412
ahci.fast.qd32.auto.irq_io.ratio = 0.36x [0.35-0.38]
X
cat >"$tmp/results.txt" <<'X'
device       regime job   mode   IOPS
ahci         fast   qd32  off    500
X
: >"$tmp/summary.txt"
# BENCH=mmio counts, and studies in directories of their own (keys prefixed "NAME."):
# the load sweep and another; a directory without figures.txt is no study
echo 'mmio.ahci.fast.qd32.on.mmio_io = 7.18' >"$tmp/mmio-figures.txt"
mkdir -p "$tmp/sweep"
echo 'ahci.fast.qd8.auto.iops.ratio = 0.81x [0.75-0.87]' >"$tmp/sweep/figures.txt"
echo 'ahci         fast   qd8   auto   410' >"$tmp/sweep/summary.txt"
mkdir -p "$tmp/mid-qd" "$tmp/plots"
echo 'ahci.fast.qd4.auto.iops.ratio = 0.86x [0.79-0.94]' >"$tmp/mid-qd/figures.txt"
echo 'ahci         fast   qd4   auto   4433' >"$tmp/mid-qd/results.txt"
echo 'ahci         fast   qd4   auto   4433' >"$tmp/plots/results.txt"
export FIGURES=$tmp/figures.txt
t()
{
	if [ "$1" = 0 ]; then echo "ok figures.$2"; else echo "not ok figures.$2"; fi
}

printf 'auto: {fig:ahci.fast.qd32.auto.irq_io.ratio} interrupts per I/O.\n' >"$tmp/good.txt"
printf 'ahci auto `0.36x [0.35-0.38]`<!-- fig:ahci.fast.qd32.auto.irq_io.ratio -->\n' >>"$tmp/good.txt"
printf '```results\nahci         fast   qd32  off    500\n...\n```\n' >>"$tmp/good.txt"
printf 'syntax: `{fig:KEY}` and `VALUE<!-- fig:KEY -->`\n' >>"$tmp/good.txt"
printf 'on: {fig:mmio.ahci.fast.qd32.on.mmio_io}; QD8 {fig:sweep.ahci.fast.qd8.auto.iops.ratio}\n' \
	>>"$tmp/good.txt"
printf '```results\nahci         fast   qd8   auto   410\n```\n' >>"$tmp/good.txt"
printf 'QD4 {fig:mid-qd.ahci.fast.qd4.auto.iops.ratio}\n' >>"$tmp/good.txt"
printf '```results\nahci         fast   qd4   auto   4433\n```\n' >>"$tmp/good.txt"
python3 "$fig" check "$tmp/good.txt" >"$tmp/out" 2>&1
t $? good-quotes
[ "$(python3 "$fig" expand "$tmp/good.txt" | head -n 1)" = \
	"auto: 0.36x [0.35-0.38] interrupts per I/O." ]
t $? expand

# expand fills again a paragraph or list item whose figures made it ragged, to 72
# columns, a figure never split; other paragraphs stay as they are
printf 'A figure of {fig:ahci.fast.qd32.auto.irq_io.ratio}\nthere and {fig:ahci.fast.qd32.auto.irq_io.ratio}\nhere, and then some more words that run\nlong.  And a second sentence.\n\nleft   as\nit is\n\n - item {fig:ahci.fast.qd32.auto.irq_io}\n   and its rest\n' \
	>"$tmp/fill.txt"
printf '%s\n' 'A figure of 0.36x [0.35-0.38] there and 0.36x [0.35-0.38] here, and then' \
	'some more words that run long.  And a second sentence.' '' 'left   as' 'it is' '' \
	' - item 0.412 and its rest' >"$tmp/fill.want"
python3 "$fig" expand "$tmp/fill.txt" | cmp -s - "$tmp/fill.want"
t $? expand-fills

bad()
{
	printf '%b' "$2" >"$tmp/bad.txt"
	python3 "$fig" check "$tmp/bad.txt" >"$tmp/out" 2>&1
	[ $? = 1 ] && grep -q "bad.txt:$3: " "$tmp/out"
	t $? "refuses.$1"
}
bad unknown-key 'x\n{fig:ahci.fast.qd1.auto.irq_io}\n' 2
bad wrong-value 'ahci `0.30x [0.35-0.38]`<!-- fig:ahci.fast.qd32.auto.irq_io.ratio -->\n' 1
bad inline-unknown '0.4<!-- fig:nope -->\n' 1
# a code span after the quote on the same line must not hide it
bad wrong-value-then-span 'x\n`0.30x [0.35-0.38]`<!-- fig:ahci.fast.qd32.auto.irq_io.ratio --> in `off`\n' 2
bad placeholder-then-span 'x\nthe `on` path {fig:nope} and `off`\n' 2
bad sweep-key-unprefixed 'x\n{fig:ahci.fast.qd8.auto.iops.ratio}\n' 2
bad results-block '```results\nahci         fast   qd32  off    501\n```\n' 2
bad study-key-unprefixed 'x\n{fig:ahci.fast.qd4.auto.iops.ratio}\n' 2
bad not-a-study 'x\ny\n{fig:plots.ahci.fast.qd4.auto.iops.ratio}\n' 3
echo 'ahci         fast   qd2   auto   4000' >"$tmp/plots/results.txt"
bad not-a-study-block '```results\nahci         fast   qd2   auto   4000\n```\n' 2
python3 "$fig" expand "$tmp/bad.txt" >/dev/null 2>&1 && false
printf '{fig:nope}\n' >"$tmp/bad.txt"
! python3 "$fig" expand "$tmp/bad.txt" >/dev/null 2>&1
t $? expand-refuses-unknown

# The default file list takes in docs-dev/benchmarks.md: a bad quote there fails
# the check with no file named (a copy of the script in a made-up tree).
mkdir -p "$tmp/top/tests" "$tmp/top/results" "$tmp/top/docs-dev"
cp "$fig" "$tmp/top/tests/"
cp "$tmp/figures.txt" "$tmp/top/results/"
printf '%s\n' '`0.413`<!-- fig:ahci.fast.qd32.auto.irq_io -->' >"$tmp/top/docs-dev/benchmarks.md"
(unset FIGURES; python3 "$tmp/top/tests/figures.py" check) >"$tmp/out" 2>&1
[ $? = 1 ] && grep -q 'benchmarks.md:1: fig:ahci.fast.qd32.auto.irq_io' "$tmp/out"
t $? default-files-include-benchmarks

# The repository: cover letter, commit messages, README and docs-dev/benchmarks.md
# against results/.
unset FIGURES
python3 "$fig" check >"$tmp/out" 2>&1
rc=$?
sed 's/^/# /' "$tmp/out"
t $rc repository
