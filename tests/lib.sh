# SPDX-License-Identifier: GPL-2.0
# Shared helpers for the irq-poll host scripts.  Sourced, not run.
#
# Every long step goes through stage(): it prints "[stage k/n] what (elapsed)" so a
# person watching a cold run knows where it is.  die() names the failing step and, when
# given, the log file to read.

IRQP_TOP=${IRQP_TOP:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
BUILD_DIR=${BUILD_DIR:-$HOME/.cache/irq-poll}
TARBALL=${TARBALL:-/usr/src/linux-source-6.1.tar.xz}
JOBS=${JOBS:-$(nproc)}
V=${V:-0}

SRC_DIR=$BUILD_DIR/src
PRISTINE=$SRC_DIR/pristine
WORKTREE=$SRC_DIR/linux
CCACHE_DIR=${CCACHE_DIR:-$BUILD_DIR/ccache}
export CCACHE_DIR

# Fixed identity and dates: the generated series and the work tree commits must not
# depend on who runs them or when.
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME="irq-poll developers" GIT_AUTHOR_EMAIL="irq-poll@example.org"
export GIT_COMMITTER_NAME="irq-poll developers" GIT_COMMITTER_EMAIL="irq-poll@example.org"
export GIT_AUTHOR_DATE="2026-12-01T00:00:00+0000" GIT_COMMITTER_DATE="2026-12-01T00:00:00+0000"

: "${IRQP_T0:=$(date +%s)}"
export IRQP_T0

elapsed()
{
	local s=$(( $(date +%s) - IRQP_T0 ))
	printf '%dm%02ds' $((s / 60)) $((s % 60))
}

# stage K N "what": progress line for long steps.
stage()
{
	printf '[stage %s/%s] %s (elapsed %s)\n' "$1" "$2" "$3" "$(elapsed)"
}

info()
{
	printf '  %s\n' "$*"
}

die()
{
	printf 'ERROR: %s\n' "$1" >&2
	[ -n "${2:-}" ] && printf '       see %s\n' "$2" >&2
	exit 1
}

require_command()
{
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 ||
			die "required command '$c' not found (run 'make deps')"
	done
}

# run_logged LOG CMD...: run quietly into LOG unless V=1; on failure show its tail.
run_logged()
{
	local log=$1
	shift
	if [ "$V" = 1 ]; then
		"$@" 2>&1 | tee "$log"
		return "${PIPESTATUS[0]}"
	fi
	if ! "$@" >"$log" 2>&1; then
		tail -n 30 "$log" >&2
		return 1
	fi
}
