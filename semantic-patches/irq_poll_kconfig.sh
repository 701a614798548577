#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Kconfig half of the irq_poll semantic patches.
#
# Usage: irq_poll_kconfig.sh [-C TREE] path/to/file.[co]
#            add "select IRQ_POLL" to the Kconfig entry that builds the
#            object (found through obj-$(CONFIG_X) += file.o, or through a
#            composite module: obj-$(CONFIG_X) += mod.o, mod-y += file.o)
#        irq_poll_kconfig.sh [-C TREE] --migrate [DIR...]
#            "select BLK_IOPOLL" -> "select IRQ_POLL" in DIR's Kconfig files
#            (default: the whole tree)
#
# Idempotent: an entry that already selects IRQ_POLL is left alone.
# Exit status: 0 done (or nothing to do), 1 entry not found, 2 usage.
#
# Copyright: (C) 2026 irq-poll developers
set -eu

tree=.
migrate=0
usage() { sed -n '5,14s/^# \{0,1\}//p' "$0" >&2; exit 2; }
while [ $# -gt 0 ]; do
	case $1 in
	-C) [ $# -ge 2 ] || usage; tree=$2; shift 2 ;;
	--migrate) migrate=1; shift ;;
	-h|--help) usage ;;
	-*) usage ;;
	*) break ;;
	esac
done
cd "$tree"

if [ $migrate = 1 ]; then
	[ $# -gt 0 ] || set -- .
	find "$@" -name 'Kconfig*' -type f -print0 |
		xargs -0 -r grep -l -E '^[[:space:]]*select[[:space:]]+BLK_IOPOLL\b' |
		while read -r k; do
			sed -i -E 's/^([[:space:]]*select[[:space:]]+)BLK_IOPOLL\b/\1IRQ_POLL/' "$k"
			echo "$k: select BLK_IOPOLL -> select IRQ_POLL"
		done
	exit 0
fi

[ $# = 1 ] || usage
src=$1
dir=$(dirname "$src")
obj=$(basename "$src"); obj=${obj%.[co]}.o
mk=$dir/Makefile
[ -f "$mk" ] || mk=$dir/Kbuild
[ -f "$mk" ] || { echo "$0: no Makefile in $dir" >&2; exit 1; }

# Makefile lines joined across backslash continuations.
joined=$(sed -e ':a' -e '/\\$/N; s/\\\n/ /; ta' "$mk")
# Pieces of the Makefile regular expressions below.
ws='[[:space:]]'
assign="$ws*[+:]?="
sym_of() {	# sym_of OBJ: CONFIG_ symbol of obj-$(CONFIG_X) += ... OBJ ...
	local re="^$ws*obj-\\\$\\(CONFIG_([A-Za-z0-9_]+)\\)$assign"
	re="$re(.*$ws)?${1//./\\.}($ws.*)?$"
	printf '%s\n' "$joined" | sed -n -E "s/$re/\\1/p" | head -1
}
sym=$(sym_of "$obj")
if [ -z "$sym" ]; then
	# composite object: mod-y / mod-objs / mod-$(CONFIG_..) += obj
	re="^$ws*([A-Za-z0-9_]+)-(y|objs|\\\$\\(CONFIG_[A-Za-z0-9_]+\\))$assign"
	re="$re(.*$ws)?${obj//./\\.}($ws.*)?$"
	mod=$(printf '%s\n' "$joined" | sed -n -E "s/$re/\\1/p" | head -1)
	[ -n "$mod" ] && sym=$(sym_of "$mod.o")
fi
[ -n "$sym" ] || { echo "$0: no obj-\$(CONFIG_...) builds $obj in $mk" >&2; exit 1; }

# The Kconfig file defining the symbol: this directory, then its parents.
kc=
d=$dir
while :; do
	for k in "$d"/Kconfig*; do
		[ -f "$k" ] || continue
		if grep -q -E "^[[:space:]]*(menu)?config[[:space:]]+$sym[[:space:]]*$" "$k"; then
			kc=$k; break 2
		fi
	done
	[ "$d" = . ] || [ "$d" = / ] && break
	d=$(dirname "$d")
done
[ -n "$kc" ] || { echo "$0: config $sym not found in a Kconfig above $dir" >&2; exit 1; }

# Insert after the entry's type line (first line of the entry that is
# indented), unless the entry already selects IRQ_POLL.
kw='config|menuconfig|menu|endmenu|choice|endchoice|comment|if|endif|source'
if awk -v sym="$sym" -v kw="$kw" '
	$0 ~ "^[ \t]*(menu)?config[ \t]+" sym "[ \t]*$" { inent = 1; next }
	inent && $0 ~ "^[ \t]*(" kw ")([ \t]|$)" { inent = 0 }
	inent && $0 ~ "^[ \t]*select[ \t]+IRQ_POLL([ \t]|$)" { found = 1 }
	END { exit !found }' "$kc"; then
	echo "$kc: config $sym already selects IRQ_POLL"
	exit 0
fi
awk -v sym="$sym" '
	{ print }
	$0 ~ "^[ \t]*(menu)?config[ \t]+" sym "[ \t]*$" { inent = 1; next }
	inent && $0 ~ "^[ \t]*(tristate|bool|def_tristate|def_bool)([ \t]|$)" {
		match($0, /^[ \t]*/); print substr($0, 1, RLENGTH) "select IRQ_POLL"; inent = 0
	}
' "$kc" >"$kc.irq_poll.tmp" && mv "$kc.irq_poll.tmp" "$kc"
echo "$kc: config $sym: select IRQ_POLL"
