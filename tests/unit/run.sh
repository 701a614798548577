#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Host-side unit tests of the harness: the console scanner on sample logs (clean-*
# must pass, bad-* must fail naming the report, empty-* must be rejected as not
# booted), the KTAP parser on sample streams (NAME.ktap -> NAME.expect, NAME.rc), the
# QEMU IOAPIC trace judge on sample traces (trace/NAME.trace -> NAME.rc), the guest's
# interrupt storm watch (spurious.sh), and the syntax of the guest (busybox sh -n) and
# host (bash -n) shell scripts.
#
# Usage: tests/unit/run.sh     prints ok/not ok lines and "N passed, N failed"
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$here/../..
pass=0
fail=0
n=0
res()
{
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		pass=$((pass + 1))
		echo "ok $n unit.$2"
	else
		fail=$((fail + 1))
		echo "not ok $n unit.$2"
	fi
}

for log in "$here"/logs/*.log; do
	name=$(basename "$log" .log)
	out=$(python3 "$top/tests/scan-log.py" "$log")
	rc=$?
	case $name in
	clean-*) [ $rc = 0 ] ;;
	# a KASAN report must be named as one, not only as a BUG line
	bad-kasan*) [ $rc = 1 ] && printf '%s\n' "$out" | grep -q "^$log:[0-9]*: KASAN report$" ;;
	bad-*) [ $rc = 1 ] && printf '%s\n' "$out" | grep -q "^$log:[0-9]*: " ;;
	empty-*) [ $rc = 2 ] ;;
	esac
	ok=$?
	[ $ok = 0 ] || { echo "# scan-log.py $name: rc=$rc"; printf '%s\n' "$out" | sed 's/^/# /'; }
	res $ok "scan.$name"
done

for k in "$here"/ktap/*.ktap; do
	name=$(basename "$k" .ktap)
	flags=
	case $name in kunit-*) flags=--kunit ;; esac
	out=$(python3 "$top/tests/ktap.py" $flags "$k")
	rc=$?
	out=$(printf '%s\n' "$out" | sed "s|$k|FILE|")
	want=$(cat "$here/ktap/$name.expect")
	if [ "$out" = "$want" ] && [ "$rc" = "$(cat "$here/ktap/$name.rc")" ]; then
		res 0 "ktap.$name"
	else
		echo "# ktap.py $name: rc=$rc, output:"
		printf '%s\n' "$out" | sed 's/^/# /'
		res 1 "ktap.$name"
	fi
done
# QEMU IOAPIC trace judge: clean (0), a level-triggered storm (1), a dead trace (2).
for t in "$here"/trace/*.trace; do
	name=$(basename "$t" .trace)
	# NAME.console: guest test times; NAME.during: the line naming the storm's test
	con=$here/trace/$name.console
	[ -f "$con" ] || con=
	out=$(python3 "$top/tests/ioapic-storm.py" "$t" $con)
	rc=$?
	[ "$rc" = "$(cat "$here/trace/$name.rc")" ] &&
		{ ! [ -f "$here/trace/$name.during" ] ||
		  printf '%s\n' "$out" | grep -qxF "$(cat "$here/trace/$name.during")"; }
	ok=$?
	[ $ok = 0 ] || { echo "# ioapic-storm.py $name: rc=$rc"; printf '%s\n' "$out" | sed 's/^/# /'; }
	res $ok "ioapic-storm.$name"
done
# The guest's interrupt storm watch, under busybox sh on a fake /proc/irq; the
# report: window arithmetic, pairing, ratios and bootstrap intervals, targets; and
# the register counts of BENCH=mmio (tests/mmio-count.py); the quoted figures
# (tests/figures.py); the KUnit mutants still apply to the library.
bb=$(command -v busybox || echo /bin/busybox)
for t in "$bb sh $here/spurious.sh" "python3 $here/report-bench.py" "python3 $here/mmio-count.py" \
	"bash $here/figures.sh" "python3 $top/tests/kunit-mutants.py --check"; do
	out=$($t 2>&1)
	got=0
	while IFS= read -r line; do
		case "$line" in
		"ok "*) res 0 "${line#ok }"; got=$((got + 1)) ;;
		"not ok "*) res 1 "${line#not ok }"; got=$((got + 1)) ;;
		*) echo "$line" ;;
		esac
	done <<<"$out"
	[ $got -gt 0 ] || res 1 "${t##*/}.ran"
done

# docs-dev/auto-model.md quotes what its model script prints, as it prints it.
out=$(python3 "$top/docs-dev/auto-model.py" 2>&1)
doc=$(sed -n '/^    closed loops/,/^$/p' "$top/docs-dev/auto-model.md" | sed -e 's/^    //' -e '/^$/d')
[ -n "$doc" ] && [ "$out" = "$doc" ]
res $? docs-dev.auto-model

# docs-dev/experiments/auto-sim/README.md quotes what the model prints for the
# controller of patch 18 (lib-at.sh) and the committed one, as it prints it.
sim=$top/docs-dev/experiments/auto-sim
tmps=${TMPDIR:-/tmp}/irqp-unit-sim.$$
cl4() {
	"$tmps/cl" 4 400 50 15 80 0.7 2.7 20 && "$tmps/cl" 4 400 50 15 80 10 30 3 &&
		"$tmps/cl" 2 150 25 15 60 0.7 2.7 20 40 && "$tmps/cl" 2 150 25 15 60 10 30 3 40
}
mkdir -p "$tmps" && cp "$sim/cl.c" "$sim/lone.c" "$tmps/" &&
	p18=$("$sim/lib-at.sh" 18 "$tmps/p18") &&
	python3 "$sim/mk.py" "$p18" "$tmps/ctl.h" &&
	gcc -O2 -Wall -Werror -o "$tmps/cl" "$tmps/cl.c" &&
	gcc -O2 -Wall -Werror -o "$tmps/lone" "$tmps/lone.c" &&
	out=$(cl4) &&
	[ "$out" = "$(sed -n '/^with the controller of patch 18 (patches/,/^It keeps/p' "$sim/README.md" |
		sed -n 's/^    \(QD.*\)/\1/p')" ]
res $? docs-dev.auto-sim

# ... and what lone.c prints for it (a stream of lone completions on TCP).
out=$("$tmps/lone" 150 128 0.4 50 0.7 2.7 400 && "$tmps/lone" 150 128 0.4 50 12 14 400 &&
	"$tmps/lone" 150 150 0.4 50 12 14 400) &&
	[ "$out" = "$(sed -n '/^with the controller of patch 18 (patch 17/,/^Without the noise/p' \
		"$sim/README.md" | sed -n 's/^    \(150.*\)/\1/p')" ]
res $? docs-dev.auto-sim-lone

# ... and what cl.c prints for the committed controller (the end of the file).
python3 "$sim/mk.py" "$top/lib-irqpoll/lib/irq_poll.c" "$tmps/ctl.h" &&
	gcc -O2 -Wall -Werror -o "$tmps/cl" "$tmps/cl.c" &&
	out=$(cl4) &&
	[ "$out" = "$(sed -n '/^The commands of the first sections with the committed/,$p' "$sim/README.md" |
		sed -n 's/^    \(QD.*\)/\1/p')" ]
res $? docs-dev.auto-sim-committed
rm -rf "$tmps"

# ... and what interleave.sh prints (../interleaved-pairs.diff and patch 19 in both models).
out=$("$sim/interleave.sh" 2>&1)
doc=$(sed -n '/^    patch 18:/,/^$/p' "$sim/README.md" | sed -e 's/^    //' -e '/^$/d')
[ -n "$doc" ] && [ "$out" = "$doc" ]
res $? docs-dev.auto-sim-interleave

# docs-dev/benchmarks.md "Pairing with both baselines" quotes what pairing.py prints.
out=$(cd "$top/results" && python3 "$top/docs-dev/experiments/pairing.py" . default-0826 \
	default-0836 default-0934 2>&1)
doc=$(sed -n '/^    results        iops/,/^$/p' "$top/docs-dev/benchmarks.md" |
	sed -e 's/^    //' -e '/^$/d')
[ -n "$doc" ] && [ "$out" = "$doc" ]
res $? docs-dev.pairing

# docs-dev/benchmarks.md "Pooled over boots" quotes what docs-dev/experiments/pool.py
# prints for the committed boots of one series (the bootstrap's seed is fixed).
# pool_check "BOOTS" "OPTIONS" METRIC...: each METRIC line's figure is quoted there.
pool_check()
{
	local boots=$1 q=$2 out fig m
	shift 2
	# shellcheck disable=SC2086 # word splitting wanted
	out=$(cd "$top/results" && python3 "$top/docs-dev/experiments/pool.py" $q $boots) ||
		return 1
	for m in "$@"; do
		fig=$(printf '%s\n' "$out" | sed -n "s/^$m *\([0-9.]*x \[[0-9.-]*\]\).*/\1/p")
		if [ -z "$fig" ] || ! grep -qF -- "$fig" "$top/docs-dev/benchmarks.md"; then
			echo "# pool.py $q: $m ${fig:-missing} not in docs-dev/benchmarks.md"
			return 1
		fi
	done
}
pool_short="default-0836 default-0934 hz1000-p15 hz250-p15 sweep-p15 tmpdir-before
	tmpdir-pinall tmpdir-sysfs"
pool_long="warmup4-a warmup4-b warmup12"
ok=0
for q in "--dev mptsas --job qd4" "--dev mptsas --job qd32" \
	"--dev mptsas-intx --job qd32 --regime fast" "--dev mptsas-msi --job qd32 --regime fast"; do
	pool_check "$pool_short $pool_long" "$q" "iops *auto" "iops *off2" "irq_io *auto" \
		"cpu_us_io *auto" || ok=1
done
# the QD4 row split by warm-up (0.7 s; 4 s and 12 s)
for boots in "$pool_short" "$pool_long"; do
	pool_check "$boots" "--dev mptsas --job qd4" "iops *auto" "iops *off2" || ok=1
done
# patch 16's steady state: with it (12 s), and before it (4 s and 12 s)
for boots in "warmup12-against128 warmup12-p16-a warmup12-p16-b warmup12-p16-c" \
	"$pool_long warmup12-b"; do
	pool_check "$boots" "--dev mptsas --job qd4" "iops *auto" "iops *off2" "p50_us *auto" \
		"p99_us *auto" "irq_io *auto" "cpu_us_io *auto" || ok=1
done
# "Fixed windows beside auto at QD4": defer against auto in its round, auto against both
# baselines, and the sweep's fast disks
q="--dev mptsas --job qd4"
pool_check "qd4-defer-a qd4-defer-b" "$q --mode defer --versus auto" "iops *defer" \
	"p50_us *defer" "irq_io *defer" "cpu_us_io *defer" || ok=1
pool_check "qd4-defer-a qd4-defer-b" "$q --both" "iops *auto" "irq_io *auto" \
	"cpu_us_io *auto" || ok=1
for m in defer-2-250 defer-1-500; do
	pool_check qd4-defer-c "$q --mode $m --versus auto" "iops *$m" "p50_us *$m" "irq_io *$m" \
		"cpu_us_io *$m" || ok=1
done
pool_check sweep "$q --mode defer --versus auto --regime fast" "iops *defer" || ok=1
# and the experiment with chains at gaps up to 500 us
pool_check qd4-gap500 "$q --both" "iops *auto" "irq_io *auto" "cpu_us_io *auto" || ok=1
pool_check qd4-gap500 "$q --mode defer-1-500 --versus auto" "iops *defer-1-500" || ok=1
# "Windows at QD4 on a busy CPU": the three steps to patches 20 and 21
for boots in qd4-hold32 "qd4-anycpu-a qd4-anycpu-b" "qd4-busy-a qd4-busy-b"; do
	pool_check "$boots" "$q --both" "iops *auto" "irq_io *auto" "cpu_us_io *auto" || ok=1
	pool_check "$boots" "$q --mode defer-1-500 --versus auto" "iops *defer-1-500" \
		"cpu_us_io *defer-1-500" || ok=1
done
for boots in qd4-anycpu-a qd4-anycpu-b qd4-busy-a qd4-busy-b; do
	pool_check "$boots" "$q --both" "iops *auto" || ok=1
	pool_check "$boots" "$q --mode defer-1-500 --versus auto" "iops *defer-1-500" || ok=1
done
# patch 19's A/B (section "Interleaved trial pairs (patch 19)"): each set's figures and
# their quotient; pool_against "OPTIONS" "FIRST" "SECOND" FIGURE...: each FIGURE
# ("SECTION METRIC MODE", SECTION 1, 2 or q for the quotient) is quoted there.
pool_against()
{
	local q=$1 first=$2 second=$3 out fig sec m
	shift 3
	# shellcheck disable=SC2086 # word splitting wanted
	out=$(cd "$top/results" && python3 "$top/docs-dev/experiments/pool.py" $q $first \
		--against $second) || return 1
	for m in "$@"; do
		sec=${m%% *}
		fig=$(printf '%s\n' "$out" | awk -v sec="$sec" -v m="${m#* }" '
			/^first set:/ { s = "1" } /^second set:/ { s = "2" } /^first set against/ { s = "q" }
			s == sec && $1 " " $2 == m { print $3, $4 }')
		if [ -z "$fig" ] || ! grep -qF -- "$fig" "$top/docs-dev/benchmarks.md"; then
			echo "# pool.py $q --against: $m ${fig:-missing} not in docs-dev/benchmarks.md"
			return 1
		fi
	done
}
p19="p19-qd4 qd4-p19-b qd4-p19-c qd4-p19-d"
p18="p18-qd4 qd4-p18-b qd4-p18-c qd4-p18-d"
all="1 iops auto|1 iops off2|1 irq_io auto|1 cpu_us_io auto|2 iops auto|2 iops off2|2 irq_io auto"
all="$all|2 cpu_us_io auto|q iops auto|q iops off2|q irq_io auto|q cpu_us_io auto"
IFS='|' read -ra figs <<<"$all"
pool_against "--dev mptsas --job qd4 --both" "$p19" "$p18" "${figs[@]}" || ok=1
pool_against "--dev mptsas --job qd4 --both --by-boot" "$p19" "$p18" "q iops auto" || ok=1
pool_against "--dev mptsas --job qd4 --both" "p19-default $p19" "p18-default $p18" \
	"q iops auto" || ok=1
# and on the network, two boots a side
for j in send receive; do
	pool_against "--net --job $j --mode sample-auto --both" "net-p19-a net-p19-b" \
		"net-p18-a net-p18-b" "1 irq_gb sample-auto" "2 irq_gb sample-auto" \
		"q irq_gb sample-auto" "q gbit_s sample-auto" || ok=1
done
# README quotes some of them: its sentences on patch 19's A/B, on fixed windows at QD4 and on
# patches 20 and 21
for f in "0.987x [0.969-1.006]" "1.011x [0.989-1.034]" "0.976x [0.948-1.006]" \
	"0.807x [0.783-0.839]" "1.085x [1.034-1.164]" "0.885x [0.829-0.938]" \
	"0.881x [0.852-0.907]" "0.990x [0.947-1.031]" "1.077x [1.021-1.144]"; do
	if ! tr '\n' ' ' <"$top/README.md" | grep -qF -- "$f" ||
		! grep -qF -- "| $f |" "$top/docs-dev/benchmarks.md"; then
		echo "# README: $f"
		ok=1
	fi
done
# the first pair alone, and the default runs
for ab in "p19-qd4 p18-qd4" "p19-default p18-default"; do
	pool_against "--dev mptsas --job qd4 --both" "${ab% *}" "${ab#* }" "1 iops auto" \
		"2 iops auto" || ok=1
done
# boot by boot: the sentence lists auto's IOPS of each, in the order of $p19 $p18
pts=
for b in $p19 $p18; do
	pts="$pts $(cd "$top/results" && python3 "$top/docs-dev/experiments/pool.py" --dev mptsas \
		--job qd4 --both "$b" | awk '$1 == "iops" && $2 == "auto" { print $3 }')"
done
doc=$(sed -n '/^Boot by boot (.pool.py --both/,/^$/p' "$top/docs-dev/benchmarks.md" |
	grep -o '[0-9]\.[0-9]*x' | head -8 | tr '\n' ' ')
[ "${pts# }" = "${doc% }" ] || { echo "# boot by boot: $pts, quoted: $doc"; ok=1; }
res $ok docs-dev.pool

# pool.py --against and --both, on a committed boot (rounds alternate "off auto off2" and
# "off2 auto off", and auto pairs with the earlier of the two) and on copies of it:
# b, whose auto runs did 10% more IOPS: a against b is 1/1.1 for auto, 1 for off2;
# c, whose off2 runs did twice the IOPS in odd rounds, where auto pairs with off: a
# against c is 1 for auto, and 2^(1/4) with --both (half the rounds move by sqrt(2)).
# --net: a network boot against a copy whose sample-auto sent 25% faster: 0.8.
# --versus off2: auto against the off2 run of its own round, so b against a is 1.1 and
# c against a 2^(-1/2) (not 1, as auto's pairing with off would give in c's odd rounds).
tmpp=${TMPDIR:-/tmp}/irqp-unit-pool.$$
mkdir -p "$tmpp/a" "$tmpp/b" "$tmpp/c" "$tmpp/n" "$tmpp/m"
cp "$top/results/p19-qd4/results-rounds.csv" "$tmpp/a/"
cp "$top/results/net-lone/results-rounds.csv" "$tmpp/n/"
# scale_runs DIR MODE COLUMN FACTOR PARITY: DIR's runs with COLUMN of MODE's runs in rounds
# of PARITY (0 even, 1 odd, 2 all) times FACTOR
scale_runs()
{
	awk -F, -v OFS=, -v mode="$2" -v col="$3" -v f="$4" -v par="$5" '
		NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i }
		NR > 1 && $c["mode"] == mode && (par == 2 || $c["round"] % 2 == par) {
			$c[col] = $c[col] * f
		}
		{ print }' "$tmpp/$1/results-rounds.csv"
}
scale_runs a auto iops 1.1 2 >"$tmpp/b/results-rounds.csv"
scale_runs a off2 iops 2 1 >"$tmpp/c/results-rounds.csv"
scale_runs n sample-auto gbit_s 1.25 2 >"$tmpp/m/results-rounds.csv"
# pool_quot METRIC OPTION... : "MODE QUOTIENT" of METRIC's lines of the first set against
# the second
pool_quot()
{
	local m=$1
	shift
	(cd "$tmpp" && python3 "$top/docs-dev/experiments/pool.py" "$@") |
		sed -n '/^first set against/,$p' | awk -v m="$m" '$1 == m { print $2, $3 }'
}
q="--dev mptsas --job qd4"
# shellcheck disable=SC2086 # word splitting wanted
[ "$(pool_quot iops $q a --against b)" = "$(printf 'auto 0.909x\noff2 1.000x')" ] &&
	[ "$(pool_quot iops $q a --against c)" = "$(printf 'auto 1.000x\noff2 0.707x')" ] &&
	[ "$(pool_quot iops $q --both a --against c)" = "$(printf 'auto 1.189x\noff2 0.707x')" ] &&
	[ "$(pool_quot gbit_s --net --job send --mode sample-auto n --against m)" = \
		"$(printf 'sample-auto 0.800x\nvirtio_net2 1.000x')" ] &&
	[ "$(pool_quot iops $q --versus off2 b --against a)" = "$(printf 'auto 1.100x\noff2 1.000x')" ] &&
	[ "$(pool_quot iops $q --versus off2 c --against a)" = "$(printf 'auto 0.707x\noff2 1.414x')" ] &&
	! (cd "$tmpp" && python3 "$top/docs-dev/experiments/pool.py" --both --versus off2 a) 2>/dev/null &&
	! (cd "$tmpp" && python3 "$top/docs-dev/experiments/pool.py" --versus bogus a) 2>/dev/null
res $? docs-dev.pool-against
rm -rf "$tmpp"

# make run refuses bad benchmark settings up front, naming the variable.
tmpb=${TMPDIR:-/tmp}/irqp-unit-build.$$
for bad in BENCH_ROUNDS=0 BENCH_ROUNDS=x BENCH_SECONDS=-1 NET_MODES=foo NET_JOBS=tcp \
	BENCH=bogus BENCH=ahci,bogus BENCH= BENCH=ahci,mmio DISK_JOBS=qd0 DISK_JOBS=r50 QEMU_SMP=two \
	DISK_RUNS=fast DISK_RUNS=defer-2-x DISK_RUNS=defer-0-100 NET_MODES=sample-defer-2-x \
	NET_MODES=sample-defer-0-100 NET_MODES=sample-defer-2 BENCH_WARMUP=0 BENCH_WARMUP=x \
	BENCH_WARMUP=61 BENCH_WARMUP= BENCH_CLOCK=bogus FIO_PIN=2 FIO_PIN= FIO_PIN=yes; do
	# BUILD_DIR: nothing may be written before the refusal
	out=$(env IRQP_VALIDATE_ONLY=1 BUILD_DIR="$tmpb" "$bad" timeout 60 bash "$top/tests/run.sh" 2>&1)
	rc=$?
	[ $rc = 1 ] && printf '%s\n' "$out" | grep -q "^ERROR: ${bad%%=*}" && [ ! -e "$tmpb" ]
	ok=$?
	[ $ok = 0 ] || printf '%s\n' "$out" | head -n 3 | sed 's/^/# /'
	res $ok "run-refuses.$bad"
done
out=$(env IRQP_VALIDATE_ONLY=1 BUILD_DIR="$tmpb" BENCH=ahci,mptsas,net,sweep BENCH_CLOCK=hpet FIO_PIN=0 \
	DISK_JOBS="qd32 qd1 r25" DISK_RUNS="off auto defer defer-8-500 off2" \
	NET_MODES="virtio_net sample-defer-2-500 virtio_net2" timeout 60 bash "$top/tests/run.sh" 2>&1)
res $? run-accepts.good-settings

# Syntax of the shell scripts: the guest's run under busybox sh, where a broken
# tests/guest/lib.sh kills PID 1 before any test; the host's under bash.
for f in "$top"/tests/guest/init "$top"/tests/guest/*.sh "$top"/tests/guest/*/*.sh; do
	out=$("$bb" sh -n "$f" 2>&1)
	ok=$?
	[ $ok = 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
	res $ok "sh-n.${f#"$top"/tests/}"
done
for f in "$top"/tests/*.sh "$top"/.ci/run; do
	out=$(bash -n "$f" 2>&1)
	ok=$?
	[ $ok = 0 ] || printf '%s\n' "$out" | sed 's/^/# /'
	res $ok "bash-n.${f#"$top"/}"
done
echo "$pass passed, $fail failed"
[ $fail = 0 ]
