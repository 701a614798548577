#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The patch series: generate it from the sources, check it is current, apply it.
#
# Usage: tests/series.sh gen [DIR]   write the series (default: patches/)
#        tests/series.sh check       fail if patches/ differs from what gen would write
#        tests/series.sh apply       reset the work tree to pristine and git am patches/
#
# The series is described by series.conf (components in order) and each component's
# SERIES file (docs-dev/series-format.md).  gen builds the commits with plumbing in a
# private index of the work repository (no checkout, so the build tree is not touched),
# with fixed identity and dates, then runs git format-patch with a cover letter taken
# from cover-letter.txt: the same sources always give byte-identical patches.
set -eu
. "$(dirname "$0")/lib.sh"

GEN_BRANCH=irqp-series
COVER=$IRQP_TOP/cover-letter.txt

git_w()
{
	git -C "$WORKTREE" "$@"
}

# commit_step MSG: commit the private index on top of $parent.
commit_step()
{
	local msg=$1 tree
	[ -f "$msg" ] || die "commit message $msg missing"
	tree=$(git_w write-tree)
	parent=$(git_w commit-tree "$tree" -p "$parent" -F "$msg")
	nsteps=$((nsteps + 1))
}

gen()
{
	local out=${1:-$IRQP_TOP/patches} comp verb a b msg= mode
	"$IRQP_TOP/tests/tree.sh"
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/irqp-series.XXXXXX")
	trap 'rm -rf "$tmp"' EXIT
	export GIT_INDEX_FILE=$tmp/index
	git_w read-tree pristine
	parent=$(git_w rev-parse 'pristine^{commit}')
	nsteps=0

	while read -r comp; do
		case "$comp" in ''|'#'*) continue ;; esac
		[ -f "$IRQP_TOP/$comp/SERIES" ] || die "series.conf names $comp, which has no SERIES file"
		while read -r verb a b; do
			case "$verb" in
			''|'#'*) continue ;;
			patch)
				[ -n "$msg" ] && commit_step "$msg"
				msg=$IRQP_TOP/$comp/$a ;;
			copy)
				[ -n "$msg" ] || die "$comp/SERIES: 'copy' before any 'patch'"
				[ -f "$IRQP_TOP/$comp/$a" ] || die "$comp/SERIES: $a missing"
				b=${b:-$a}
				mode=100644
				[ -x "$IRQP_TOP/$comp/$a" ] && mode=100755
				git_w update-index --add --cacheinfo \
					"$mode,$(git_w hash-object -w "$IRQP_TOP/$comp/$a"),$b" ;;
			apply)
				[ -n "$msg" ] || die "$comp/SERIES: 'apply' before any 'patch'"
				git_w apply --cached "$IRQP_TOP/$comp/$a" ||
					die "$comp/SERIES: $a does not apply"
				;;
			delete)
				git_w update-index --force-remove "$a" ;;
			*)
				die "$comp/SERIES: unknown line '$verb $a'" ;;
			esac
		done <"$IRQP_TOP/$comp/SERIES"
	done <"$IRQP_TOP/series.conf"
	[ -n "$msg" ] && commit_step "$msg"
	[ "$nsteps" -gt 0 ] || die "series.conf describes no patch"
	unset GIT_INDEX_FILE

	git_w update-ref "refs/heads/$GEN_BRANCH" "$parent"
	git_w config "branch.$GEN_BRANCH.description" "$(cat "$COVER")"
	rm -rf "$tmp/out"
	# core.abbrev fixed: git otherwise scales abbreviations with the object count,
	# and a fresh work repository would write other index lines.
	git_w -c core.abbrev=12 format-patch -q --cover-letter --cover-from-description=subject \
		--base=pristine --no-signature --subject-prefix=PATCH \
		-o "$tmp/out" "pristine..$GEN_BRANCH"
	rm -rf "$out"
	mkdir -p "$out"
	cp "$tmp"/out/*.patch "$out"/
	rm -rf "$tmp"
	echo "series: $nsteps patches + cover letter in $out"
}

check()
{
	local tmp
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/irqp-check.XXXXXX")
	(gen "$tmp/patches" >/dev/null)
	if ! diff -r "$tmp/patches" "$IRQP_TOP/patches" >"$tmp/diff" 2>&1; then
		head -n 40 "$tmp/diff"
		rm -rf "$tmp"
		die "patches/ is stale: run 'make patches' and commit the result"
	fi
	rm -rf "$tmp"
}

apply()
{
	local want have
	"$IRQP_TOP/tests/tree.sh"
	ls "$IRQP_TOP"/patches/0*.patch >/dev/null 2>&1 || die "patches/ is empty: run 'make patches'"
	# The cover letter never reaches git: only the patches decide the tree.
	want=$(ls "$IRQP_TOP"/patches/0*.patch | grep -v '/0000-cover-letter.patch$' |
		xargs cat | sha256sum | cut -d' ' -f1)
	have=$(cat "$SRC_DIR/applied" 2>/dev/null || true)
	if [ "$want" = "$have" ] && [ -z "$(git_w status --porcelain)" ]; then
		return 0
	fi
	echo "series: applying patches/ to $WORKTREE with git am"
	rm -f "$SRC_DIR/applied"
	git_w am --abort >/dev/null 2>&1 || true
	git_w checkout -q -f -B work pristine
	git_w clean -fdq
	local p
	for p in "$IRQP_TOP"/patches/0*.patch; do
		case "$p" in */0000-cover-letter.patch) continue ;; esac
		if ! git_w am -q --committer-date-is-author-date "$p" >"$SRC_DIR/am.log" 2>&1; then
			cat "$SRC_DIR/am.log" >&2
			git_w am --abort >/dev/null 2>&1 || true
			die "patch $(basename "$p") does not apply to pristine + the patches before it"
		fi
	done
	echo "$want" >"$SRC_DIR/applied"
	info "$(git_w rev-list --count pristine..HEAD) patches applied"
}

case "${1:-}" in
gen) gen "${2:-}" ;;
check) check ;;
apply) apply ;;
*) sed -n 's/^# Usage: /Usage: /p; s/^#        /       /p' "$0" >&2; exit 2 ;;
esac
