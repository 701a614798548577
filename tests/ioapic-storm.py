#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Judge QEMU's IOAPIC trace of a guest run: a level-triggered interrupt storm fails.

Usage: ioapic-storm.py QEMU_TRACE_LOG [CONSOLE_LOG]

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

With the guest's console log, each event is matched to the guest test that ran at
that time (the guest logs "irqp: test N: NAME rc=RC time START-END" in host seconds:
its clock is QEMU's RTC, set from the host's).

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


TEST = re.compile(r'irqp: test \d+: (?P<name>\S+) rc=\S+ time (?P<t0>\d+)-(?P<t1>\d+)')


def tests_of(console):
    """[(start, end, name)] of the guest tests in a console log."""
    try:
        with open(console, errors='replace') as f:
            return [(int(m.group('t0')), int(m.group('t1')), m.group('name'))
                    for m in (TEST.search(l) for l in f) if m]
    except OSError:
        return []


def test_at(tests, t):
    """Name of the test running at host time t (1 s slack: the RTC has seconds)."""
    try:
        t = float(t)
    except ValueError:
        return None
    for t0, t1, name in tests:
        if t0 - 1 <= t <= t1 + 1:
            return name
    return 'no test'


def main(argv):
    if len(argv) not in (1, 2):
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
    tests = tests_of(argv[1]) if len(argv) == 2 else []
    for pin, times in sorted(storms.items()):
        print('ioapic pin %s: %d x ioapic_eoi_delayed_reassert (10000 EOIs with the line '
              'still asserted, each), first at %s, last at %s'
              % (pin, len(times), times[0], times[-1]))
        if tests:
            during = {}
            for t in times:
                name = test_at(tests, t)
                during[name] = during.get(name, 0) + 1
            print('  during: ' + ', '.join('%s %d' % kv for kv in during.items()))
    return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
