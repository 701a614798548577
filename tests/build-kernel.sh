#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Configure and build one test kernel from the patched work tree, out of tree.
#
# Usage: tests/build-kernel.sh perf|debug|kasan
#        tests/build-kernel.sh users     configure only: debug + tests/kconfig/users.config,
#                                        for compile tests of single objects
#
# Config: the perf kernel (make run) is x86_64_defconfig + kvm_guest.config +
# tests/kconfig/base.config + perf.config, merged with scripts/kconfig/merge_config.sh;
# the kernels of make check are allnoconfig + tests/kconfig/small.config + net.config
# + debug.config (debug) or + kasan.config (kasan), only what their boots need.  Then
# every symbol the fragments ask for is checked to have landed (a silently dropped
# option is an error).  Output in $BUILD_DIR/out/<kind>: bzImage, modules installed
# under modroot/, build.log.  Compiles through ccache ($CCACHE_DIR).
set -eu
. "$(dirname "$0")/lib.sh"

kind=${1:-}
fraglist="$IRQP_TOP/tests/kconfig/base.config $IRQP_TOP/tests/kconfig/$kind.config"
# merge_config.sh -m: onto x86_64_defconfig; -n: onto allnoconfig
base="$WORKTREE/arch/x86/configs/x86_64_defconfig $WORKTREE/kernel/configs/kvm_guest.config"
mode=-m
case "$kind" in
perf) ;;
debug|kasan)
	# make check's kernels: small.config (+ net.config for debug) + <kind>.config
	fraglist="$IRQP_TOP/tests/kconfig/small.config"
	[ "$kind" = kasan ] || fraglist="$fraglist $IRQP_TOP/tests/kconfig/net.config"
	fraglist="$fraglist $IRQP_TOP/tests/kconfig/$kind.config"
	base=
	mode=-n ;;
users) fraglist="$IRQP_TOP/tests/kconfig/base.config $IRQP_TOP/tests/kconfig/debug.config
$IRQP_TOP/tests/kconfig/users.config" ;;
*) die "usage: $0 perf|debug|kasan|users" ;;
esac
require_command ccache gcc make
OUT=$BUILD_DIR/out/$kind
mkdir -p "$OUT"
frags="$base $fraglist"
# Extra fragments (e.g. a component's KUnit options) may be listed in KCONFIG_EXTRA.
for f in ${KCONFIG_EXTRA:-}; do frags="$frags $f"; done

kmake()
{
	make -C "$WORKTREE" O="$OUT" -j"$JOBS" CC="ccache gcc" \
		KBUILD_BUILD_TIMESTAMP="2026-12-01" KBUILD_BUILD_USER=irqpoll \
		KBUILD_BUILD_HOST=irqpoll "$@"
}

(cd "$WORKTREE" && scripts/kconfig/merge_config.sh $mode -O "$OUT" $frags) \
	>"$OUT/config.log" 2>&1 || die "merge_config.sh failed" "$OUT/config.log"
kmake olddefconfig >>"$OUT/config.log" 2>&1 || die "make olddefconfig failed" "$OUT/config.log"

# Every CONFIG_X=v and "# CONFIG_X is not set" of our fragments must be in .config.
bad=0
for f in $fraglist ${KCONFIG_EXTRA:-}; do
	while IFS= read -r line; do
		case "$line" in
		CONFIG_*=*)
			grep -qxF "$line" "$OUT/.config" || {
				echo "config: $f asks for $line, .config has: $(grep "^${line%%=*}=" "$OUT/.config" || echo 'not set')" >&2
				bad=1
			} ;;
		"# CONFIG_"*" is not set")
			sym=${line#\# }
			sym=${sym%% *}
			if grep -q "^$sym=" "$OUT/.config"; then
				echo "config: $f asks for $sym off, .config has $(grep "^$sym=" "$OUT/.config")" >&2
				bad=1
			fi ;;
		esac
	done <"$f"
done
[ "$bad" = 0 ] || die "kernel config for '$kind' lacks requested options" "$OUT/.config"

if [ "$kind" = users ]; then
	kmake modules_prepare >"$OUT/build.log" 2>&1 || die "modules_prepare failed" "$OUT/build.log"
	exit 0
fi

# Build in the background and report progress every 30 s.
kmake bzImage modules >"$OUT/build.log" 2>&1 &
pid=$!
while kill -0 "$pid" 2>/dev/null; do
	for _ in $(seq 30); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 1
	done
	kill -0 "$pid" 2>/dev/null &&
		info "$kind kernel: $(grep -c '^  CC' "$OUT/build.log") files compiled so far (elapsed $(elapsed))"
done
wait "$pid" || { grep -E 'error|Error' "$OUT/build.log" | head -n 20 >&2; die "$kind kernel build failed" "$OUT/build.log"; }
rm -rf "$OUT/modroot"
kmake INSTALL_MOD_PATH="$OUT/modroot" INSTALL_MOD_STRIP=1 modules_install \
	>>"$OUT/build.log" 2>&1 || die "modules_install failed" "$OUT/build.log"
cp "$OUT/arch/x86/boot/bzImage" "$OUT/bzImage"
info "$kind kernel: $(make -s -C "$WORKTREE" O="$OUT" kernelrelease 2>/dev/null) built ($(elapsed))"
