#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Development set of irq_poll_convert.cocci: convert drivers no test case
# was written from, and check what a user would get.
#
# Usage: check-drivers.sh PATCHED_TREE [USERS_BUILD_DIR]
#
#   PATCHED_TREE     git work tree with the series applied ($BUILD_DIR/src/linux)
#   USERS_BUILD_DIR  configured kernel build directory (make O=...) in which
#                    the drivers' Kconfig symbols are enabled; default
#                    $(dirname PATCHED_TREE)/../out/users, which "make check"
#                    configures from tests/kconfig/users.config in stage 3.
#                    Its .config is copied to a build directory of the scratch
#                    tree, $(dirname PATCHED_TREE)/../out/cocci-devset, which
#                    is prepared (olddefconfig, modules_prepare) when that
#                    .config changed; the users directory itself is not
#                    touched.
#
# For each driver of the table below: spatch runs on the file (and its
# local headers) in a scratch worktree of PATCHED_TREE (HEAD, detached,
# under $(dirname PATCHED_TREE)/cocci-devset; a driver the series converts,
# libahci or mptbase, is first put back to its 6.1 version, tag pristine,
# in a commit of that worktree); then
#   <driver>/convert     spatch succeeds and changes the file;
#   <driver>/checkpatch  scripts/checkpatch.pl --strict on the diff: no ERROR;
#   <driver>/static      the poll function counts work ("done++" inside the
#                        loop, "done < budget" in its condition), completes
#                        below the budget, returns the count, and takes with
#                        spin_lock_irqsave() every lock the handler held
#                        around the loop; the member and the init call exist;
#   <driver>/compile     the object builds with W=1 in USERS_BUILD_DIR, with
#                        no warning the unconverted file did not have.
# Prints "ok - NAME" / "not ok - NAME" and "# " notes (run-tests.sh folds
# them into its results).
#
# Copyright: (C) 2026 irq-poll developers
set -u

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tree=${1:?usage: check-drivers.sh PATCHED_TREE [USERS_BUILD_DIR]}
tree=$(cd "$tree" && pwd)
users=${2:-$(dirname "$tree")/../out/users}
SPATCH=${SPATCH:-spatch}
scratch=$(dirname "$tree")/cocci-devset
obj_dir=$(dirname "$tree")/../out/cocci-devset

# name|file|spatch arguments|Kconfig symbol|lock the handler holds ("" if none)
# libahci's port structure is struct ata_port in include/linux/libata.h:
# spatch reads it with --all-includes -I include.
DRIVERS='3w-sas|drivers/scsi/3w-sas.c|-D handler=twl_interrupt -D mask=TWL_MASK_INTERRUPTS -D unmask=TWL_UNMASK_INTERRUPTS|SCSI_3W_SAS|tw_dev->host->host_lock
3w-9xxx|drivers/scsi/3w-9xxx.c|-D handler=twa_interrupt -D mask=TW_DISABLE_INTERRUPTS -D unmask=TW_ENABLE_AND_CLEAR_INTERRUPTS|SCSI_3W_9XXX|tw_dev->host->host_lock
altera_ps2|drivers/input/serio/altera_ps2.c|-D handler=altera_ps2_rxint|SERIO_ALTERA_PS2|
arc_ps2|drivers/input/serio/arc_ps2.c|-D handler=arc_ps2_interrupt|SERIO_ARC_PS2|
libahci|drivers/ata/libahci.c|-D handler=ahci_multi_irqs_intr_hard -D drain=ahci_handle_port_interrupt --all-includes -I include|SATA_AHCI|ap->lock
mptbase|drivers/message/fusion/mptbase.c|-D handler=mpt_interrupt|FUSION|'

ok() { echo "ok - check-drivers/$1"; }
nok() { echo "not ok - check-drivers/$1"; }

# The scratch worktree is kept between runs (adding one costs minutes of
# I/O on a kernel tree) and reset to the patched tree's HEAD.
head=$(git -C "$tree" rev-parse HEAD)
if [ -d "$scratch" ] && git -C "$scratch" rev-parse -q --verify HEAD >/dev/null 2>&1; then
	git -C "$scratch" checkout -q --detach "$head" 2>/dev/null ||
		git -C "$scratch" checkout -q -f --detach "$head"
	git -C "$scratch" reset -q --hard "$head"
else
	git -C "$tree" worktree prune
	rm -rf "$scratch"
	if ! git -C "$tree" worktree add --detach "$scratch" "$head" >/dev/null 2>&1; then
		echo "# cannot add a worktree of $tree at $scratch"
		nok worktree
		exit 1
	fi
fi

kmake() {
	make -C "$scratch" O="$obj_dir" CC="${CC:-ccache gcc}" "$@"
}
have_users=0
if [ -f "$users/.config" ]; then
	mkdir -p "$obj_dir"
	if ! cmp -s "$users/.config" "$obj_dir/.config.users"; then
		cp "$users/.config" "$obj_dir/.config"
		if kmake olddefconfig >"$obj_dir/prepare.log" 2>&1 &&
		   kmake -j"${JOBS:-2}" modules_prepare >>"$obj_dir/prepare.log" 2>&1; then
			cp "$users/.config" "$obj_dir/.config.users"
			have_users=1
		else
			tail -5 "$obj_dir/prepare.log" | sed 's/^/#   /'
		fi
	else
		have_users=1
	fi
fi
[ $have_users = 1 ] || echo "# no configured build directory $users: compile results fail"

kbuild() {	# kbuild OBJ LOG: W=1 build of one object from the scratch tree
	# 3w-sas.c and mptbase.c have W=1 warnings of their own; CONFIG_WERROR
	# would stop at them before the comparison
	kmake W=1 KCFLAGS=-Wno-error "$1" >"$2" 2>&1
}

warnings() {	# the warning lines of a build log, without line numbers
	grep -E 'warning:' "$1" | sed -E 's/:[0-9]+:[0-9]+:/:/' | sort -u
}

while IFS='|' read -r name file args sym lock; do
	[ -n "$name" ] || continue
	dir=$(dirname "$file")
	obj=${file%.c}.o
	out=$obj_dir/logs/$name
	mkdir -p "$out"
	git -C "$scratch" checkout -q -- .
	# the series converts libahci and mptbase by hand: start from 6.1
	if grep -q irq_poll "$scratch/$file" && git -C "$scratch" rev-parse -q --verify pristine >/dev/null; then
		git -C "$scratch" checkout -q pristine -- "$dir"
		git -C "$scratch" -c user.name=irq-poll -c user.email=irq-poll@localhost \
			commit -qm "$name: 6.1" -- "$dir"
	fi
	# shellcheck disable=SC2086
	(cd "$scratch" && "$SPATCH" --very-quiet --no-includes --local-includes \
		--include-headers -D patch $args \
		--sp-file "$here/irq_poll_convert.cocci" --in-place "$file") \
		>"$out/spatch.log" 2>&1
	st=$?
	git -C "$scratch" diff >"$out/diff"
	if [ $st = 0 ] && [ -s "$out/diff" ]; then
		ok "$name/convert"
	else
		sed 's/^/#   /' "$out/spatch.log" | tail -5
		nok "$name/convert"
		continue
	fi
	grep 'irq_poll_convert:' "$out/spatch.log" | sed "s|^|# $name: |"
	# checkpatch: no ERROR
	(cd "$scratch" && scripts/checkpatch.pl --strict --no-tree --no-signoff \
		-q - <"$out/diff") >"$out/checkpatch" 2>&1
	if grep -q '^ERROR:' "$out/checkpatch"; then
		grep -A3 '^ERROR:' "$out/checkpatch" | sed 's/^/#   /' | head -20
		nok "$name/checkpatch"
	else
		ok "$name/checkpatch"
	fi
	# static: the budget counter, the lock, member and init
	poll=$(awk -v fn="${args#*handler=}" '
		BEGIN { sub(/ .*/, "", fn); fn = fn "_poll(" }
		index($0, "static int " fn) == 1 { on = 1 }
		on { print }
		on && /^}/ { exit }' "$scratch/$file")
	bad=
	echo "$poll" | grep -qE 'done\+\+;' || bad="$bad no-done++"
	case $args in
	*drain=*) ;;	# one call, counted once: no loop to bound
	*) echo "$poll" | grep -qE '(while|for) \(.*done < budget' || bad="$bad no-budget-test" ;;
	esac
	echo "$poll" | grep -qE 'irq_poll_complete_done\(iop, done\);' || bad="$bad no-complete"
	echo "$poll" | grep -qE 'return done;' || bad="$bad no-return"
	if [ -n "$lock" ]; then
		echo "$poll" | grep -qF "spin_lock_irqsave($lock, flags);" || bad="$bad no-lock"
		echo "$poll" | grep -qF "spin_unlock_irqrestore($lock, flags);" || bad="$bad no-unlock"
	fi
	grep -q '^+.*struct irq_poll iop;' "$out/diff" || bad="$bad no-member"
	grep -qE '_irq_poll_init\(' "$scratch/$file" || bad="$bad no-init"
	if [ -z "$bad" ]; then
		ok "$name/static"
	else
		echo "# $name:$bad"
		nok "$name/static"
	fi
	# W=1 compile: no new warning
	if [ $have_users = 0 ] || ! grep -qE "^CONFIG_$sym=[ym]" "$obj_dir/.config"; then
		echo "# $name: CONFIG_$sym not enabled in $obj_dir"
		nok "$name/compile"
		continue
	fi
	git -C "$scratch" stash -q
	kbuild "$obj" "$out/before.log"
	git -C "$scratch" stash pop -q
	# the same file again: make must see it as changed
	touch "$scratch/$file"
	if kbuild "$obj" "$out/after.log"; then
		warnings "$out/before.log" >"$out/w.before"
		warnings "$out/after.log" >"$out/w.after"
		if comm -13 "$out/w.before" "$out/w.after" | grep -q .; then
			comm -13 "$out/w.before" "$out/w.after" | sed 's/^/#   /' | head
			nok "$name/compile"
		else
			ok "$name/compile"
		fi
	else
		grep -E 'error|warning' "$out/after.log" | sed 's/^/#   /' | head
		nok "$name/compile"
	fi
done <<<"$DRIVERS"
exit 0
