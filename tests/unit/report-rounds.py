#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit test of tests/report.py's rounds: builds a run directory of network results in
three rounds whose baseline differs per round, and checks that each round is paired
with its own baseline and that the table shows the median (not the mean, not a ratio
of medians).  Exit status 0 when every check holds."""
import json
import os
import subprocess
import sys
import tempfile

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')
# (mode, round): Gbit/s, interrupts.  Baseline 1.0, 2.0, 1.0 Gbit/s; sample ratios
# 0.8, 0.9 and 1.3: median 0.90x; the mean (1.00x) or the ratio of medians (1.10 / 1.0)
# would read differently.
CASES = {
    ('virtio_net', 1): (1.0, 1000), ('virtio_net', 2): (2.0, 1000),
    ('virtio_net', 3): (1.0, 1000),
    ('sample-on', 1): (0.8, 400), ('sample-on', 2): (1.8, 500),
    ('sample-on', 3): (1.3, 600),
}


def write(d, name, text):
    with open(os.path.join(d, name), 'w') as f:
        f.write(text)


def main():
    run = tempfile.mkdtemp(prefix='report-rounds.')
    for (mode, rnd), (gbit, irqs) in CASES.items():
        d = os.path.join(run, 'results', 'net-%s-receive-r%d' % (mode, rnd))
        os.makedirs(d)
        write(d, 'meta', 'kind=net\ndev=virtio-net\nmode=%s\njob=receive\nround=%d\n'
              'irqs=24\nrc=0\n' % (mode, rnd))
        nbytes = gbit * 1e9 / 8 * 10
        write(d, 'out.json', json.dumps({'end': {'sum_received': {
            'bytes': nbytes, 'bits_per_second': gbit * 1e9}}}))
        write(d, 'irq.before', '0\n')
        write(d, 'irq.after', '%d\n' % irqs)
        write(d, 'stat.before', 'cpu 0 0 0 0 0 0 0 0 0 0\n')
        write(d, 'stat.after', 'cpu 0 0 100 0 0 0 0 0 0 0\n')
    p = subprocess.run([sys.executable, os.path.join(TOP, 'tests', 'report.py'), run],
                       capture_output=True, text=True)
    out = p.stdout
    rows = [l.split() for l in out.splitlines() if l.startswith('virtio-net ')]
    table = [r for r in rows if len(r) > 4 and r[4].startswith('(')]
    spread = [r for r in rows if r not in table]
    checks = [
        ('exit status 0', p.returncode == 0),
        ('one table row per mode', [r[1] for r in table] == ['virtio_net', 'sample-on']),
        # irq/GB: baseline 800, 400, 800; sample 400, 222, 369 (ratios 0.50, 0.56, 0.46)
        ('median values and ratios', len(table) == 2 and
         table[1][3:7] == ['1.300', '(0.90x)', '369', '(0.50x)']),
        ('each round\'s ratios', [r[3:] for r in spread] ==
         [['0.80x', '0.50x', '0.90x', '0.56x', '1.30x', '0.46x']]),
        ('results-rounds.csv has every round',
         os.path.exists(os.path.join(run, 'results-rounds.csv')) and
         len(open(os.path.join(run, 'results-rounds.csv')).read().splitlines()) == 7),
    ]
    bad = [c for c, ok in checks if not ok]
    for c in bad:
        print('# report-rounds: failed: %s' % c)
    if bad:
        print('\n'.join('# ' + l for l in (out + p.stderr).splitlines()))
    subprocess.run(['rm', '-rf', run])
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
