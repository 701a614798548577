#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# make kunit: the irq_poll KUnit suite alone, quickly, for library work.
#
# Usage: tests/kunit.sh [-o OVERLAY] [-f GLOB]
#   -o OVERLAY   take the library's files from OVERLAY (a copy of lib-irqpoll/,
#                e.g. with a mutation applied) instead of lib-irqpoll/
#   -f GLOB      run only the cases matching GLOB (kunit.py's filter_glob,
#                e.g. 'irq_poll.irq_poll_test_auto*')
# KUNIT_TIMEOUT (seconds, default 900) bounds the QEMU run.
#
# A worktree of the work repository ($BUILD_DIR/src/kunit) at the applied series gets
# the library's current sources (lib/, include/ of lib-irqpoll/, so edits are tested
# before 'make patches'), then tools/testing/kunit/kunit.py builds a small x86_64
# kernel from tests/kconfig/irq_poll.kunitconfig into $BUILD_DIR/out/kunit and runs
# it in QEMU (TCG, 2 CPUs).  Exit status: kunit.py's (0 when every case passed).
set -eu
. "$(dirname "$0")/lib.sh"

overlay=$IRQP_TOP/lib-irqpoll
filter=
while getopts o:f: opt; do
	case $opt in
	o) overlay=$OPTARG ;;
	f) filter=$OPTARG ;;
	*) sed -n 's/^# Usage: /Usage: /p' "$0" >&2; exit 2 ;;
	esac
done

"$IRQP_TOP/tests/series.sh" apply >/dev/null
KW=$SRC_DIR/kunit
if ! [ -d "$KW" ]; then
	git -C "$WORKTREE" worktree prune
	git -C "$WORKTREE" worktree add -q --detach "$KW" HEAD
fi
git -C "$KW" checkout -q -f --detach "$(git -C "$WORKTREE" rev-parse HEAD)"
git -C "$KW" clean -fdqx
(cd "$overlay" && find lib include -type f) | while read -r f; do
	mkdir -p "$KW/$(dirname "$f")"
	cp "$overlay/$f" "$KW/$f"
done

mkdir -p "$BUILD_DIR/out"
info "kunit.py: building and running the irq_poll suite (log: $BUILD_DIR/out/kunit/test.log)"
cd "$KW"
exec python3 tools/testing/kunit/kunit.py run --arch=x86_64 \
	--build_dir="$BUILD_DIR/out/kunit" \
	--kunitconfig="$IRQP_TOP/tests/kconfig/irq_poll.kunitconfig" \
	--jobs="$JOBS" --timeout="${KUNIT_TIMEOUT:-900}" \
	--qemu_args="-smp 2 -accel tcg,thread=multi" \
	--make_options CC="ccache gcc" ${filter:+"$filter"}
