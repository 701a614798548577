#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Run the semantic-patch tests of irq-poll.
#
# Usage: run-tests.sh [-v] [-p PRISTINE_TREE] [-t PATCHED_TREE]
#
# Each case is tests/<script>/<case>.c; the expected result is
# <case>.res (patch mode: the transformed file, identical to the input for
# negative cases) or <case>.report (report mode: one line per hit, with the
# path replaced by the case name).  A first line "// spatch: ARGS" adds
# spatch arguments (e.g. -D handler=foo_irq).  Every script is also
# checked with --parse-cocci and run once in every virtual mode it declares.
# The Kconfig helper's cases are tests/irq_poll_kconfig/<case>/: args, in/,
# out/, and optionally status (expected exit status, default 0) and
# messages (lines its output must contain).
#
# compare-conversions.py then compares the output of irq_poll_convert.cocci
# and irq_poll_kconfig.sh on the pristine libahci.c and mptbase.c with
# conversions/{ahci,mptsas}/diffs; each piece is one result.  The pristine
# tree is PRISTINE_TREE, else $PRISTINE, else $BUILD_DIR/src/pristine
# (BUILD_DIR defaults to ~/.cache/irq-poll, as in the Makefile); without it
# the comparison fails.  -v also prints its per-hunk table.
#
# With -t, coccicheck-report.sh runs "make coccicheck MODE=report" with each
# script in PATCHED_TREE (the series applied) and compares the hits with
# coccicheck-expected.txt; each script is one result (about 25 s).  Then
# check-drivers.sh converts the development set (3w-sas, 3w-9xxx,
# altera_ps2, arc_ps2, libahci, mptbase) in a scratch worktree of
# PATCHED_TREE and checks each result: the conversion, checkpatch (no
# ERROR), the budget counter and lock of the poll function, and a W=1
# build in $BUILD_DIR/out/users (configured by "make check" stage 3) with
# no new warning.
#
# Prints "ok N name"/"not ok N name" and ends with "N passed, N failed".
#
# Copyright: (C) 2026 irq-poll developers
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
verbose=0 patched=
pristine=${PRISTINE:-${BUILD_DIR:-$HOME/.cache/irq-poll}/src/pristine}
usage() { echo "usage: $0 [-v] [-p PRISTINE_TREE] [-t PATCHED_TREE]" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	-v) verbose=1; shift ;;
	-p) [ $# -ge 2 ] || usage; pristine=$2; shift 2 ;;
	-t) [ $# -ge 2 ] || usage; patched=$2; shift 2 ;;
	*) usage ;;
	esac
done
SPATCH=${SPATCH:-spatch}
if ! command -v "$SPATCH" >/dev/null 2>&1; then
	echo "run-tests.sh: spatch not found (install coccinelle or set SPATCH)" >&2
	echo "0 passed, 1 failed"
	exit 1
fi
tmp=$(mktemp -d "${TMPDIR:-/tmp}/irq-poll-cocci.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
n=0 pass=0 fail=0

result() {	# result STATUS NAME
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		pass=$((pass + 1)); echo "ok $n $2"
	else
		fail=$((fail + 1)); echo "not ok $n $2"
	fi
}

for cocci in "$here"/*.cocci; do
	name=$(basename "$cocci" .cocci)
	modes=$(sed -n 's/^virtual \([a-z]*\)$/\1/p' "$cocci")
	# without a virtual rule spatch says "No rules apply" and exits 1
	"$SPATCH" --parse-cocci -D "${modes%%[[:space:]]*}" "$cocci" >"$tmp/parse" 2>&1
	st=$?
	grep -q "parse error" "$tmp/parse" && st=1
	[ $st = 0 ] || sed 's/^/# /' "$tmp/parse" | tail -5
	result $st "$name: --parse-cocci"
	for mode in $modes; do
		printf 'int f(void) { return 0; }\n' >"$tmp/empty.c"
		"$SPATCH" --very-quiet -D "$mode" -D handler=f --sp-file "$cocci" \
			"$tmp/empty.c" >"$tmp/mode.out" 2>&1
		st=$?
		[ $st = 0 ] || sed 's/^/# /' "$tmp/mode.out" | tail -5
		result $st "$name: -D $mode"
	done
	for c in "$here/tests/$name"/*.c; do
		[ -e "$c" ] || continue
		case_=${c%.c}; cname=$(basename "$case_")
		args=$(sed -n '1s|^// spatch: ||p' "$c")
		cp "$c" "$tmp/$cname.c"
		if [ -e "$case_.res" ]; then
			# shellcheck disable=SC2086
			"$SPATCH" --very-quiet -D patch $args --sp-file "$cocci" \
				"$tmp/$cname.c" -o "$tmp/$cname.out" >"$tmp/log" 2>&1
			[ -e "$tmp/$cname.out" ] || cp "$tmp/$cname.c" "$tmp/$cname.out"
			diff -u "$case_.res" "$tmp/$cname.out" >"$tmp/diff"
			st=$?
		elif [ -e "$case_.report" ]; then
			# shellcheck disable=SC2086
			(cd "$tmp" && "$SPATCH" --very-quiet -D report $args \
				--sp-file "$cocci" "$cname.c") 2>/dev/null |
				grep -v '^warning' | sort >"$tmp/$cname.out"
			sort "$case_.report" | diff -u - "$tmp/$cname.out" >"$tmp/diff"
			st=$?
			# context and org must mark as many places as report
			want=$(wc -l <"$case_.report")
			for m in context org; do
				grep -q "^virtual $m\$" "$cocci" || continue
				# shellcheck disable=SC2086
				got=$(cd "$tmp" && "$SPATCH" --very-quiet -D $m $args \
					--sp-file "$cocci" "$cname.c" 2>/dev/null |
					grep -c -E '^(-[^-]|\* TODO)')
				[ "$got" = "$want" ] ||
					{ echo "-D $m marks $got, report $want" >>"$tmp/diff"; st=1; }
			done
		else
			echo "# no .res or .report for $c" >"$tmp/diff"; st=1
		fi
		[ $st = 0 ] || sed 's/^/# /' "$tmp/diff"
		result $st "$name/$cname"
	done
done
# Kconfig helper: tests/irq_poll_kconfig/<case>/{args,in/,out/}
for c in "$here"/tests/irq_poll_kconfig/*/; do
	[ -d "$c" ] || continue
	cname=$(basename "$c")
	rm -rf "$tmp/k"; cp -r "$c/in" "$tmp/k"
	# shellcheck disable=SC2046
	"$here/irq_poll_kconfig.sh" -C "$tmp/k" $(cat "$c/args") >"$tmp/log" 2>&1
	got=$? want=0
	[ -e "$c/status" ] && want=$(cat "$c/status")
	st=0
	[ "$got" = "$want" ] || { echo "exit status $got, expected $want" >>"$tmp/log"; st=1; }
	diff -ru "$c/out" "$tmp/k" >"$tmp/diff" 2>&1 || st=1
	if [ -e "$c/messages" ]; then
		while IFS= read -r m; do
			grep -qF -- "$m" "$tmp/log" ||
				{ echo "missing message: $m" >>"$tmp/diff"; st=1; }
		done <"$c/messages"
	fi
	[ $st = 0 ] || sed 's/^/# /' "$tmp/log" "$tmp/diff"
	result $st "irq_poll_kconfig/$cname"
done
# fold NAME STATUS FILE: "ok - X"/"not ok - X" lines of FILE become results;
# "# " lines are shown (the "#   " detail lines only with -v).  A crash, or
# no result at all, is a failure of NAME.
fold() {
	local line k=0
	while IFS= read -r line; do
		case $line in
		"ok - "*) result 0 "${line#ok - }"; k=$((k + 1)) ;;
		"not ok - "*) result 1 "${line#not ok - }"; k=$((k + 1)) ;;
		"#   "*|"# "*": conversions/"*) [ $verbose = 0 ] || echo "$line" ;;
		*) echo "# ${line#\# }" ;;
		esac
	done <"$3"
	if [ $k = 0 ] || { [ "$2" != 0 ] && ! grep -q '^not ok - ' "$3"; }; then
		result 1 "$1 (exit status $2)"
	fi
}
# The conversions against the script's output on the pristine drivers.
"$here/compare-conversions.py" "$pristine" >"$tmp/compare" 2>&1
fold compare-conversions.py $? "$tmp/compare"
if [ -n "$patched" ]; then
	"$here/coccicheck-report.sh" "$patched" >"$tmp/coccicheck" 2>&1
	fold coccicheck-report.sh $? "$tmp/coccicheck"
	"$here/check-drivers.sh" "$patched" >"$tmp/devset" 2>&1
	fold check-drivers.sh $? "$tmp/devset"
fi
echo "$pass passed, $fail failed"
[ $fail = 0 ]
