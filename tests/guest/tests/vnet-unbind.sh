#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The sample driver unbound, rebound and then unloaded while iperf3 traffic runs in
# both directions: nothing may hang or splat, the NIC must work after each step, the
# instances must go away with the device, and kmemleak must report nothing new.
. /irqp/lib.sh
KL=/sys/kernel/debug/kmemleak
[ -w $KL ] || { echo "FAIL: no $KL (CONFIG_DEBUG_KMEMLEAK)"; exit 1; }
# leaks WHAT: scan twice (kmemleak reports an object on its second sighting), then
# fail on anything reported since the last "clear".
leaks()
{
	echo scan >$KL; sleep 2; echo scan >$KL
	if grep -q "unreferenced object" $KL; then
		echo "FAIL: kmemleak after $1:"
		head -60 $KL
		rc=1
	else
		echo "kmemleak after $1: nothing new"
	fi
	echo clear >$KL
}
rc=0
echo scan >$KL; echo clear >$KL
net_use virtio_net_irq_poll || exit 1
vdev=$(virtio_net_dev)
# traffic SECONDS: iperf3 in both directions in the background (pid in $tpid).
traffic()
{
	iperf3 -c 10.0.2.2 -p "$IPERF_PORT" -t "$1" --bidir >/dev/null 2>&1 &
	tpid=$!
	sleep 3
}
# reap: iperf3 fails when its interface goes away, or waits on TCP retransmits;
# either way it is stopped after its own run time.
reap()
{
	local t=25
	while kill -0 $tpid 2>/dev/null && [ $t -gt 0 ]; do sleep 1; t=$((t - 1)); done
	kill -0 $tpid 2>/dev/null && { echo "iperf3 still waiting: stopped"; kill -9 $tpid; }
	wait $tpid 2>/dev/null
}
traffic 20
echo "$vdev" >/sys/bus/virtio/drivers/virtio_net_irq_poll/unbind || rc=1
reap
[ -z "$(ls -d /sys/kernel/irq_poll/instances/vnet-* 2>/dev/null)" ] ||
	{ echo "FAIL: instances left after unbind"; rc=1; }
echo "unbind under traffic: done"
leaks "unbind under traffic"
net_use virtio_net_irq_poll || exit 1
net_put 8 || rc=1
traffic 20
rmmod virtio_net_irq_poll || { echo "FAIL: rmmod"; rc=1; }
reap
[ ! -d /sys/module/virtio_net_irq_poll ] || { echo "FAIL: module still loaded"; rc=1; }
[ -z "$(ls -d /sys/kernel/irq_poll/instances/vnet-* 2>/dev/null)" ] ||
	{ echo "FAIL: instances left after rmmod"; rc=1; }
echo "rmmod under traffic: done"
leaks "unbind and rmmod under traffic"
net_use virtio_net_irq_poll || rc=1
net_get 8 || rc=1
net_use virtio_net || rc=1
net_get 8 || rc=1
exit $rc
