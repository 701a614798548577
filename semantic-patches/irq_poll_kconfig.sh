#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# Kconfig half of the irq_poll semantic patches.
#
# Usage: irq_poll_kconfig.sh [-C TREE] path/to/file.[co]
#            add "select IRQ_POLL" to every Kconfig entry that links the
#            object (obj-$(CONFIG_X) += file.o, on any number of lines, or
#            a composite module: obj-$(CONFIG_X) += mod.o, mod-y += file.o)
#        irq_poll_kconfig.sh [-C TREE] --migrate [DIR...]
#            "select BLK_IOPOLL" -> "select IRQ_POLL" in DIR's Kconfig files
#            (default: the whole tree)
#
# Idempotent: an entry that already selects IRQ_POLL is left alone.
# Exit status: 0 done (or nothing to do), 1 no symbol links the object or
# an entry was not found (the others are still edited), 2 usage.
#
# Copyright: (C) 2026 irq-poll developers
set -eu

tree=.
migrate=0
usage() { sed -n '5,16s/^# \{0,1\}//p' "$0" >&2; exit 2; }
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
# lines_naming OBJ: the joined Makefile lines whose right-hand side names OBJ,
# as "LEFT-HAND SIDE" (e.g. "obj-$(CONFIG_X)", "foo-y").
lines_naming() {
	local re="^$ws*([A-Za-z0-9_-]+-(y|m|objs|\\\$\\(CONFIG_[A-Za-z0-9_]+\\)))$assign"
	re="$re(.*$ws)?${1//./\\.}($ws.*)?$"
	printf '%s\n' "$joined" | sed -n -E "s/$re/\\1/p"
}

# Every CONFIG_ symbol that links the object: obj-$(CONFIG_X) += OBJ on any
# number of lines (libahci.o: 18 AHCI drivers; mptbase.o: FUSION_SPI, _FC,
# _SAS), and, for a composite module (mod-y / mod-objs / mod-$(CONFIG_Y) +=
# OBJ), every obj-$(CONFIG_X) += mod.o, nested composites included.  Under
# mod-$(CONFIG_Y) the object is linked only when Y is set too; selecting
# from X, the module's symbol, is a superset and keeps Y's entry alone.
syms=() unconditional=() seen=" "
todo=("$obj")
while [ ${#todo[@]} -gt 0 ]; do
	o=${todo[0]}; todo=("${todo[@]:1}")
	case $seen in *" $o "*) continue ;; esac
	seen="$seen$o "
	while read -r lhs; do
		case $lhs in
		obj-\$\(CONFIG_*\))
			s=${lhs#obj-\$(CONFIG_}; s=${s%)}
			case " ${syms[*]} " in *" $s "*) ;; *) syms+=("$s") ;; esac ;;
		obj-y|obj-m)
			unconditional+=("$lhs += $o") ;;
		obj-*) ;;
		*-y|*-objs|*-\$\(CONFIG_*\))
			todo+=("${lhs%-*}.o") ;;
		esac
	done < <(lines_naming "$o")
done
for u in ${unconditional[@]+"${unconditional[@]}"}; do
	echo "$mk: $u: linked without a CONFIG_ symbol," \
		"no Kconfig entry to select IRQ_POLL from" >&2
done
if [ ${#syms[@]} = 0 ]; then
	echo "$0: no obj-\$(CONFIG_...) builds $obj in $mk" >&2
	exit 1
fi
[ ${#syms[@]} = 1 ] || echo "$obj is linked by ${#syms[@]} config symbols: ${syms[*]}"

# kconfig_of SYM: the Kconfig file defining SYM: the object's directory,
# then its parents, then the whole tree.
kconfig_of() {
	local d=$dir k re="^[[:space:]]*(menu)?config[[:space:]]+$1[[:space:]]*$"
	while :; do
		for k in "$d"/Kconfig*; do
			[ -f "$k" ] && grep -q -E "$re" "$k" && { echo "$k"; return; }
		done
		[ "$d" = . ] || [ "$d" = / ] && break
		d=$(dirname "$d")
	done
	find . -name 'Kconfig*' -type f -exec grep -l -E "$re" {} + 2>/dev/null | head -1
}

# add_select SYM KCONFIG: insert "select IRQ_POLL" after the entry's type
# line (first line of the entry that is indented), unless the entry already
# selects IRQ_POLL.
kw='config|menuconfig|menu|endmenu|choice|endchoice|comment|if|endif|source'
add_select() {
	local sym=$1 kc=$2
	if awk -v sym="$sym" -v kw="$kw" '
		$0 ~ "^[ \t]*(menu)?config[ \t]+" sym "[ \t]*$" { inent = 1; next }
		inent && $0 ~ "^[ \t]*(" kw ")([ \t]|$)" { inent = 0 }
		inent && $0 ~ "^[ \t]*select[ \t]+IRQ_POLL([ \t]|$)" { found = 1 }
		END { exit !found }' "$kc"; then
		echo "$kc: config $sym already selects IRQ_POLL"
		return
	fi
	awk -v sym="$sym" '
		{ print }
		$0 ~ "^[ \t]*(menu)?config[ \t]+" sym "[ \t]*$" { inent = 1; next }
		inent && $0 ~ "^[ \t]*(tristate|bool|def_tristate|def_bool)([ \t]|$)" {
			match($0, /^[ \t]*/)
			print substr($0, 1, RLENGTH) "select IRQ_POLL"
			inent = 0
		}
	' "$kc" >"$kc.irq_poll.tmp" && mv "$kc.irq_poll.tmp" "$kc"
	echo "$kc: config $sym: select IRQ_POLL"
}

missing=0
for sym in "${syms[@]}"; do
	kc=$(kconfig_of "$sym")
	if [ -z "$kc" ]; then
		echo "$0: config $sym (links $obj) not found in any Kconfig" >&2
		missing=1
		continue
	fi
	add_select "$sym" "$kc"
done
exit $missing
