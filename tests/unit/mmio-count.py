#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit test of tests/mmio-count.py on a made-up BENCH=mmio run: two ahci windows (off,
on) and one mptsas window, marked in the QEMU trace the way mmio_mark in
tests/guest/lib.sh marks them (both QEMU formats of pci_cfg_read), with accesses
outside the marks, a config read of another device at the mark's offset and another
controller's accesses inside a window, none of which may count; a window the guest did
not list and a dead trace must be refused.
Prints "ok NAME" / "not ok NAME" lines; exit status 0 when every check holds."""
import importlib.util
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.join(HERE, '..', '..')
spec = importlib.util.spec_from_file_location('report_bench',
                                              os.path.join(HERE, 'report-bench.py'))
rb = importlib.util.module_from_spec(spec)
spec.loader.exec_module(rb)

AHCI_R = '1@1.0:ahci_mem_read ahci(0x5555): read4 @ 0x%x: 0x0000000000000000'
AHCI_W = '1@1.0:ahci_mem_write ahci(0x5555): write4 @ 0x%x: 0x0000000000000001'
MPT_R = '1@1.0:mptsas_mmio_read dev 0x6666 addr 0x%08x value 0x0'
MPT_W = '1@1.0:mptsas_mmio_write dev 0x6666 addr 0x%08x value 0x0'
MARK_72 = '1@1.0:pci_cfg_read mch 00:0 @0x%x -> 0x0'          # QEMU 7.2
MARK_80 = '1@1.0:pci_cfg_read mch 00:00.0 @0x%x -> 0x0'       # later QEMU


def window(ios):
    return (rb.snap(10.0, 5000, 1000, 400, 5, 7, 3, 50, (10, 20, 30, 40)),
            rb.snap(12.0, 5000 + ios, 1000 + ios, 500, 15, 27, 33, 50, (30, 60, 40, 50)))


def make_run(listed):
    run = tempfile.mkdtemp(prefix='mmio-count.')
    for name, dev, mode, ios in (('ahci-fast-qd32-off-r1', 'ahci', 'off', 1000),
                                 ('ahci-fast-qd32-on-r1', 'ahci', 'on', 1000),
                                 ('mptsas-intx-fast-qd32-off-r1', 'mptsas-intx', 'off', 500)):
        b, a = window(ios)
        rb.record(run, name, 'kind=disk\ndev=%s\nregime=fast\njob=qd32\nmode=%s\nround=1\n'
                  'seq=1\nirqs=24\nrc=0\n' % (dev, mode), b, a, rb.FIO)
    with open(os.path.join(run, 'results', 'mmio-windows'), 'w') as f:
        f.write('\n'.join(listed) + '\n')
    port1 = 0x180
    t = []
    t += [AHCI_R % (port1 + 0x10)] * 50                 # boot: before any mark
    t += ['1@1.0:pci_cfg_read mch 00:0 @0x3f -> 0x0']   # an end without a begin
    # window 1, ahci off: 1000 I/Os, PxIS read+write 1000 each, PxSACT 1000, IS 2000
    t += [MARK_72 % 0x3e]
    t += [AHCI_R % (port1 + 0x10), AHCI_W % (port1 + 0x10), AHCI_R % (port1 + 0x34)] * 1000
    t += [AHCI_R % 0x08, AHCI_W % 0x08] * 1000
    t += ['1@1.0:pci_cfg_read ahci 00:4 @0x3e -> 0x0']  # another device: not a mark
    t += [MPT_R % 0x44] * 300                           # another controller: not ahci's
    t += [MARK_72 % 0x3f]
    t += [AHCI_W % (port1 + 0x14)] * 70                 # between windows
    # window 2, ahci on: the same plus PxIE mask/unmask 500 each
    t += [MARK_80 % 0x3e]
    t += [AHCI_R % (port1 + 0x10), AHCI_W % (port1 + 0x10), AHCI_R % (port1 + 0x34)] * 1000
    t += [AHCI_R % 0x08, AHCI_W % 0x08] * 1000
    t += [AHCI_W % (port1 + 0x14)] * 1000
    t += [MARK_80 % 0x3f]
    # window 3, mptsas off: 500 I/Os, ReplyFifo 2 reads per I/O, RequestFifo 1 write
    t += [MARK_72 % 0x3e] + [MPT_R % 0x44] * 1000 + [MPT_W % 0x40] * 500 + [MARK_72 % 0x3f]
    with open(os.path.join(run, 'qemu-trace.log'), 'w') as f:
        f.write('\n'.join(t) + '\n')
    return run


def run_tool(run, seed=None):
    env = dict(os.environ, PYTHONHASHSEED=str(seed)) if seed is not None else None
    return subprocess.run([sys.executable, os.path.join(TOP, 'tests', 'mmio-count.py'), run],
                          capture_output=True, text=True, env=env)


def main():
    res = []
    names = ['ahci-fast-qd32-off-r1', 'ahci-fast-qd32-on-r1', 'mptsas-intx-fast-qd32-off-r1']
    run = make_run(names)
    p = run_tool(run)
    res.append(('mmio.exit', p.returncode == 0))
    rows = {}
    for line in p.stdout.splitlines()[2:]:
        f = line.split()
        rows[(f[0], f[3])] = f
    off, on, mpt = rows.get(('ahci', 'off')), rows.get(('ahci', 'on')), rows.get(('mptsas-intx', 'off'))
    # ahci off: (1000 + 1000 + 1000 + 2000) / 1000 I/Os = 5 per I/O; on: 6 per I/O
    res.append(('mmio.window-count', off is not None and off[4] == '5.00'))
    res.append(('mmio.ratio-to-off', on is not None and on[4] == '6.00' and on[5] == '1.20x'))
    res.append(('mmio.per-register', on is not None and 'write PxIE 1.00' in ' '.join(on)
                and 'read PxSACT 1.00' in ' '.join(on) and 'write IS 1.00' in ' '.join(on)))
    # mptsas: 1500 / 500 I/Os; the 300 ReplyFifo reads in the ahci window are not ahci's
    res.append(('mmio.other-device', mpt is not None and mpt[4] == '3.00' and
                'read ReplyFifo 2.00' in ' '.join(mpt)))
    res.append(('mmio.files', os.path.isfile(os.path.join(run, 'mmio.txt')) and
                os.path.isfile(os.path.join(run, 'mmio.csv'))))
    figs = open(os.path.join(run, 'mmio-figures.txt')).read().splitlines()
    res.append(('mmio.figures', 'mmio.ahci.fast.qd32.on.mmio_io.ratio = 1.20x' in figs and
                'mmio.mptsas-intx.fast.qd32.off.mmio_io = 3.00' in figs))
    # the same records give the same text whatever Python's hash seed (registers with
    # equal counts listed by name), so results blocks stay quotable
    outs = set()
    for seed in (1, 2, 3):
        run_tool(run, seed)
        outs.add(open(os.path.join(run, 'mmio.txt')).read())
    res.append(('mmio.deterministic', len(outs) == 1))
    # the guest listed two windows, the trace has three: refused
    run2 = make_run(names[:2])
    p = run_tool(run2)
    res.append(('mmio.window-mismatch', p.returncode == 1 and 'marked windows' in p.stdout))
    # no register access at all: a dead trace
    with open(os.path.join(run2, 'qemu-trace.log'), 'w') as f:
        f.write((MARK_72 % 0x3e) + '\n' + (MARK_72 % 0x3f) + '\n')
    with open(os.path.join(run2, 'results', 'mmio-windows'), 'w') as f:
        f.write(names[0] + '\n')
    p = run_tool(run2)
    res.append(('mmio.dead-trace', p.returncode == 1 and 'dead' in p.stdout))
    for name, ok in res:
        print('%s %s' % ('ok' if ok else 'not ok', name))
    return 0 if all(ok for _, ok in res) else 1


if __name__ == '__main__':
    sys.exit(main())
