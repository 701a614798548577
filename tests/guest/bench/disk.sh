#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Disk benchmark: 4k random reads on the named targets (DEVICE-REGIME, see bench_disks
# in /irqp/lib.sh: ahci-file, ahci-fast, mptsas-intx-file, ...), all in one boot.
#
# Usage: disk.sh TARGET...
#   DISK_JOBS   jobs, in this order: qdN (fio iodepth N, saturation) and rP (QD32
#               limited by fio rate_iops to P% of the IOPS of "off" at QD32 in round 1
#               on the same target; needs qd32 first).  Default "qd32 r50 qd4 qd1".
#   BENCH_RUNS  runs per job and round (default "off on auto off2"): "off2" is a second
#               "off", the A/A control.  Every other round runs them in reverse order,
#               so each mode keeps the same "off" run next to it (the report pairs each
#               run with the nearest off run of its round and job by "seq").
#   BENCH_ROUNDS rounds (default 1), each over every target and job.
#   FIO_PIN     1: run fio on the CPU that takes the disk's interrupts, so that a
#               completion neither crosses CPUs nor depends on where the scheduler put
#               fio (default 0: fio runs where the scheduler puts it).
. /irqp/lib.sh
[ $# -gt 0 ] || { echo "usage: disk.sh TARGET..."; exit 2; }
JOBS=${DISK_JOBS:-qd32 r50 qd4 qd1}
RUNS=${BENCH_RUNS:-off on auto off2}
ROUNDS=${BENCH_ROUNDS:-1}
rc=0
# fail WHAT: a failure, also on the console (seen while the run goes on)
fail()
{
	echo "FAIL: $*"
	log "bench: FAIL: $*"
	rc=1
}
disks=$(bench_disks)
echo "disks: $(echo "$disks" | tr '\n' ';')"
targets=
for t in "$@"; do
	line=$(echo "$disks" | grep "^$t ") || { fail "no disk for target $t (disks: $(echo $disks))"; continue; }
	set -- $line
	insts=$(disk_instances "$2" "$3")
	[ -n "$insts" ] || { fail "$t ($2): no irq_poll instance"; continue; }
	irqs=$(pci_irqs "$3")
	echo "$t: /dev/$2 at $3, irqs $irqs, instances $(echo $insts | sed 's|[^ ]*/||g')"
	targets="$targets $t"
	# file disks: write what the reads will touch (a raw image's holes read faster)
	case $t in
	*-file) fio --name=fill --filename="/dev/$2" --direct=1 --ioengine=libaio --iodepth=16 \
			--rw=write --bs=1m --size=256m --output-format=terse >/dev/null || rc=1 ;;
	esac
done
[ -n "$targets" ] || exit 1

# set_run_mode TARGET RUN: the run's mode ("off2" is "off") on the instances of the
# target's controller only.
set_run_mode()
{
	local i m
	m=$2
	[ "$m" = off2 ] && m=off
	set -- "$1" "$m" $(echo "$disks" | grep "^$1 ")
	for i in $(disk_instances "$4" "$5"); do
		one_mode "$i" "$2" || return 1
	done
}

# one_mode INSTANCE MODE: set_mode's settings for one instance.
one_mode()
{
	local dirqs=0 dns=0 m=softirq
	case $2 in
	off) m=off ;;
	on) ;;
	auto) m=auto ;;
	threaded) m=threaded ;;
	defer) dirqs=$DEFER_IRQS dns=$DEFER_NS ;;
	defer-*-*) dirqs=${2#defer-}; dns=$((${dirqs#*-} * 1000)); dirqs=${dirqs%%-*} ;;
	*) echo "unknown mode $2"; return 1 ;;
	esac
	echo "$dirqs" >"$1/defer_hard_irqs" && echo "$dns" >"$1/flush_timeout_ns" &&
		echo $m >"$1/mode" || { echo "mode $2: ${1##*/} refused"; return 1; }
}

# progress on the console (tests/qemu-run.sh shows it): run k of n, elapsed
n_all=$(( ROUNDS * $(echo $targets | wc -w) * $(echo $JOBS | wc -w) * $(echo $RUNS | wc -w) ))
k_all=0
t_all=$(date +%s)
round=1
while [ $round -le "$ROUNDS" ]; do
	order=$RUNS
	[ $((round % 2)) = 0 ] && order=$(printf '%s\n' $RUNS | sed -n '1!G;h;$p')
	for t in $targets; do
		set -- $(echo "$disks" | grep "^$t ")
		dev=$2 addr=$3
		irqs=$(pci_irqs "$addr")
		insts=$(disk_instances "$dev" "$addr")
		pin=
		if [ "${FIO_PIN:-0}" = 1 ]; then
			irq=${irqs%% *}
			cpu=$(cut -d, -f1 "/proc/irq/$irq/effective_affinity_list" | cut -d- -f1)
			[ -n "$cpu" ] || { fail "$t: no CPU for irq $irq (FIO_PIN=1)"; continue; }
			pin=--cpus_allowed=$cpu
			echo "$t: fio on CPU $cpu (irq $irq)"
		fi
		for job in $JOBS; do
			case $job in
			qd[0-9]*) qd=${job#qd} rate=0; set -- --size=256m $pin ;;
			r[0-9]*)
				f=/tmp/rate.$t
				[ -s $f ] || { echo "$t: $job needs qd32 first"; continue; }
				qd=32 rate=$(awk -v p="${job#r}" '{ printf "%d", $1 * p / 100 }' $f)
				set -- --size=256m --rate_iops="$rate" $pin ;;
			*) echo "unknown job $job"; rc=1; continue ;;
			esac
			seq=0
			for run in $order; do
				seq=$((seq + 1))
				set_run_mode "$t" "$run" || { fail "$t: cannot set mode $run"; continue; }
				name=$t-$job-$run-r$round
				k_all=$((k_all + 1))
				log "bench: disk run $k_all/$n_all $name ($(( $(date +%s) - t_all ))s)"
				window_job "$name" \
					"kind=disk dev=${t%-*} regime=${t##*-} job=$job mode=$run round=$round seq=$seq disk=$dev qd=$qd rate_iops=$rate" \
					"disk $dev" "$irqs" "$insts" fio_job "/dev/$dev" "$qd" "$@" ||
					fail "$name: fio rc=$? ($(head -c 200 /results/$name/err))"
				if [ "$run" = off ] && [ "$job" = qd32 ] && [ $round = 1 ]; then
					grep -m1 '"iops"' "/results/$name/out.json" | tr -dc '0-9.' >/tmp/rate.$t
					echo "$t: rate jobs relative to $(cat /tmp/rate.$t) IOPS"
				fi
			done
		done
		set_run_mode "$t" off
	done
	round=$((round + 1))
done

# How late the deferral timer fires (with "defer" among the runs): trace irq_poll_defer
# (timer armed) and irq_poll_timer (it fired) for a QD1 run of the first target.
T=/sys/kernel/tracing
case " $RUNS " in *" defer "*) ;; *) exit $rc ;; esac
[ -d $T/events/irq_poll ] || exit $rc
set -- $targets
t=$1
set -- $(echo "$disks" | grep "^$t ")
set_run_mode "$t" defer
echo 0 >$T/tracing_on
echo >$T/trace
echo 1 >$T/events/irq_poll/irq_poll_defer/enable
echo 1 >$T/events/irq_poll/irq_poll_timer/enable
echo 1 >$T/tracing_on
BENCH_SECONDS=2 fio_job "/dev/$2" 1 --size=256m >/dev/null
echo 0 >$T/tracing_on
echo 0 >$T/events/irq_poll/enable
d=/results/$t-timer
mkdir -p $d
printf 'kind=timer\ndev=%s\nrequested_ns=%s\n' "$t" "$DEFER_NS" >$d/meta
# "... 123.456789: irq_poll_defer: id=3 ..." -> delays in us, defer to timer
awk '{
	for (i = 1; i < NF; i++)
		if ($i ~ /^[0-9]+\.[0-9]+:$/) { ts = substr($i, 1, length($i) - 1); ev = $(i + 1); break }
	for (j = i; j <= NF; j++)
		if ($j ~ /^id=/) id = $j
	if (ev == "irq_poll_defer:") armed[id] = ts
	else if (ev == "irq_poll_timer:" && (id in armed)) {
		printf "%.0f\n", (ts - armed[id]) * 1e6; delete armed[id]
	}
}' $T/trace | sort -n >$d/delays_us
echo "$t: deferral timer, $(wc -l <$d/delays_us) samples"
echo >$T/trace
set_run_mode "$t" off
exit $rc
