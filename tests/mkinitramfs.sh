#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Build the guest initramfs for one kernel with the tree's usr/gen_init_cpio.
#
# Usage: tests/mkinitramfs.sh perf|debug|kasan
#
# Contents: Debian's busybox-static with its applet links, fio and iperf3 with every
# shared library ldd names, static test helpers (tests/guest-tools/), the guest scripts (tests/guest/ -> /irqp/) with /init, and
# the kernel's modules.  Written uncompressed to $BUILD_DIR/out/<kind>/initramfs.cpio:
# unpacking is cheap, decompressing under TCG is not.
set -eu
. "$(dirname "$0")/lib.sh"

kind=${1:-}
case "$kind" in perf|debug|kasan) ;; *) die "usage: $0 perf|debug|kasan" ;; esac
OUT=$BUILD_DIR/out/$kind
[ -d "$OUT/modroot/lib/modules" ] || die "no modules for the $kind kernel: build it first"
BUSYBOX=${BUSYBOX:-/bin/busybox}
require_command fio iperf3 ethtool ldd
[ -x "$BUSYBOX" ] && "$BUSYBOX" --list | grep -qx sh ||
	die "static busybox not found at $BUSYBOX (package busybox-static)"
if ! [ -x "$OUT/usr/gen_init_cpio" ]; then
	make -s -C "$WORKTREE" O="$OUT" usr/gen_init_cpio >/dev/null ||
		die "cannot build usr/gen_init_cpio"
fi

list=$OUT/initramfs.list
dirs=
adddir()
{
	local d=$1
	case " $dirs " in *" $d "*) return ;; esac
	[ "$d" = / ] || adddir "$(dirname "$d")"
	[ "$d" = / ] && return
	dirs="$dirs $d"
	echo "dir $d 755 0 0" >>"$list"
}
addfile() # addfile DEST SRC MODE
{
	adddir "$(dirname "$1")"
	echo "file $1 $2 $3 0 0" >>"$list"
}

: >"$list"
for d in /dev /proc /sys /tmp /run /mnt /results /sbin /usr/bin /usr/sbin; do adddir $d; done
echo "nod /dev/console 600 0 0 c 5 1" >>"$list"
echo "nod /dev/null 666 0 0 c 1 3" >>"$list"

addfile /bin/busybox "$BUSYBOX" 755
for a in $("$BUSYBOX" --list-full); do
	[ "$a" = bin/busybox ] && continue
	adddir "/$(dirname "$a")"
	echo "slink /$a /bin/busybox 777 0 0" >>"$list"
done

# fio, iperf3 and ethtool with their libraries; the loader at its canonical path too.
for bin in fio iperf3 ethtool; do
	addfile "/usr/bin/$bin" "$(command -v $bin)" 755
	ldd "$(command -v $bin)" | awk '/=> \// {print $3} /^\t\/lib/ {print $1}'
done | sort -u | while read -r lib; do
	addfile "$lib" "$(readlink -f "$lib")" 755
done >/dev/null
# (addfile inside the pipeline wrote to $list; dirs there were not remembered, so
# dedupe directory lines below.)

# Small static test helpers (tests/guest-tools/*.c), built here for the guest.
mkdir -p "$OUT/guest-tools"
for c in "$IRQP_TOP"/tests/guest-tools/*.c; do
	[ -f "$c" ] || continue
	t=$OUT/guest-tools/$(basename "$c" .c)
	gcc -static -O2 -Wall -Werror -o "$t" "$c" || die "cannot build guest tool $c"
	addfile "/usr/bin/$(basename "$t")" "$t" 755
done

addfile /init "$IRQP_TOP/tests/guest/init" 755
for f in $(cd "$IRQP_TOP/tests/guest" && find . -type f | sort); do
	addfile "/irqp/${f#./}" "$IRQP_TOP/tests/guest/$f" 755
done

(cd "$OUT/modroot" && find lib -type d | sort) | while read -r d; do
	echo "dir /$d 755 0 0"
done >>"$list"
(cd "$OUT/modroot" && find lib -type f | sort) | while read -r f; do
	echo "file /$f $OUT/modroot/$f 644 0 0"
done >>"$list"

# Directory lines may repeat (pipelines above run in subshells): keep the first of each.
awk '!($1 == "dir" && seen[$2]++)' "$list" >"$list.tmp" && mv "$list.tmp" "$list"
"$OUT/usr/gen_init_cpio" "$list" >"$OUT/initramfs.cpio" ||
	die "gen_init_cpio failed" "$list"
info "initramfs: $(du -m "$OUT/initramfs.cpio" | cut -f1) MiB"
