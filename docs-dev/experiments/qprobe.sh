#!/bin/sh
# Experiment (docs-dev/auto-model.md): how many commands does fio "QD32" put in
# each device?  Copy to tests/guest/tests/ and run tests/qemu-run.sh -T qprobe debug.
. /irqp/lib.sh
for h in /sys/class/scsi_host/host*; do
	echo "$(basename $h): proc_name=$(cat $h/proc_name) can_queue=$(cat $h/can_queue) cmd_per_lun=$(cat $h/cmd_per_lun 2>/dev/null) host_busy=$(cat $h/host_busy)"
done
for d in /sys/block/sd*; do
	echo "$(basename $d): queue_depth=$(cat $d/device/queue_depth 2>/dev/null) nr_requests=$(cat $d/queue/nr_requests) host=$(basename $(readlink -f $d/device/../..) )"
done
for drv in mptsas ahci; do
	dev=$(find_disk $drv) || continue
	name=$(basename $dev)
	host=$(readlink -f /sys/block/$name/device | sed 's|.*/\(host[0-9]*\)/.*|\1|')
	for m in off auto; do
		set_mode $drv $m >/dev/null 2>&1 || echo "set_mode $drv $m failed"
		fio --name=q --filename=$dev --rw=randread --bs=4k --direct=1 --ioengine=libaio \
			--iodepth=32 --runtime=3 --time_based --readonly >/dev/null 2>&1 &
		pid=$!
		sleep 1
		s=""; i=0
		while [ $i -lt 10 ]; do
			s="$s $(cat /sys/class/scsi_host/$host/host_busy)/$(cat /sys/block/$name/inflight | tr -s ' ' | cut -d' ' -f2)"
			i=$((i + 1)); sleep 0.1
		done
		wait $pid
		echo "$drv $name $host mode=$m host_busy/block_inflight:$s"
	done
done
exit 0
