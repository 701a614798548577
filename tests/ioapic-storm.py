#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge QEMU's IOAPIC trace of a guest run: a level-triggered interrupt storm fails.

Usage: ioapic-storm.py QEMU_TRACE_LOG

QEMU's IOAPIC (hw/intc/ioapic.c) counts, per pin, successive EOIs after which the
level-triggered line is still asserted; at 10000 it stops re-raising the line for
10 ms and emits the trace event ioapic_eoi_delayed_reassert.  Real hardware has no
such brake: a driver that returns from its handler with the line still asserted
interrupts the CPU forever.  Any such event is a storm.

The trace comes from QEMU's "log" backend (tests/qemu-run.sh with QEMU_TRACE, which
gives "-trace enable=EVENT -D FILE -msg timestamp=on"): one line per event,
"PID@SECONDS.USECONDS:EVENT ARGS".  ioapic_mem_write is traced too, as proof the
trace works: the guest programs the IOAPIC's redirection entries at boot, so a live
trace of a booted guest always has some.

Exit: 0 no storm, 1 storm (each pin's events and the first and last times printed),
2 no usable trace (file missing or no ioapic_mem_write event: the trace is dead).
"""
import re
import sys

EVENT = re.compile(r'^(?:\d+@(?P<t>[\d.]+):)?(?P<ev>ioapic_\w+) ?(?P<args>.*)$')


def judge(lines):
    """Return (writes, {pin: [times]}) of the trace lines."""
    writes = 0
    storms = {}
    for line in lines:
        m = EVENT.match(line.strip())
        if not m:
            continue
        if m.group('ev') == 'ioapic_mem_write':
            writes += 1
        elif m.group('ev') == 'ioapic_eoi_delayed_reassert':
            pin = re.findall(r'\d+', m.group('args'))
            storms.setdefault(pin[-1] if pin else '?', []).append(m.group('t') or '?')
    return writes, storms


def main(argv):
    if len(argv) != 1:
        sys.stderr.write(__doc__)
        return 2
    try:
        with open(argv[0], errors='replace') as f:
            lines = f.readlines()
    except OSError as e:
        print('%s: no QEMU trace: %s' % (argv[0], e))
        return 2
    writes, storms = judge(lines)
    if writes == 0:
        print('%s: no ioapic_mem_write event: the QEMU trace is not working' % argv[0])
        return 2
    if not storms:
        print('ioapic: no delayed reassert (%d redirection writes traced)' % writes)
        return 0
    for pin, times in sorted(storms.items()):
        print('ioapic pin %s: %d x ioapic_eoi_delayed_reassert (10000 EOIs with the line '
              'still asserted, each), first at %s, last at %s'
              % (pin, len(times), times[0], times[-1]))
    return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
