#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# W=1 builds of the series' own objects for other architectures, with Debian's cross
# compilers: i386 (32-bit pointers and longs, 64-bit division), arm64 and riscv64
# (weakly ordered; riscv has no 1- or 2-byte xchg()/cmpxchg() in 6.1).  Objects only:
# each architecture gets a configure-only tree (its defconfig +
# tests/kconfig/cross.config, then "make prepare"), and only these objects compile:
# the library's C files, drivers/ata/libahci.o, drivers/message/fusion/mptbase.o and
# samples/irq_poll/virtio_net_irq_poll.o.
#
# Usage: tests/cross-checks.sh [ARCH...]   (default: i386 arm64 riscv64)
#        prints "ok NAME" / "not ok NAME" lines
#
#   cross.<arch>.configure   defconfig + cross.config (every requested symbol landed),
#                            make prepare
#   cross.<arch>.<object>    compiles with W=1; no error, and no warning on a line the
#                            series adds or changes (libahci.c and mptbase.c are not W=1
#                            clean in 6.1: their old warnings are shown, not counted)
# Needs the series applied to the work tree (tests/series.sh apply) and the cross
# compilers (gcc-i686-linux-gnu, gcc-aarch64-linux-gnu, gcc-riscv64-linux-gnu; make deps).
# Trees in $BUILD_DIR/out/cross-<arch>, log in $BUILD_DIR/out/cross-checks.log.
set -u
. "$(dirname "$0")/lib.sh"

log=$BUILD_DIR/out/cross-checks.log
mkdir -p "$BUILD_DIR/out"
: >"$log"
frag=$IRQP_TOP/tests/kconfig/cross.config
objs="$(cd "$IRQP_TOP/lib-irqpoll" && find lib -name '*.c' | sort | sed 's/\.c$/.o/')
drivers/ata/libahci.o drivers/message/fusion/mptbase.o samples/irq_poll/virtio_net_irq_poll.o"

# Lines the series adds or changes, per file: "path:line" for every such line, from
# the work tree's diff against pristine.
newlines=$BUILD_DIR/out/cross-newlines
git -C "$WORKTREE" diff -U0 pristine HEAD -- '*.c' '*.h' | awk '
	/^\+\+\+ b\// { f = substr($0, 7); next }
	/^@@ / { split($3, a, ","); s = substr(a[1], 2); n = (a[2] == "") ? 1 : a[2]
		for (i = 0; i < n; i++) print f ":" s + i }' >"$newlines"

check_arch()
{
	local arch=$1 cross defc out o res warn new
	case $arch in
	i386) cross=i686-linux-gnu- defc=arch/x86/configs/i386_defconfig ;;
	arm64) cross=aarch64-linux-gnu- defc=arch/arm64/configs/defconfig ;;
	riscv64) cross=riscv64-linux-gnu- defc=arch/riscv/configs/defconfig ;;
	*) echo "not ok cross.$arch.configure # unknown architecture"; return ;;
	esac
	local karch=$arch
	[ "$arch" = riscv64 ] && karch=riscv
	if ! command -v "${cross}gcc" >/dev/null 2>&1; then
		echo "# ${cross}gcc not found (run 'make deps')"
		echo "not ok cross.$arch.configure"
		return
	fi
	local OUT=$BUILD_DIR/out/cross-$arch
	mkdir -p "$OUT"
	xmake()
	{
		make -C "$WORKTREE" O="$OUT" ARCH="$karch" CROSS_COMPILE="$cross" \
			CC="ccache ${cross}gcc" -j"$JOBS" "$@"
	}
	# Configure and prepare once; a warm run only checks the config is unchanged.
	res=0
	{ (cd "$WORKTREE" && ARCH=$karch CROSS_COMPILE=$cross \
		scripts/kconfig/merge_config.sh -m -O "$OUT" "$defc" "$frag") &&
	  xmake olddefconfig; } >>"$log" 2>&1 || res=1
	if [ $res = 0 ]; then
		while IFS= read -r line; do
			case "$line" in
			CONFIG_*=*) grep -qxF "$line" "$OUT/.config" ||
				{ echo "# $arch: cross.config asks for $line, .config has:" \
					"$(grep "^${line%%=*}=" "$OUT/.config" || echo 'not set')"; res=1; } ;;
			"# CONFIG_"*" is not set")
				line=${line#\# }
				! grep -q "^${line%% *}=" "$OUT/.config" ||
					{ echo "# $arch: cross.config asks for ${line%% *} off"; res=1; } ;;
			esac
		done <"$frag"
	fi
	[ $res = 0 ] && { xmake prepare >>"$log" 2>&1 || { tail -n 10 "$log" | sed 's/^/# /'; res=1; }; }
	if [ $res != 0 ]; then
		echo "not ok cross.$arch.configure"
		return
	fi
	echo "ok cross.$arch.configure"
	for o in $objs; do
		rm -f "$OUT/$o"
		out=$(xmake W=1 "$o" 2>&1)
		res=$?
		printf '%s\n' "$out" >>"$log"
		warn=$(printf '%s\n' "$out" | grep -E '(warning|error):')
		# A warning counts when it points at a line the series added or changed.
		new=$(printf '%s\n' "$warn" | sed -n "s|^$WORKTREE/||; s|^\([^:]*:[0-9]*\):[0-9]*: warning:.*|&\t\1|p" |
			awk -F'\t' 'NR == FNR { want[$0] = 1; next } ($2 in want) { print $1 }' "$newlines" -)
		if [ $res = 0 ] && [ -z "$new" ]; then
			[ -n "$warn" ] && echo "# $arch $o: $(printf '%s\n' "$warn" | grep -c 'warning:') W=1 warning(s) on lines 6.1 already had"
			echo "ok cross.$arch.$o"
		else
			# the new warnings, each error, and where in the object's own source
			# an error from a macro or inline came from
			{ printf '%s\n' "$new"; printf '%s\n' "$warn" | grep 'error:'
			  printf '%s\n' "$out" | grep -E "${o%.o}\.c:[0-9]+:[0-9]+: note:"; } |
				grep . | sed "s|^$WORKTREE/||" | head -n 20 | sed 's/^/# /'
			echo "not ok cross.$arch.$o"
		fi
	done
}

for a in ${*:-i386 arm64 riscv64}; do
	check_arch "$a"
done
