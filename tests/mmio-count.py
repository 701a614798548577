#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Count the guest's register accesses to the disk controllers per I/O (make run BENCH=mmio).

Usage: mmio-count.py RUN_DIR     writes RUN_DIR/mmio.txt, mmio.csv and mmio-figures.txt

Under TCG every access to a device register leaves the translated code for QEMU's
device model, so the polled path's own cost is largely its register accesses.  The
guest cannot count them; QEMU can: BENCH=mmio boots with the trace events of the AHCI
and MPT SAS register handlers (ahci_mem_read/ahci_mem_write, mptsas_mmio_read/
mptsas_mmio_write) and pci_cfg_read, logged by QEMU's "log" backend to
RUN_DIR/qemu-trace.log ("PID@SECONDS:EVENT ARGS").  The guest (tests/guest/lib.sh,
window_job with MMIO_MARK=1) reads config byte 0x3e of the host bridge (00:00.0) when
a measured window begins and byte 0x3f when it ends, and lists the windows in order in
RUN_DIR/results/mmio-windows; the I/Os of each window come from its record
(tests/report.py), whose counters are read just outside the marks (a few tens of ms of a
window of seconds).  Accesses are broken down by register (names below; other
offsets print as hex).

Exit: 0 counted, 1 broken input (no trace events, window count mismatch), 2 usage.
"""
import csv
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import report  # noqa: E402

EVENT = re.compile(r'^(?:\d+@[\d.]+:)?(?P<ev>\w+) ?(?P<args>.*)$')
MARK_BEGIN, MARK_END = 0x3e, 0x3f
DEVICE_EVENTS = {
    'ahci_mem_read': ('ahci', 'r'), 'ahci_mem_write': ('ahci', 'w'),
    'mptsas_mmio_read': ('mptsas', 'r'), 'mptsas_mmio_write': ('mptsas', 'w'),
}
# AHCI 1.3: host registers below 0x100, then 0x80 per port
AHCI_HOST = {0x04: 'GHC', 0x08: 'IS'}
AHCI_PORT = {0x10: 'PxIS', 0x14: 'PxIE', 0x18: 'PxCMD', 0x20: 'PxTFD', 0x30: 'PxSERR',
             0x34: 'PxSACT', 0x38: 'PxCI', 0x3c: 'PxSNTF'}
# MPI system interface registers (mpi.h)
MPT = {0x00: 'Doorbell', 0x04: 'WriteSequence', 0x08: 'Diagnostic', 0x30: 'IntStatus',
       0x34: 'IntMask', 0x40: 'RequestFifo', 0x44: 'ReplyFifo'}


def reg_name(dev, addr):
    if dev == 'ahci':
        if addr < 0x100:
            return AHCI_HOST.get(addr, 'host+0x%x' % addr)
        return AHCI_PORT.get((addr - 0x100) % 0x80, 'port+0x%x' % ((addr - 0x100) % 0x80))
    return MPT.get(addr, '0x%x' % addr)


def address(ev, args):
    """The register offset of a device event, or the config offset of pci_cfg_read."""
    if ev == 'pci_cfg_read':
        m = re.search(r'@0x([0-9a-f]+)', args)
    elif ev.startswith('ahci'):
        m = re.search(r'@ ?0x([0-9a-f]+)', args)
    else:
        m = re.search(r'addr 0x([0-9a-f]+)', args)
    return int(m.group(1), 16) if m else None


def host_bridge(args):
    """pci_cfg_read of 00:00.0 (QEMU 7.2 prints "NAME 00:0", later "NAME 00:00.0")."""
    f = args.split()
    return len(f) > 1 and f[1] in ('00:0', '00:00.0')


def windows(lines):
    """[{(dev, 'r'|'w', register): count}] of each marked window, in order, and the
    number of device events seen anywhere (0 means the trace is dead)."""
    out, cur, seen = [], None, 0
    for line in lines:
        m = EVENT.match(line.strip())
        if not m:
            continue
        ev, args = m.group('ev'), m.group('args')
        if ev == 'pci_cfg_read':
            if not host_bridge(args):
                continue
            a = address(ev, args)
            if a == MARK_BEGIN:
                cur = {}
            elif a == MARK_END and cur is not None:
                out.append(cur)
                cur = None
            continue
        if ev not in DEVICE_EVENTS:
            continue
        seen += 1
        if cur is None:
            continue
        dev, rw = DEVICE_EVENTS[ev]
        a = address(ev, args)
        key = (dev, rw, reg_name(dev, a) if a is not None else '?')
        cur[key] = cur.get(key, 0) + 1
    return out, seen


def count(run):
    names = open(os.path.join(run, 'results', 'mmio-windows')).read().split()
    with open(os.path.join(run, 'qemu-trace.log'), errors='replace') as f:
        wins, seen = windows(f)
    if not seen:
        raise ValueError('no register access in %s/qemu-trace.log: the trace is dead' % run)
    if len(wins) != len(names):
        raise ValueError('%d marked windows in the trace, %d listed by the guest'
                         % (len(wins), len(names)))
    rows = []
    for name, w in zip(names, wins):
        rec = report.read_record(os.path.join(run, 'results', name))
        ios = rec['iops'] * rec['window_s']             # the record's I/Os
        dev = 'ahci' if rec['dev'] == 'ahci' else 'mptsas'
        row = {k: rec[k] for k in ('dev', 'regime', 'job', 'mode', 'round')}
        row['ios'] = ios
        row['dev_irq_io'] = rec['dev_irq_io']
        row['polls_io'] = rec['per'].get('polls', 0)
        regs = {}
        for (d, rw, reg), n in w.items():
            if d == dev:
                regs['%s %s' % ('read' if rw == 'r' else 'write', reg)] = n / ios
        row['mmio_io'] = sum(regs.values())
        row['regs'] = regs
        rows.append(row)
    return rows


def merge(rows):
    """Median over rounds per device, regime, job and mode, and the ratio of the
    accesses per I/O to off of the same device, regime and job."""
    groups = {}
    for r in rows:
        groups.setdefault((r['dev'], r['regime'], r['job'], r['mode']), []).append(r)
    out = []
    for key, g in groups.items():
        m = dict(zip(('dev', 'regime', 'job', 'mode'), key))
        m['rounds'] = len(g)
        for k in ('mmio_io', 'dev_irq_io', 'polls_io'):
            m[k] = report.median([r[k] for r in g])
        regs = set(k for r in g for k in r['regs'])
        m['regs'] = {k: report.median([r['regs'].get(k, 0.0) for r in g]) for k in regs}
        out.append(m)
    out.sort(key=lambda m: (report.rank(m['dev']), report.rank(m['regime']),
                            report.rank(m['job']), report.rank(m['mode'])))
    base = {(m['dev'], m['regime'], m['job']): m for m in out if m['mode'] == 'off'}
    for m in out:
        b = base.get((m['dev'], m['regime'], m['job']))
        m['ratio'] = m['mmio_io'] / b['mmio_io'] if b and b['mmio_io'] else None
    return out


def table(merged):
    lines = ['register accesses per I/O (QEMU trace; medians over rounds; '
             'ratio to off of the same job)',
             '%-12s %-5s %-5s %-6s %9s %6s %9s %9s  %s' % (
                 'device', 'reg', 'job', 'mode', 'mmio/IO', 'ratio', 'dev irq', 'polls',
                 'per register')]
    for m in merged:
        ratio = '%.2fx' % m['ratio'] if m['ratio'] is not None else '-'
        regs = ', '.join('%s %.2f' % (k, v) for k, v in
                         sorted(m['regs'].items(), key=lambda kv: (-kv[1], kv[0])) if v >= 0.005)
        lines.append('%-12s %-5s %-5s %-6s %9.2f %6s %9.3f %9.3f  %s' % (
            m['dev'], m['regime'], m['job'], m['mode'], m['mmio_io'], ratio,
            m['dev_irq_io'], m['polls_io'], regs))
    return lines


def figures(merged):
    """mmio.DEVICE.REGIME.JOB.MODE.mmio_io = accesses per I/O, and .ratio to off."""
    out = []
    for m in merged:
        key = 'mmio.%s.%s.%s.%s.mmio_io' % (m['dev'], m['regime'], m['job'], m['mode'])
        out.append('%s = %.2f' % (key, m['mmio_io']))
        if m['mode'] != 'off' and m['ratio'] is not None:
            out.append('%s.ratio = %.2fx' % (key, m['ratio']))
    return out


def main(argv):
    if len(argv) != 1:
        sys.stderr.write(__doc__)
        return 2
    run = argv[0]
    try:
        merged = merge(count(run))
    except (ValueError, KeyError, OSError) as e:
        print('mmio-count: %s' % e)
        return 1
    text = '\n'.join(table(merged))
    print(text)
    open(os.path.join(run, 'mmio.txt'), 'w').write(text + '\n')
    open(os.path.join(run, 'mmio-figures.txt'), 'w').write(
        '# KEY = VALUE; quoted as {fig:KEY} (tests/figures.py)\n' + '\n'.join(figures(merged)) + '\n')
    regs = sorted(set(k for m in merged for k in m['regs']))
    with open(os.path.join(run, 'mmio.csv'), 'w', newline='') as f:
        w = csv.writer(f)
        w.writerow(['dev', 'regime', 'job', 'mode', 'rounds', 'mmio_io', 'dev_irq_io',
                    'polls_io'] + regs)
        for m in merged:
            w.writerow([m[k] for k in ('dev', 'regime', 'job', 'mode', 'rounds', 'mmio_io',
                                       'dev_irq_io', 'polls_io')] +
                       [m['regs'].get(k, 0.0) for k in regs])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
