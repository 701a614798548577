#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# The patch series: generate it from the sources, check it is current, apply it.
#
# Usage: tests/series.sh gen [DIR]   write the series (default: patches/)
#        tests/series.sh check       fail if patches/ differs from what gen would write
#        tests/series.sh apply       reset the work tree to pristine and git am patches/
#        tests/series.sh export COMPONENT BASE TIP
#                                    write COMPONENT's SERIES, commit messages and diffs
#                                    from the commits BASE..TIP of the work repository
#
# The series is described by series.conf (components in order) and each component's
# SERIES file (docs-dev/series-format.md).  gen builds the commits with plumbing in a
# private index of the work repository (no checkout, so the build tree is not touched),
# with fixed dates, then runs git format-patch with a cover letter taken from
# cover-letter.txt.  Author and Signed-off-by are IRQP_IDENTITY ("Name <email>", also
# a make variable), else this checkout's git config user.name/user.email, else
# "irq-poll developers <irq-poll@example.org>": the same sources and identity always
# give byte-identical patches.  check regenerates with the identity patches/ carries,
# so it tells stale content, not who ran it.
set -eu
. "$(dirname "$0")/lib.sh"

GEN_BRANCH=irqp-series
COVER=$IRQP_TOP/cover-letter.txt
FALLBACK_IDENTITY="irq-poll developers <irq-poll@example.org>"

# identity: "Name <email>" for Author and Signed-off-by (see Usage).
identity()
{
	local name email
	if [ -n "${IRQP_IDENTITY:-}" ]; then
		echo "$IRQP_IDENTITY"
		return
	fi
	# lib.sh hides the user's git configuration from the work repository; ask
	# this checkout's own.
	name=$(env -u GIT_CONFIG_GLOBAL -u GIT_CONFIG_NOSYSTEM git -C "$IRQP_TOP" config user.name)
	email=$(env -u GIT_CONFIG_GLOBAL -u GIT_CONFIG_NOSYSTEM git -C "$IRQP_TOP" config user.email)
	if [ -n "$name" ] && [ -n "$email" ]; then
		echo "$name <$email>"
	else
		echo "$FALLBACK_IDENTITY"
	fi
}

git_w()
{
	git -C "$WORKTREE" "$@"
}

# commit_step MSG: commit the private index on top of $parent, signed off by $ident.
commit_step()
{
	local msg=$1 tree
	[ -f "$msg" ] || die "commit message $msg missing"
	grep -q '^Signed-off-by:' "$msg" &&
		die "$msg: no Signed-off-by in message files, gen adds it"
	tree=$(git_w write-tree)
	# {fig:KEY} quotes become the figure of results/figures.txt (tests/figures.py)
	python3 "$IRQP_TOP/tests/figures.py" expand "$msg" >/dev/null || die "$msg: unknown figure"
	parent=$({ python3 "$IRQP_TOP/tests/figures.py" expand "$msg"; printf '\nSigned-off-by: %s\n' "$ident"; } |
		git_w commit-tree "$tree" -p "$parent")
	nsteps=$((nsteps + 1))
}

gen()
{
	local out=${1:-$IRQP_TOP/patches} comp verb a b msg= mode email
	ident=${2:-$(identity)}
	case "$ident" in
	*" <"*@*">") ;;
	*) die "identity '$ident' is not \"Name <email>\"" ;;
	esac
	export GIT_AUTHOR_NAME="${ident% <*}" GIT_COMMITTER_NAME="${ident% <*}"
	email=${ident##*<}
	export GIT_AUTHOR_EMAIL="${email%>}" GIT_COMMITTER_EMAIL="${email%>}"
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
			final)
				# $a must be what the patches so far made of it
				b=${b:-$a}
				git_w cat-file -p ":$b" | cmp -s - "$IRQP_TOP/$comp/$a" ||
					die "$comp/$a differs from $b after its patches: export again (docs-dev/series-format.md)" ;;
			*)
				die "$comp/SERIES: unknown line '$verb $a'" ;;
			esac
		done <"$IRQP_TOP/$comp/SERIES"
	done <"$IRQP_TOP/series.conf"
	[ -n "$msg" ] && commit_step "$msg"
	[ "$nsteps" -gt 0 ] || die "series.conf describes no patch"
	unset GIT_INDEX_FILE

	git_w update-ref "refs/heads/$GEN_BRANCH" "$parent"
	python3 "$IRQP_TOP/tests/figures.py" expand "$COVER" >/dev/null || die "$COVER: unknown figure"
	git_w config "branch.$GEN_BRANCH.description" "$(python3 "$IRQP_TOP/tests/figures.py" expand "$COVER")"
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
	local tmp who
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/irqp-check.XXXXXX")
	who=$(python3 -c 'import email, sys
from email.header import decode_header, make_header
m = email.message_from_file(open(sys.argv[1]))
print(" ".join(str(make_header(decode_header(m["From"]))).split()))' \
		"$IRQP_TOP"/patches/0001-*.patch 2>/dev/null)
	(gen "$tmp/patches" "${who:-$(identity)}" >/dev/null)
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
	git_w clean -fdqx
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

# export COMPONENT BASE TIP: one patch per commit of BASE..TIP in the work repository:
# COMPONENT/commits/NNNN-<subject>.txt (message without Signed-off-by),
# COMPONENT/patches/NNNN-<subject>.diff, and a new SERIES; every other file of the
# component (the library's files at their kernel-tree paths, for reading) is refreshed
# from TIP and checked by a "final" line.
export_comp()
{
	local comp=$1 base=$2 tip=$3 dir c n=0 slug f
	dir=$IRQP_TOP/$comp
	[ -f "$dir/SERIES" ] || die "$comp: no SERIES"
	[ -n "$(git_w rev-list "$base..$tip")" ] || die "$base..$tip: no commits"
	rm -rf "$dir/commits" "$dir/patches"
	mkdir -p "$dir/commits" "$dir/patches"
	{
		echo "# Generated by tests/series.sh export $comp: one patch per line pair;"
		echo "# \"final\" lines check the files kept here for reading against the series."
	} >"$dir/SERIES.new"
	for c in $(git_w rev-list --reverse "$base..$tip"); do
		n=$((n + 1))
		slug=$(printf '%04d-%s' $n "$(git_w log -1 --format=%f "$c" | cut -c1-52)")
		git_w log -1 --format=%B "$c" | sed '/^Signed-off-by:/d' |
			sed -e :a -e '/^\n*$/{$d;N;ba' -e '}' >"$dir/commits/$slug.txt"
		git_w diff --no-renames --full-index "$c^" "$c" >"$dir/patches/$slug.diff"
		printf 'patch commits/%s.txt\napply patches/%s.diff\n\n' "$slug" "$slug" \
			>>"$dir/SERIES.new"
	done
	for f in $(cd "$dir" && find . -type f ! -name SERIES ! -name SERIES.new \
		! -name README.md ! -path './commits/*' ! -path './patches/*' \
		! -path './diffs/*' | sed 's|^\./||' | sort); do
		if git_w cat-file -e "$tip:$f" 2>/dev/null; then
			git_w show "$tip:$f" >"$dir/$f"
			echo "final $f" >>"$dir/SERIES.new"
		fi
	done
	mv "$dir/SERIES.new" "$dir/SERIES"
	echo "export: $n patches of $comp written"
}

case "${1:-}" in
gen) gen "${2:-}" ;;
export) [ $# = 4 ] || die "usage: tests/series.sh export COMPONENT BASE TIP"
	export_comp "$2" "$3" "$4" ;;
check) check ;;
apply) apply ;;
*) sed -n 's/^# Usage: /Usage: /p; s/^#        /       /p' "$0" >&2; exit 2 ;;
esac
