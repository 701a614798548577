#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Pool the paired rounds of several boots: one mode against `off`, per metric.

Usage: pool.py [--job JOB] [--mode MODE] [--dev PREFIX] [--regime file|fast] RESULTS_DIR...

Each RESULTS_DIR is a results/ directory that `make run` wrote (its
results-rounds.csv).  Within a boot, each run of MODE is divided by its round's
baseline run nearest to it (`off` or `off2`; `off2` by `off`), as the report pairs them
(tests/report.py pair()); the log-ratios of every round of every boot are averaged
(geometric mean), and the 90% interval comes from a bootstrap that resamples whole
(boot, disk, regime) clusters, so that a boot that drifted as a whole counts once per
disk, not once per round.  `off2` against `off` (the A/A control) is printed beside it:
a pooled mode is only "worse than off" by what it loses beyond that.

Not part of make run: the report judges one boot, this pools boots of the same series
(check run-info.txt) measured with the same command.
"""
import argparse
import collections
import csv
import math
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'tests'))
import report  # noqa: E402  (pairing and ratios as make run's report has them)

METRICS = ['iops', 'p50_us', 'p99_us', 'irq_io', 'cpu_us_io']


def load(dirs, job, dev, regime):
    """The disk runs of JOB in each of DIRS, each paired with its baseline run by
    report.pair() within its own boot."""
    runs = []
    for d in dirs:
        rows = []
        with open(os.path.join(d, 'results-rounds.csv')) as f:
            for r in csv.DictReader(f):
                if r['kind'] != 'disk' or r['job'] != job:
                    continue
                if dev and not r['dev'].startswith(dev):
                    continue
                if regime and r['regime'] != regime:
                    continue
                r['seq'] = int(r['seq'])
                for m in METRICS:
                    r[m] = float(r[m]) if r[m] else None
                r['boot'] = d
                rows.append(r)
        report.pair(rows)
        runs += rows
    return runs


def pooled(runs, mode, metric, rng, n=4000):
    clusters = collections.defaultdict(list)
    for r in runs:
        x = report.ratio_of(r, metric) if r['mode'] == mode else float('nan')
        if x == x and x > 0:
            clusters[(r['boot'], r['dev'], r['regime'])].append(math.log(x))
    if not clusters:
        return None
    keys = sorted(clusters)
    allv = [v for k in keys for v in clusters[k]]
    est = []
    for _ in range(n):
        s = [v for k in rng.choices(keys, k=len(keys)) for v in clusters[k]]
        est.append(sum(s) / len(s))
    est.sort()
    return (math.exp(sum(allv) / len(allv)), math.exp(est[int(0.05 * n)]),
            math.exp(est[int(0.95 * n) - 1]), len(allv), len(keys))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--job', default='qd4')
    ap.add_argument('--mode', default='auto')
    ap.add_argument('--dev', default='', help='only disks whose name starts so')
    ap.add_argument('--regime', default='', choices=['', 'file', 'fast'])
    ap.add_argument('dirs', nargs='+')
    args = ap.parse_args()
    runs = load(args.dirs, args.job, args.dev, args.regime)
    if not runs:
        raise SystemExit(f'no {args.job} rounds in {" ".join(args.dirs)}')
    print(f'{args.job}, {len(args.dirs)} boots; geometric mean of the paired rounds\' '
          'ratios to off [90% interval, clusters resampled]')
    for metric in METRICS:
        for mode in (args.mode, 'off2'):
            p = pooled(runs, mode, metric, random.Random(1))
            if p:
                print(f'{metric:10s} {mode:8s} {p[0]:.3f}x [{p[1]:.3f}-{p[2]:.3f}]'
                      f'  ({p[3]} rounds, {p[4]} clusters)')


if __name__ == '__main__':
    main()
