#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Unpack Debian's linux-source-6.1 outside the checkout, once per tarball.
#
# Usage: tests/tree.sh
#
# Result, under $BUILD_DIR/src:
#   pristine/  the tarball's tree, never modified (read-only reference)
#   linux/     a git repository whose first commit (tag "pristine") is that tree; the
#              series is applied to it with git am (tests/apply-series.sh)
#   stamp      sha256 of the tarball both were made from
# A changed tarball (new Debian upload) re-unpacks both.
set -eu
. "$(dirname "$0")/lib.sh"

[ -r "$TARBALL" ] || die "kernel source tarball $TARBALL missing (package linux-source-6.1; run 'make deps')"
mkdir -p "$SRC_DIR"
sum=$(sha256sum "$TARBALL" | cut -d' ' -f1)
if [ -f "$SRC_DIR/stamp" ] && [ "$(cat "$SRC_DIR/stamp")" = "$sum" ] &&
   [ -d "$PRISTINE" ] && git -C "$WORKTREE" rev-parse -q --verify pristine >/dev/null 2>&1; then
	exit 0
fi

echo "tree: unpacking $TARBALL into $SRC_DIR (about a minute)"
rm -rf "$PRISTINE" "$WORKTREE" "$SRC_DIR/stamp" "$SRC_DIR/unpack"
mkdir -p "$SRC_DIR/unpack"
tar -C "$SRC_DIR/unpack" -xf "$TARBALL"
top=$(ls "$SRC_DIR/unpack")
[ -f "$SRC_DIR/unpack/$top/Makefile" ] || die "unexpected tarball layout: $top"
mv "$SRC_DIR/unpack/$top" "$PRISTINE"
rmdir "$SRC_DIR/unpack"

echo "tree: creating the work repository $WORKTREE"
cp -a "$PRISTINE" "$WORKTREE"
chmod -R a-w "$PRISTINE"
cd "$WORKTREE"
git init -q -b work
# -f: the tarball is the reference, whatever its .gitignore files say.
git add -f -A .
git commit -q -m "linux-source-6.1 $(sed -n 's/^SUBLEVEL = //p' Makefile) (Debian), pristine"
git tag pristine
echo "$sum" >"$SRC_DIR/stamp"
