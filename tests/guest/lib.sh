# SPDX-License-Identifier: GPL-2.0
# Helpers for the guest init, tests and benchmarks (busybox sh).  Sourced.
#
# Test scripts exit 0 for pass, 4 for skip (kselftest's code), anything else for
# failure; whatever they print becomes "# " diagnostic lines of their KTAP result.

TEST_TIMEOUT=${TEST_TIMEOUT:-600}
KTAP_N=0
KTAP_FAIL=0

log()
{
	echo "irqp: $*" >/dev/console
}

ktap_start()
{
	echo "KTAP version 1" >&3
	echo "1..$#" >&3
}

# ktap_run NAME SCRIPT: run SCRIPT under a timeout, emit one KTAP result line.
ktap_run()
{
	local name=$1 script=$2 rc= t0
	KTAP_N=$((KTAP_N + 1))
	log "test $KTAP_N: $name"
	t0=$(date +%s)
	if [ ! -x "$script" ]; then
		echo "# $name: no such test $script" >&3
		echo "not ok $KTAP_N $name" >&3
		KTAP_FAIL=$((KTAP_FAIL + 1))
		return
	fi
	# The mptsas tests watch the HBA's level-triggered line for a storm.
	case $script in
	/irqp/tests/*mptsas*) spur_start mptsas >/tmp/out.$$ 2>&1 || rc=1 ;;
	*) : >/tmp/out.$$ ;;
	esac
	timeout "$TEST_TIMEOUT" "$script" >>/tmp/out.$$ 2>&1
	rc=${rc:-$?}
	if [ -n "$SPUR_PID" ] && ! spur_stop >>/tmp/out.$$ 2>&1; then
		case $rc in 0 | 4) rc=1 ;; esac
	fi
	sed 's/^/# /' /tmp/out.$$ >&3
	rm -f /tmp/out.$$
	case $rc in
	0) echo "ok $KTAP_N $name" >&3 ;;
	4) echo "ok $KTAP_N $name # SKIP" >&3 ;;
	124 | 143) echo "not ok $KTAP_N $name # TIMEOUT ${TEST_TIMEOUT}s" >&3
	   KTAP_FAIL=$((KTAP_FAIL + 1)) ;;
	*) echo "not ok $KTAP_N $name # exit=$rc" >&3
	   KTAP_FAIL=$((KTAP_FAIL + 1)) ;;
	esac
	# The guest's clock is the host's (QEMU's RTC): the host matches its QEMU trace
	# events to tests with these times (tests/ioapic-storm.py).
	log "test $KTAP_N: $name rc=$rc time $t0-$(date +%s)"
}

# --- interrupt storms on a level-triggered line -------------------------------------
# /proc/irq/N/spurious shows "count" (interrupts since the last reset, every 100000)
# and "unhandled" (handlers' IRQ_NONE, restarted at 1 after 100 ms without one):
# neither is a running total, so a sampler reads it every 0.1 s and adds up the
# unhandled interrupts it sees (a lower bound).  The total is the line's own
# /proc/interrupts delta.  More than SPUR_MAX_PCT percent unhandled is a storm: the
# handler returns with the device's line still asserted.
SPUR_MAX_PCT=${SPUR_MAX_PCT:-1}
SPUR_PID=
SPUR_PROC=${SPUR_PROC:-/proc/irq}	# another directory only in tests/unit/spurious.sh

# spur_step IRQ: fold one sample of /proc/irq/IRQ/spurious into /tmp/spur.IRQ
# ("unhandled-so-far count unhandled" of the previous sample).
spur_step()
{
	local acc pc pu k c u
	read -r acc pc pu <"/tmp/spur.$1" || return 1
	{ read -r k c && read -r k u; } <"$SPUR_PROC/$1/spurious" || return 1
	if [ "$c" -lt "$pc" ] || [ "$u" -lt "$pu" ]; then
		acc=$((acc + u))		# either counter was reset meanwhile
	else
		acc=$((acc + u - pu))
	fi
	echo "$acc $c $u" >"/tmp/spur.$1"
}

# spur_start DRIVER: start watching the interrupt lines of DRIVER's PCI device.
spur_start()
{
	local addr
	SPUR_PID=
	addr=$(ls /sys/bus/pci/drivers/"$1" 2>/dev/null | grep -m 1 '^[0-9a-f]*:')
	[ -n "$addr" ] || { echo "FAIL: no PCI device bound to $1 to watch for interrupt storms"; return 1; }
	spur_watch "$(pci_irqs "$addr")" "$1 $addr"
}

# spur_watch "IRQS" WHAT: start the sampler on those lines (every SPUR_PERIOD s).
spur_watch()
{
	local i k c u
	SPUR_IRQS=$1
	SPUR_WHAT=$2
	for i in $SPUR_IRQS; do
		{ read -r k c && read -r k u; } <"$SPUR_PROC/$i/spurious" ||
			{ echo "FAIL: no $SPUR_PROC/$i/spurious"; return 1; }
		echo "0 $c $u" >"/tmp/spur.$i"
	done
	SPUR_TOTAL=$(irq_count "$SPUR_IRQS")
	(while :; do
		for i in $SPUR_IRQS; do spur_step "$i"; done
		sleep "${SPUR_PERIOD:-0.1}"
	done) &
	SPUR_PID=$!
}

# spur_halt: stop the sampler; sets SPUR_UNHANDLED (its total) and SPUR_ALL (the
# lines' interrupts since spur_watch).
spur_halt()
{
	local i acc pc pu
	kill "$SPUR_PID" 2>/dev/null
	wait "$SPUR_PID" 2>/dev/null
	SPUR_PID=
	SPUR_UNHANDLED=0
	for i in $SPUR_IRQS; do
		spur_step "$i"
		read -r acc pc pu <"/tmp/spur.$i"
		SPUR_UNHANDLED=$((SPUR_UNHANDLED + acc))
		rm -f "/tmp/spur.$i"
	done
	SPUR_ALL=$(($(irq_count "$SPUR_IRQS") - SPUR_TOTAL))
}

# spur_stop: stop watching; print the figures, fail on a storm.
spur_stop()
{
	local n total
	spur_halt
	n=$SPUR_UNHANDLED
	total=$SPUR_ALL
	echo "irq $SPUR_IRQS ($SPUR_WHAT): $n unhandled of $total interrupts" \
		"(/proc/irq/N/spurious, limit $SPUR_MAX_PCT%)"
	if [ $((n * 100)) -gt $((total * SPUR_MAX_PCT)) ]; then
		echo "FAIL: interrupt storm on irq $SPUR_IRQS: $n of $total interrupts unhandled"
		return 1
	fi
}

ktap_end()
{
	echo "# Totals: pass:$((KTAP_N - KTAP_FAIL)) fail:$KTAP_FAIL" >&3
}

# pci_driver_of SYSFS_PATH: name of the PCI driver above a sysfs device path.
pci_driver_of()
{
	local p
	p=$(readlink -f "$1")
	while [ "$p" != / ] && [ -n "$p" ]; do
		case "${p##*/}" in
		[0-9a-f][0-9a-f][0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f].[0-7])
			[ -e "$p/driver" ] && basename "$(readlink -f "$p/driver")"
			return ;;
		esac
		p=${p%/*}
	done
}

# pci_addr_of SYSFS_PATH: PCI address of the device above a sysfs path.
pci_addr_of()
{
	local p
	p=$(readlink -f "$1")
	while [ "$p" != / ] && [ -n "$p" ]; do
		case "${p##*/}" in
		[0-9a-f][0-9a-f][0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f].[0-7])
			echo "${p##*/}"
			return ;;
		esac
		p=${p%/*}
	done
}

# find_disk DRIVER [TIMEOUT]: /dev/sdX behind the PCI driver DRIVER (ahci, mptsas).
# sdX names swap between boots, so disks are found by their controller's driver.
find_disk()
{
	local drv=$1 t=${2:-${DISK_WAIT:-60}} d
	while [ "$t" -gt 0 ]; do
		for d in /sys/block/sd*; do
			[ -e "$d/device" ] || continue
			if [ "$(pci_driver_of "$d/device")" = "$drv" ]; then
				echo "/dev/${d##*/}"
				return 0
			fi
		done
		sleep 1
		t=$((t - 1))
	done
	echo "no disk behind driver $drv after ${2:-${DISK_WAIT:-60}}s" >&2
	return 1
}

# pci_irqs ADDR: the IRQ numbers of a PCI function (MSI/MSI-X vectors, else INTx).
pci_irqs()
{
	local dev=/sys/bus/pci/devices/$1
	if [ -d "$dev/msi_irqs" ] && [ -n "$(ls "$dev/msi_irqs")" ]; then
		ls "$dev/msi_irqs" | sort -n | tr '\n' ' '
	else
		cat "$dev/irq"
	fi
}

# irq_count "IRQS": total interrupts on those lines, all CPUs.
irq_count()
{
	awk -v list="$1" 'BEGIN { n = split(list, a, " "); for (i = 1; i <= n; i++) want[a[i] ":"] = 1 }
		want[$1] { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) s += $i }
		END { print s + 0 }' /proc/interrupts
}

# net_if DRIVER: the network interface bound to virtio device driven by DRIVER.
net_if()
{
	local n
	for n in /sys/class/net/*; do
		[ -e "$n/device/driver" ] || continue
		[ "$(basename "$(readlink -f "$n/device/driver")")" = "$1" ] && { echo "${n##*/}"; return 0; }
	done
	return 1
}

# virtio_net_dev: the virtio device (virtioN) of the virtio-net NIC.
virtio_net_dev()
{
	local d
	for d in /sys/bus/virtio/devices/virtio*; do
		[ "$(cat "$d/device" 2>/dev/null)" = 0x0001 ] && { echo "${d##*/}"; return 0; }
	done
	return 1
}

# net_use DRIVER: hand the virtio NIC to DRIVER (virtio_net, or the sample
# virtio_net_irq_poll) with sysfs unbind/bind (6.1's virtio bus has no
# driver_override), address it and wait until 10.0.2.2 answers.  Sets NET_IF.
# Only 10.0.2.0/24 is on-link and there is no default route: the guest reaches
# the harness's servers at 10.0.2.2 (a tap in a network namespace, or the host's
# loopback through user networking) and nothing else.
net_use()
{
	local drv=$1 vdev cur t=30
	vdev=$(virtio_net_dev) || { echo "no virtio-net device"; return 1; }
	[ -d "/sys/bus/virtio/drivers/$drv" ] || modprobe "$drv" || return 1
	cur=
	[ -e "/sys/bus/virtio/devices/$vdev/driver" ] &&
		cur=$(basename "$(readlink -f "/sys/bus/virtio/devices/$vdev/driver")")
	if [ "$cur" != "$drv" ]; then
		if [ -n "$cur" ]; then
			echo "$vdev" >"/sys/bus/virtio/drivers/$cur/unbind" || return 1
		fi
		echo "$vdev" >"/sys/bus/virtio/drivers/$drv/bind" || return 1
	fi
	NET_IF=
	while [ $t -gt 0 ]; do
		NET_IF=$(net_if "$drv") && break
		sleep 1
		t=$((t - 1))
	done
	[ -n "$NET_IF" ] || { echo "no interface bound to $drv"; return 1; }
	export NET_IF
	ip link set lo up
	ip addr add 10.0.2.15/24 dev "$NET_IF" 2>/dev/null
	ip link set "$NET_IF" up
	t=20
	while [ $t -gt 0 ]; do
		ping -c 1 -W 1 10.0.2.2 >/dev/null 2>&1 && return 0
		t=$((t - 1))
	done
	echo "10.0.2.2 does not answer on $NET_IF ($drv)"
	return 1
}

# net_put MIB / net_get MIB: send MIB MiB of random data to the host's
# netcheck server (tests/netcheck-server.py) / fetch MIB MiB from it, and
# compare sha256 sums end to end.
net_put()
{
	local n=$(($1 * 1048576)) want got
	dd if=/dev/urandom of=/tmp/put.$$ bs=1048576 count="$1" 2>/dev/null || return 1
	want=$(sha256sum </tmp/put.$$ | cut -d' ' -f1)
	got=$({ echo "PUT $n"; cat /tmp/put.$$; } | timeout 300 nc 10.0.2.2 "$NETCHECK_PORT")
	rm -f /tmp/put.$$
	[ "$got" = "$want" ] && { echo "put $1 MiB: sha256 ok"; return 0; }
	echo "put $1 MiB: sha256 mismatch (sent $want, host got '$got')"
	return 1
}

net_get()
{
	local n=$(($1 * 1048576)) want got size
	echo "GET $n irqp$$" | timeout 300 nc 10.0.2.2 "$NETCHECK_PORT" >/tmp/get.$$
	size=$(stat -c %s /tmp/get.$$)
	want=$(head -n 1 /tmp/get.$$)
	got=$(tail -c "$n" /tmp/get.$$ | sha256sum | cut -d' ' -f1)
	rm -f /tmp/get.$$
	[ "$size" = $((n + 65)) ] && [ "$got" = "$want" ] &&
		{ echo "get $1 MiB: sha256 ok"; return 0; }
	echo "get $1 MiB: $size bytes, sha256 '$got', host sent '$want'"
	return 1
}

# vnet_mode MODE: interrupt mode of the sample driver's instances (see set_mode).
vnet_mode()
{
	set_mode vnet "$1"
}

# fio_verify DEV [SIZE] [OFFSET]: write then read back with crc32c; fio exits
# non-zero on a mismatch or I/O error (verify_fatal).
fio_verify()
{
	fio --name=verify --filename="$1" --direct=1 --ioengine=libaio --iodepth=16 \
		--rw=randwrite --bs=4k --size="${2:-32m}" --offset="${3:-0}" \
		--verify=crc32c --do_verify=1 \
		--verify_fatal=1 --randrepeat=0 --output-format=terse --terse-version=3 \
		>/tmp/fio.$$ 2>&1
	local rc=$?
	# terse v3: field 6 = read KiB, field 47 = write KiB (see fio(1) TERSE OUTPUT)
	awk -F';' '{ printf "fio: wrote %d KiB, verified %d KiB, errors=%s\n", $47, $6, $5 }' /tmp/fio.$$
	[ $rc -eq 0 ] || cat /tmp/fio.$$
	rm -f /tmp/fio.$$
	return $rc
}

# --- benchmarks -----------------------------------------------------------------
# Each measurement is a directory /results/NAME with: meta (key=value lines), out.json
# (fio or iperf3 JSON), before and after (snap(): every counter the report uses, read
# at the two ends of the measured window) and spurious (unhandled interrupts on the
# device's lines during the window).  The host computes everything (tests/report.py);
# the guest only records.
BENCH_SECONDS=${BENCH_SECONDS:-10}
# Milliseconds between the first unit of work (an I/O completed, a byte moved) and
# the start of the window (make run's BENCH_WARMUP): fio's ramp_time ends 200 ms
# before it, so no ramp is inside.  An adaptive mode learns in this time too.
BENCH_RAMP_MS=${BENCH_RAMP_MS:-700}
BENCH_RAMP=$((BENCH_RAMP_MS / 1000)).$(printf %03d $((BENCH_RAMP_MS % 1000)))
POLL_COUNTERS="scheduled polls reaped budget_exhausted empty_polls missed rearm_races deferrals parks trials"

# work_count SPEC: the work done so far.  SPEC is "disk sdX" (reads completed,
# /sys/block/sdX/stat field 1) or "net IF rx|tx" (bytes, interface statistics).
work_count()
{
	local v rest
	set -- $1
	case $1 in
	disk) read -r v rest <"/sys/block/$2/stat" ;;
	net) read -r v <"/sys/class/net/$2/statistics/$3_bytes" ;;
	esac
	echo "${v:-0}"
}

# snap FILE WORK "INSTANCES": one sample of the counters, in sections "== name".
# Builtin reads where possible: every fork costs milliseconds under TCG.
snap()
{
	local i c v
	{
		echo "== uptime"
		cat /proc/uptime
		echo "== work"
		work_count "$2"
		echo "== interrupts"
		cat /proc/interrupts
		echo "== softirqs"
		cat /proc/softirqs
		echo "== stat"
		grep '^cpu' /proc/stat
		echo "== poll"
		for i in $3; do
			for c in $POLL_COUNTERS; do
				v=
				[ -r "$i/$c" ] && read -r v <"$i/$c"
				echo "${i##*/} $c ${v:-0}"
			done
		done
	} >"$1"
}

# mmio_mark OFFSET: with MMIO_MARK=1 (bench/mmio.sh), read config byte OFFSET (62: a
# window begins, 63: it ends) of the host bridge, which QEMU's pci_cfg_read trace event
# shows; tests/mmio-count.py counts the register accesses between the two.
mmio_mark()
{
	[ "${MMIO_MARK:-0}" = 1 ] || return 0
	dd if=/sys/bus/pci/devices/0000:00:00.0/config of=/dev/null bs=1 skip="$1" count=1 \
		2>/dev/null
}

# window_job NAME "META" WORK "IRQS" "INSTANCES" CMD...: run CMD (fio or iperf3, which
# must run at least BENCH_RAMP + BENCH_SECONDS + 1 s) in the background; once WORK
# (see work_count) moves, wait BENCH_RAMP s, then sample every counter at both ends
# of a window of BENCH_SECONDS, with the device lines' /proc/irq/N/spurious watched
# in between.  The CMD's JSON goes to out.json.
window_job()
{
	local name=$1 meta=$2 work=$3 irqs=$4 insts=$5 d pid w0 t=0 rc
	shift 5
	d=/results/$name
	mkdir -p "$d"
	printf '%s\n' $meta >"$d/meta"
	echo "irqs=$irqs" | tr ' ' '+' | sed 's/+$//' >>"$d/meta"
	echo "instances=$(for i in $insts; do printf '%s+' "${i##*/}"; done | sed 's/+$//')" >>"$d/meta"
	w0=$(work_count "$work")
	"$@" >"$d/out.json" 2>"$d/err" &
	pid=$!
	while [ "$(work_count "$work")" = "$w0" ] && [ $t -lt 1000 ]; do
		sleep 0.01
		t=$((t + 1))
	done
	sleep "$BENCH_RAMP"
	snap "$d/before" "$work" "$insts"
	mmio_mark 62
	spur_watch "$irqs" "$name" >/dev/null 2>&1
	sleep "$BENCH_SECONDS"
	mmio_mark 63
	snap "$d/after" "$work" "$insts"
	if [ "${MMIO_MARK:-0}" = 1 ]; then
		echo "$name" >>/results/mmio-windows
	fi
	spur_halt
	echo "unhandled=$SPUR_UNHANDLED" >"$d/spurious"
	wait "$pid"
	rc=$?
	echo "rc=$rc" >>"$d/meta"
	echo "$name: rc=$rc work $(( $(sed -n '/^== work/{n;p}' "$d/after") - $(sed -n '/^== work/{n;p}' "$d/before") ))"
	return $rc
}

# fio_job DEV QD [extra fio args]: 4k random reads; fio's own statistics (the latency
# percentiles) leave out its ramp (BENCH_RAMP_MS - 200 ms), then cover BENCH_SECONDS +
# 1 s, which contains window_job's window.
#
# TMPDIR: fio's main process stats $TMPDIR/fio-dump-status every 10 ms (its status
# file).  On the initramfs's tmpfs each such failed lookup frees a negative dentry
# through call_rcu(), so RCU grace periods never end, and RCU's kthread and ticks
# wake the vCPU that fio's job does not run on hundreds of times a second (README.md,
# "What wakes the other vCPU").  sysfs keeps the negative dentry cached; fio writes
# nothing there.
fio_job()
{
	local dev=$1 qd=$2
	shift 2
	TMPDIR=/sys/kernel fio --name=bench --filename="$dev" --direct=1 --ioengine=libaio --iodepth="$qd" \
		--rw=randread --bs=4k --time_based --runtime=$((BENCH_SECONDS + 1)) --ramp_time=$((BENCH_RAMP_MS - 200))ms \
		--randrepeat=0 --norandommap --output-format=json "$@"
}

# bench_disks: one line per disk of the converted controllers, "TARGET DEV ADDR",
# TARGET being DEVICE-REGIME: ahci, mptsas-intx or mptsas-msi (the HBA's interrupt
# kind), file (a raw image) or fast (QEMU null-co, told apart by its size,
# FAST_SECTORS); see tests/qemu-run.sh.
FAST_SECTORS=${FAST_SECTORS:-2097152}
bench_disks()
{
	local d drv addr kind regime
	for d in /sys/block/sd*; do
		[ -e "$d/device" ] || continue
		drv=$(pci_driver_of "$d/device")
		addr=$(pci_addr_of "$d/device")
		case $drv in
		ahci) kind=ahci ;;
		mptsas) kind=mptsas-intx
			[ -n "$(ls "/sys/bus/pci/devices/$addr/msi_irqs" 2>/dev/null)" ] && kind=mptsas-msi ;;
		*) continue ;;
		esac
		regime=file
		[ "$(cat "$d/size")" = "$FAST_SECTORS" ] && regime=fast
		echo "$kind-$regime ${d##*/} $addr"
	done
}

# disk_instances DEV ADDR: the irq_poll instances serving disk DEV (sdX) behind the
# controller at ADDR: ahci's per-port ahci-ADDR-pN (all ports of the HBA), or the
# Fusion IOC's mpt-iocN, N read from the SCSI host's banner ("scsi hostH: iocN: ...").
disk_instances()
{
	local host ioc
	case $(pci_driver_of "/sys/block/$1/device") in
	ahci) ls -d "$IRQP_INST/ahci-$2-p"* 2>/dev/null ;;
	mptsas)
		host=$(readlink -f "/sys/block/$1/device" | sed -n 's|.*/host\([0-9]*\)/.*|\1|p')
		ioc=$(dmesg | sed -n "s/.*scsi host$host: ioc\([0-9]*\):.*/\1/p" | tail -n 1)
		[ -n "$ioc" ] && ls -d "$IRQP_INST/mpt-ioc$ioc" 2>/dev/null ;;
	esac
}

# irq_poll instances of a driver, by the names the conversions give them
# (/sys/kernel/irq_poll/instances/<name>): ahci-<pci addr>-p<N>, mpt-ioc<N>,
# vnet-<virtio dev>-{rx,tx}0.
IRQP_INST=/sys/kernel/irq_poll/instances
poll_instances()
{
	case "$1" in
	ahci) ls -d $IRQP_INST/ahci-* 2>/dev/null ;;
	mptsas) ls -d $IRQP_INST/mpt-ioc* 2>/dev/null ;;
	vnet) ls -d $IRQP_INST/vnet-* 2>/dev/null ;;
	esac
}

# Deferral used by the "defer" mode: up to DEFER_IRQS empty polls with the device
# masked, re-polled by a timer every DEFER_NS.
DEFER_IRQS=${DEFER_IRQS:-2}
DEFER_NS=${DEFER_NS:-100000}

# set_mode DRIVER MODE: interrupt mode of a driver's instances, through their sysfs
# "mode" file (one switch per instance; the library applies it quiesced).
#   off        the driver's stock interrupt path (switchable instances only)
#   on         polled from the softirq, no deferral
#   defer      as on, plus defer_hard_irqs=DEFER_IRQS, flush_timeout_ns=DEFER_NS
#   defer-N-US as defer, with defer_hard_irqs=N and flush_timeout_ns=US*1000 (sweeps)
#   threaded   polled from the instance's kthread, no deferral
#   auto       softirq polling with the library's adaptive deferral (it may park the
#              instance on the driver's interrupt path)
# The only place that knows the interface: benchmarks and tests go through it.
set_mode()
{
	local drv=$1 mode=$2 i insts dirqs=0 dns=0 m=softirq
	insts=$(poll_instances "$drv")
	[ -n "$insts" ] || { echo "$drv has no irq_poll instance"; return 1; }
	case "$mode" in
	off) m=off ;;
	on) ;;
	threaded) m=threaded ;;
	auto) m=auto ;;
	defer) dirqs=$DEFER_IRQS dns=$DEFER_NS ;;
	defer-*-*)
		dirqs=${mode#defer-}
		dns=$((${dirqs#*-} * 1000))
		dirqs=${dirqs%%-*} ;;
	*) echo "unknown mode $mode"; return 1 ;;
	esac
	for i in $insts; do
		echo "$dirqs" >"$i/defer_hard_irqs" && echo "$dns" >"$i/flush_timeout_ns" &&
			echo $m >"$i/mode" || { echo "set_mode $drv $mode: $i refused"; return 1; }
	done
}

# poll_stat DRIVER COUNTER: a counter summed over the driver's instances.
poll_stat()
{
	local i n=0
	for i in $(poll_instances "$1"); do
		n=$((n + $(cat "$i/$2")))
	done
	echo $n
}
