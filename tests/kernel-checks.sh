#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Static checks of the series, as a maintainer would run them before applying it.
#
# Usage: tests/kernel-checks.sh     prints "ok NAME" / "not ok NAME" lines
#
#   checkpatch.<patch>     scripts/checkpatch.pl --strict: 0 errors, warnings, checks.
#                          UNKNOWN_COMMIT_ID is ignored: the tarball tree has no git
#                          history, so every upstream commit id looks unknown; and
#                          per patch, tests/checkpatch.ignore (each with its reason).
#   kernel-doc.<file>      scripts/kernel-doc -v -none on the library's C files and
#                          headers: no output.
#   sparse-w1.<object>     the library's objects and the sample driver with W=1 and
#                          sparse (C=2): no warning.
#   w1-nokunit.<object>    the library with W=1 and CONFIG_KUNIT off: no warning.
#   users.<object>         every in-tree user of irq_poll compiles unchanged.
#   bisect.<n>             patch n builds on its own (Kconfig parses, the C files it
#                          adds or changes compile).
# Needs the series applied to the work tree (tests/series.sh apply).
set -u
. "$(dirname "$0")/lib.sh"

OUT=$BUILD_DIR/out/users
log=$BUILD_DIR/out/kernel-checks.log
mkdir -p "$BUILD_DIR/out"
: >"$log"

# checkpatch's SPDX check runs scripts/spdxcheck.py with "env python3", which must be
# Debian's (python3-ply, python3-git), not a python3 earlier in PATH.
cpath=/usr/bin:$PATH
for p in "$IRQP_TOP"/patches/0*.patch; do
	name=$(basename "$p" .patch)
	case "$name" in 0000-cover-letter) continue ;; esac
	subj=$(sed -n 's/^Subject: \[PATCH[^]]*\] //p' "$p" | head -n 1)
	ignore=UNKNOWN_COMMIT_ID
	while IFS='|' read -r key type _; do
		case "$key" in ''|'#'*) continue ;; esac
		case "$subj" in *"$key"*) ignore="$ignore,$type" ;; esac
	done <"$IRQP_TOP/tests/checkpatch.ignore"
	out=$(cd "$WORKTREE" && PATH=$cpath scripts/checkpatch.pl --strict \
		--ignore "$ignore" "$p" 2>&1)
	if printf '%s\n' "$out" | grep -q '^total: 0 errors, 0 warnings, 0 checks'; then
		echo "ok checkpatch.${name:0:4}"
	else
		printf '%s\n' "$out" | grep -E -A4 '^(ERROR|WARNING|CHECK)' | head -n 30 | sed 's/^/# /'
		printf '%s\n' "$out" | grep -E '^total:|Traceback' | sed 's/^/# /'
		echo "not ok checkpatch.${name:0:4}"
	fi
done

libfiles=$(cd "$IRQP_TOP/lib-irqpoll" && find lib include -name '*.[ch]' | sort)
for f in $libfiles; do
	out=$(cd "$WORKTREE" && scripts/kernel-doc -v -none "$f" 2>&1 | grep -v -E '(^| )info: Scanning doc for|^Scanning doc for')
	if [ -z "$out" ]; then
		echo "ok kernel-doc.$f"
	else
		printf '%s\n' "$out" | head -n 20 | sed 's/^/# /'
		echo "not ok kernel-doc.$f"
	fi
done

if ! "$IRQP_TOP/tests/build-kernel.sh" users >>"$log" 2>&1; then
	tail -n 20 "$log" | sed 's/^/# /'
	echo "not ok users.configure"
	exit 1
fi
umake()
{
	make -C "$WORKTREE" O="$OUT" -j"$JOBS" CC="ccache gcc" "$@"
}

# silent NAME OBJ [MAKE ARGS...]: rebuild OBJ; "ok NAME" if make printed no warning
# or error.
silent()
{
	local name=$1 o=$2 out rc warn
	shift 2
	rm -f "$OUT/$o"
	out=$(umake "$@" "$o" 2>&1)
	rc=$?
	printf '%s\n' "$out" >>"$log"
	warn=$(printf '%s\n' "$out" | grep -E 'warning:|error:')
	if [ $rc = 0 ] && [ -z "$warn" ]; then
		echo "ok $name"
	else
		printf '%s\n' "$warn" | head -n 20 | sed 's/^/# /'
		echo "not ok $name"
	fi
}

# The library without KUnit (distribution configs): test hooks must not break the
# build or leave unused functions.  The users tree has KUnit on; a header included
# after the kernel's own config header turns it off for this one compile.
nokunit=$BUILD_DIR/out/nokunit.h
printf '#undef CONFIG_KUNIT\n#undef CONFIG_KUNIT_MODULE\n' >"$nokunit"
silent w1-nokunit.lib/irq_poll.o lib/irq_poll.o W=1 KCFLAGS="-include $nokunit"
rm -f "$OUT/lib/irq_poll.o"

# The library's objects and the sample driver: W=1 and sparse must be silent.  C=2
# runs sparse even on up-to-date objects; all are rebuilt so their warnings are seen
# every time.  (The converted drivers are not W=1 clean before our patches.)
for o in $(cd "$IRQP_TOP/lib-irqpoll" && find lib -name '*.c' | sort | sed 's/\.c$/.o/') \
	samples/irq_poll/virtio_net_irq_poll.o; do
	silent "sparse-w1.$o" "$o" W=1 C=2
done

# In-tree users: every pristine C file under drivers/ that calls the 6.1 API, except
# cxlflash (powerpc only).
users=$(git -C "$WORKTREE" grep -l -E '\birq_poll_(init|sched|complete|enable|disable)\(' \
	pristine -- 'drivers/*.c' | sed 's/^pristine://' | grep -v '^drivers/scsi/cxlflash/' | sort)
[ -n "$users" ] || { echo "not ok users.found"; exit 1; }
for c in $users; do
	o=${c%.c}.o
	if out=$(umake "$o" 2>&1); then
		echo "ok users.$o"
	else
		printf '%s\n' "$out" | grep -E 'error' | head -n 10 | sed 's/^/# /'
		echo "not ok users.$o"
	fi
	printf '%s\n' "$out" >>"$log"
done

# Bisectability: every patch builds on its own.  A second worktree of the work
# repository steps through the applied commits; at each one Kconfig must still parse
# (olddefconfig) and every C file the commit adds or changes must compile, as must
# the library itself whenever the commit touches its header.
BIS=$SRC_DIR/bisect
BOUT=$BUILD_DIR/out/bisect
if ! [ -d "$BIS" ]; then
	git -C "$WORKTREE" worktree prune
	git -C "$WORKTREE" worktree add -q --detach "$BIS" pristine >>"$log" 2>&1 ||
		{ echo "not ok bisect.worktree"; exit 1; }
fi
mkdir -p "$BOUT"
bmake()
{
	make -C "$BIS" O="$BOUT" -j"$JOBS" CC="ccache gcc" "$@"
}
for c in $(git -C "$WORKTREE" rev-list --reverse pristine..HEAD); do
	subj=$(git -C "$WORKTREE" log -1 --format=%s "$c")
	n=$(git -C "$WORKTREE" rev-list --count "pristine..$c")
	name=$(printf 'bisect.%04d' "$n")
	git -C "$BIS" checkout -q -f --detach "$c" || { echo "not ok $name"; continue; }
	cp "$OUT/.config" "$BOUT/.config"
	objs=$(git -C "$WORKTREE" diff-tree --no-commit-id --name-only -r --diff-filter=AM "$c" |
		sed -n 's/\.c$/.o/p')
	git -C "$WORKTREE" diff-tree --no-commit-id --name-only -r "$c" |
		grep -q '^include/linux/irq_poll.h$' && objs="$objs lib/irq_poll.o"
	if out=$(bmake olddefconfig 2>&1 && { [ "$n" -gt 1 ] || bmake modules_prepare; } 2>&1 &&
	   { [ -z "$objs" ] || bmake $objs; } 2>&1); then
		echo "ok $name # ${objs:-no C files}; $subj"
	else
		printf '%s\n' "$out" | grep -E 'error|Error' | head -n 10 | sed 's/^/# /'
		echo "not ok $name # $subj"
	fi
	printf '%s\n' "$out" >>"$log"
done
