#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# Boot a test kernel in QEMU (TCG) with the three devices under test and collect what
# the guest reports.
#
# Usage: tests/qemu-run.sh [-t SECONDS] [-T tests] [-B bench] [-s] perf|debug|kasan
#   -t SECONDS  hard timeout for the whole boot (default $QEMU_TIMEOUT or 900)
#   -T LIST     comma-separated guest tests (tests/guest/tests/NAME.sh)
#   -B LIST     comma-separated guest benchmarks (tests/guest/bench/NAME.sh)
#   -s          interactive shell on this terminal instead of tests
#
# Devices: ich9-ahci with one disk (MSI), mptsas1068 with one scsi-hd (legacy INTx,
# shared; the wwn must be non-zero or Linux mptsas skips the disk), virtio-net-pci on a
# tap device in a network namespace of its own (NET=tap) or on QEMU user networking
# (NET=user); either way the guest reaches 10.0.2.2 and nothing else.  The run
# directory (printed) keeps console.log (ttyS0), ktap.log (ttyS1), results/ (benchmark
# data from ttyS2) and qemu-cmd, so any run can be replayed.
# Benchmarks (-B) get a second disk per controller and a second HBA: each controller
# has an image file ("file" regime) and a QEMU null-co disk of FAST_SECTORS 512-byte
# sectors (1 GiB, told apart by that size) that completes after FAST_LATENCY_NS and
# reads zeroes ("fast" regime: the device outruns the guest); the first mptsas1068
# has no MSI capability (INTx), the second has one and mptbase is told to use it
# (mptbase.mpt_msi_enable_sas=1), so both interrupt kinds are measured in one boot.
# Knobs of the benchmark setup (tests/noise-study.sh compares them):
#   QEMU_SMP (2) vCPUs; QEMU_ACCEL (tcg,thread=multi); QEMU_ICOUNT (empty, or -icount
#   options such as shift=auto,sleep=on: forces tcg,thread=single); QEMU_PIN=1 pins
#   vCPU N's thread to host CPU N (taskset) once QEMU runs.
# Exit: 0 run completed (judge with tests/judge.sh), 1 QEMU or setup failure,
# 2 timeout.
set -eu
. "$(dirname "$0")/lib.sh"

timeout_s=${QEMU_TIMEOUT:-900}
tests=
bench=
shell=0
while getopts "t:T:B:s" o; do
	case $o in
	t) timeout_s=$OPTARG ;;
	T) tests=$OPTARG ;;
	B) bench=$OPTARG ;;
	s) shell=1 ;;
	*) die "usage: see the header of $0" ;;
	esac
done
shift $((OPTIND - 1))
kind=${1:-}
case "$kind" in perf|debug|kasan) ;; *) die "usage: $0 [-t S] [-T tests] [-B bench] [-s] perf|debug|kasan" ;; esac
require_command qemu-system-x86_64 iperf3 python3
OUT=$BUILD_DIR/out/$kind
for f in bzImage initramfs.cpio; do
	[ -f "$OUT/$f" ] || die "$OUT/$f missing: build the $kind kernel first"
done

RUN=${RUN_DIR:-$BUILD_DIR/runs/$kind-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$RUN/results"
echo "$RUN" >"$BUILD_DIR/runs/last-$kind"
DISKS=$BUILD_DIR/disks
mkdir -p "$DISKS"
for d in ahci mptsas; do
	rm -f "$DISKS/$d.img"
	truncate -s 512M "$DISKS/$d.img"
done

# Host end of the network tests: an iperf3 server and tests/netcheck-server.py (the
# checksummed transfers), both as 10.0.2.2 to the guest and reachable from nothing else.
#   NET=tap (default): QEMU runs in a network namespace made here for this run, with a
#     tap device (vnet_hdr, so checksum and TSO offloads) whose end in the namespace is
#     10.0.2.2; the servers listen there.  About 3x faster than user networking under TCG.
#   NET=user: QEMU user networking; the servers listen on the host's 127.0.0.1, which
#     the guest reaches as 10.0.2.2.
NET=${NET:-tap}
free_port()
{
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
port=$(free_port)
nport=$(free_port)
ns=
inns=()
cleanup()
{
	local f
	for f in "$RUN/iperf3.pid" "$RUN/netcheck.pid"; do
		[ -f "$f" ] && kill "$(cat "$f")" 2>/dev/null
	done
	[ -n "$ns" ] && ip netns del "$ns" 2>/dev/null
	true
}
trap cleanup EXIT
case "$NET" in
tap)
	require_command ip
	ns=irqp-$$
	ip netns add "$ns" || die "cannot create network namespace $ns (NET=user avoids it)"
	{ ip -n "$ns" link set lo up &&
		ip -n "$ns" tuntap add dev tap0 mode tap &&
		ip -n "$ns" addr add 10.0.2.2/24 dev tap0 &&
		ip -n "$ns" link set tap0 up; } || die "cannot set up tap0 in $ns (needs /dev/net/tun)"
	inns=(ip netns exec "$ns")
	srv=10.0.2.2
	netdev="tap,id=n0,ifname=tap0,script=no,downscript=no,vhost=off"
	;;
user)
	srv=127.0.0.1
	netdev="user,id=n0"
	;;
*) die "NET must be tap or user, not '$NET'" ;;
esac
"${inns[@]}" iperf3 -s -B "$srv" -p "$port" -D -I "$RUN/iperf3.pid" \
	--logfile "$RUN/iperf3-server.log" || die "cannot start the host iperf3 server"
"${inns[@]}" python3 "$IRQP_TOP/tests/netcheck-server.py" "$srv" "$nport" "$RUN/netcheck.pid" \
	>"$RUN/netcheck.log" 2>&1 &
for _ in 1 2 3 4 5 6 7 8 9 10; do [ -s "$RUN/netcheck.pid" ] && break; sleep 0.5; done
[ -s "$RUN/netcheck.pid" ] || die "cannot start tests/netcheck-server.py" "$RUN/netcheck.log"

append="console=ttyS0,115200 panic=-1 oops=panic nmi_watchdog=0 irqp.port=$port irqp.nport=$nport"
[ -n "$tests" ] && append="$append irqp.tests=$tests"
[ -n "$bench" ] && append="$append irqp.bench=$bench"
[ "$shell" = 1 ] && append="$append irqp.shell=1"
# no5lvl: 6.1's identify_boot_cpu() clears boot_cpu_data's feature bits, LA57
# included, with interrupts on; KASAN derives its shadow bounds from that bit, so
# an interrupt in the window gets a false "wild-memory-access" report (seen in
# 1 of 7 make check boots of the KASAN kernel, on -cpu max, which offers LA57).
# Four-level paging has no such window.
[ "$kind" = kasan ] && append="$append no5lvl"
append="$append ${KERNEL_CMDLINE_EXTRA:-}"

# BLKDEBUG=1 (make check) puts QEMU's blkdebug under both disks: every read of
# sector 1000000 (byte 512000000) fails with EIO, for the guest's error tests.
# Benchmarks run without it.
disk()
{
	local img=$DISKS/$1.img
	if [ "${BLKDEBUG:-0}" = 1 ]; then
		printf '[inject-error]\nevent = "read_aio"\nerrno = "5"\nsector = "1000000"\n' \
			>"$RUN/blkdebug.conf"
		echo "file=blkdebug:$RUN/blkdebug.conf:$img,format=raw,cache=unsafe"
	else
		echo "file=$img,format=raw,cache=unsafe"
	fi
}

accel=${QEMU_ACCEL:-tcg,thread=multi}
[ -n "${QEMU_ICOUNT:-}" ] && accel=tcg,thread=single
[ -n "$bench" ] && append="$append mptbase.mpt_msi_enable_sas=1"
# Benchmarks read the clock through the TSC, as on hardware.  -cpu max under TCG is an
# AMD CPU without the constant-TSC flag, and for such a CPU with more than one possible
# CPU the kernel assumes the TSCs unsynchronized without measuring (unsynchronized_tsc())
# and falls back to the HPET: an emulated device read at every clock read (each hrtimer,
# each ktime_get()), which cost a disk I/O 1.2 to 1.9 times the guest CPU (results/ab-*)
# and turned off hardirq time accounting (README, "The guest's clock source").  tsc=reliable skips
# that assumption; tests/run.sh checks that the guest switched to the TSC.
# BENCH_CLOCK=hpet keeps the kernel's own choice.
[ -n "$bench" ] && [ "${BENCH_CLOCK:-tsc}" = tsc ] && append="$append tsc=reliable"
qemu=(qemu-system-x86_64 -accel "$accel" -cpu max -smp "${QEMU_SMP:-2}" -m "${QEMU_MEM:-2G}"
	-M pc -nodefaults -no-reboot -display none -name "irqp-$$,debug-threads=on"
	-kernel "$OUT/bzImage" -initrd "$OUT/initramfs.cpio" -append "$append"
	-device ich9-ahci,id=ahci0
	-drive "if=none,id=d0,$(disk ahci)"
	-device ide-hd,drive=d0,bus=ahci0.0)
[ -n "${QEMU_ICOUNT:-}" ] && qemu+=(-icount "$QEMU_ICOUNT")
if [ -n "$bench" ]; then
	FAST_LATENCY_NS=${FAST_LATENCY_NS:-20000}
	FAST_SECTORS=${FAST_SECTORS:-2097152}
	fast() # fast ID: a null-co disk node
	{
		echo "driver=null-co,node-name=$1,size=$((FAST_SECTORS * 512)),latency-ns=$FAST_LATENCY_NS,read-zeroes=on"
	}
	rm -f "$DISKS/mptsas-msi.img"
	truncate -s 512M "$DISKS/mptsas-msi.img"
	qemu+=(-blockdev "$(fast f0)" -device ide-hd,drive=f0,bus=ahci0.1
		-device mptsas1068,id=scsi0,msi=off
		-blockdev "$(fast f1)"
		-device scsi-hd,drive=f1,bus=scsi0.0,channel=0,scsi-id=1,lun=0,wwn=0x5000c50015ea71ad
		-device mptsas1068,id=scsi1,msi=on
		-drive "if=none,id=d2,$(disk mptsas-msi)"
		-device scsi-hd,drive=d2,bus=scsi1.0,channel=0,scsi-id=0,lun=0,wwn=0x5000c50015ea71ae
		-blockdev "$(fast f2)"
		-device scsi-hd,drive=f2,bus=scsi1.0,channel=0,scsi-id=1,lun=0,wwn=0x5000c50015ea71af)
else
	qemu+=(-device mptsas1068,id=scsi0)
fi
qemu+=(
	-netdev "$netdev" -device virtio-net-pci,netdev=n0,mac=52:54:00:12:34:56)
# QEMU_EXTRA: more QEMU arguments, e.g. "-trace mptsas_irq_intx -D trace.log" to debug.
# shellcheck disable=SC2206
qemu+=(${QEMU_EXTRA:-})
# QEMU_TRACE: comma-separated QEMU trace events, logged to $RUN/qemu-trace.log with
# host timestamps (Debian's QEMU traces to its log: -trace enable=EVENT with -D FILE).
if [ -n "${QEMU_TRACE:-}" ]; then
	for ev in ${QEMU_TRACE//,/ }; do qemu+=(-trace "enable=$ev"); done
	qemu+=(-D "$RUN/qemu-trace.log" -msg timestamp=on)
	rm -f "$RUN/qemu-trace.log"
fi
# NO_MPTSAS_DISK=1 leaves the HBA without its disk (harness self-test).
if [ "${NO_MPTSAS_DISK:-0}" != 1 ]; then
	qemu+=(-drive "if=none,id=d1,$(disk mptsas)"
		-device scsi-hd,drive=d1,bus=scsi0.0,channel=0,scsi-id=0,lun=0,wwn=0x5000c50015ea71ac)
fi

if [ "$shell" = 1 ]; then
	"${inns[@]}" "${qemu[@]}" -serial mon:stdio -serial null -serial null
	exit $?
fi

qemu+=(-monitor none -serial "file:$RUN/console.log" -serial "file:$RUN/ktap.log"
	-serial "file:$RUN/data.b64")
printf '%q ' "${qemu[@]}" >"$RUN/qemu-cmd"
echo >>"$RUN/qemu-cmd"
echo "qemu did not run" >"$RUN/console.log"
: >"$RUN/ktap.log"
info "booting the $kind kernel (timeout ${timeout_s}s); run dir $RUN"

# QEMU runs in the background; the guest's results are shown as they arrive.
set +e
"${inns[@]}" timeout -k 10 "$timeout_s" "${qemu[@]}" </dev/null >"$RUN/qemu.out" 2>&1 &
qpid=$!
# QEMU_PIN=1: vCPU N's thread ("CPU N/TCG", named with debug-threads=on; this run's QEMU is "irqp-PID") to host CPU N.
if [ "${QEMU_PIN:-0}" = 1 ]; then
	(for _ in $(seq 100); do
		sleep 0.2
		for c in /proc/[0-9]*/task/*/comm; do
			case $(cat "$c" 2>/dev/null) in
			"CPU "*"/TCG")
				n=$(cut -d' ' -f2 "$c" | cut -d/ -f1)
				t=${c%/comm}
				grep -qa "irqp-$$,debug-threads" "${c%/task/*}/cmdline" 2>/dev/null || continue
				taskset -p -c "$((n % $(nproc)))" "${t##*/}" >>"$RUN/pin.log" 2>&1 ;;
			esac
		done
		[ -s "$RUN/pin.log" ] && [ "$(grep -c 'new affinity' "$RUN/pin.log")" -ge "${QEMU_SMP:-2}" ] && break
	done) &
fi
shown=0
show_new()
{
	local lines
	lines=$(grep -E '^(not )?ok ' "$RUN/ktap.log" 2>/dev/null)
	[ -n "$lines" ] || return 0
	printf '%s\n' "$lines" | tail -n +$((shown + 1)) | while IFS= read -r l; do
		printf '  guest: %s (elapsed %s)\n' "$l" "$(elapsed)"
	done
	shown=$(printf '%s\n' "$lines" | wc -l)
}
# Benchmarks log "irqp: bench: ..." on the console: show the latest every 30 s.
lastp=
tick=0
while kill -0 "$qpid" 2>/dev/null; do
	show_new
	tick=$((tick + 1))
	if [ -n "$bench" ] && [ $((tick % 15)) = 0 ]; then
		p=$(grep -a 'irqp: bench: ' "$RUN/console.log" 2>/dev/null | tail -n 1 | tr -d '\r')
		[ -n "$p" ] && [ "$p" != "$lastp" ] && printf '  guest: %s (elapsed %s)\n' "${p#*irqp: }" "$(elapsed)"
		lastp=$p
	fi
	sleep 2
done
wait "$qpid"
rc=$?
show_new
set -e

if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
	echo "ERROR: the guest did not finish within ${timeout_s}s; last console lines:" >&2
	tail -n 25 "$RUN/console.log" | sed 's/^/    | /' >&2
	echo "       console: $RUN/console.log" >&2
	exit 2
fi
if [ "$rc" != 0 ]; then
	cat "$RUN/qemu.out" >&2
	die "qemu exited with status $rc" "$RUN/qemu.out"
fi
if [ -s "$RUN/data.b64" ]; then
	sed '/^=== irqp data end ===/,$d' "$RUN/data.b64" | tr -d '\r' | base64 -d 2>/dev/null |
		tar -x -C "$RUN/results" || die "benchmark data from the guest is corrupt" "$RUN/data.b64"
fi
exit 0
