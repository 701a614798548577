#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Pool the paired rounds of several boots: one mode against `off`, per metric.

Usage: pool.py [--net] [--job JOB] [--mode MODE] [--dev PREFIX] [--regime file|fast]
               [--both | --versus MODE2] [--by-boot] RESULTS_DIR... [--against RESULTS_DIR...]

Each RESULTS_DIR is a results/ directory that `make run` wrote (its
results-rounds.csv).  Within a boot, each run of MODE is divided by its round's
baseline run nearest to it (`off` or `off2`; `off2` by `off`), as the report pairs them
(tests/report.py pair()); the log-ratios of every round of every boot are averaged
(geometric mean), and the 90% interval comes from a bootstrap that resamples whole
(boot, disk, regime) clusters, so that a boot that drifted as a whole counts once per
disk, not once per round.  `off2` against `off` (the A/A control) is printed beside it:
a pooled mode is only "worse than off" by what it loses beyond that.

--both divides each run of MODE by the geometric mean of both baseline runs of its round
instead (tests/report.py ratio_both(), rounds without both are left out), so that a slot
bias of one baseline weighs on no mode more than on another.  --versus MODE2 divides each
run of MODE by the run of MODE2 in the same round instead (as the report's "no static
setting better than auto" does, tests/report.py static_vs_auto()): e.g. a fixed deferral
against `auto`, with no baseline's own noise in the ratio.  --against pools a second
set of boots (another series, measured with the same command) the same way and prints
the ratio of the first set's pooled figure to the second's, its interval from resampling
the clusters of each set on its own: whether a change to the kernel moved MODE's ratio
to `off` by more than the boots' spread.  --by-boot resamples whole boots instead: the
honest interval for such an A/B, where what drifts is mostly the host from one boot to
the next, but a wide one unless there are many boots.  --net pools the network rows
instead (--job send or receive, --mode a network mode, `virtio_net` the baseline and
`virtio_net2` its A/A control).

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

METRICS = {'disk': ['iops', 'p50_us', 'p99_us', 'irq_io', 'cpu_us_io'],
           'net': ['gbit_s', 'irq_gb', 'cpu_ms_gb']}


def load(dirs, job, dev, regime, kind='disk'):
    """The runs of KIND (disk or net) and JOB in each of DIRS, each paired with its
    baseline run by report.pair() within its own boot."""
    runs = []
    for d in dirs:
        rows = []
        with open(os.path.join(d, 'results-rounds.csv')) as f:
            for r in csv.DictReader(f):
                if r['kind'] != kind or r['job'] != job:
                    continue
                if dev and not r['dev'].startswith(dev):
                    continue
                if regime and r['regime'] != regime:
                    continue
                r['seq'] = int(r['seq'])
                for m in METRICS[kind]:
                    r[m] = float(r[m]) if r[m] else None
                r['boot'] = d
                rows.append(r)
        report.pair(rows)
        runs += rows
    return runs


N = 4000


def versus_ratio(runs, versus):
    """A ratio function: a run's value over that of the VERSUS run of its round."""
    peer = {(r['boot'], r['dev'], r['regime'], r['round']): r
            for r in runs if r['mode'] == versus}

    def ratio(r, key):
        v = peer.get((r['boot'], r['dev'], r['regime'], r['round']))
        if not v or not v.get(key) or r.get(key) is None:
            return float('nan')
        return r[key] / v[key]
    return ratio


def clusters_of(runs, mode, metric, both=False, by_boot=False, versus=None):
    """The log-ratios of MODE's runs to their baseline (or to the VERSUS run of their
    round), grouped by (boot, disk, regime), or by boot alone."""
    aa = report.BASELINE[runs[0]['kind']][1] if runs else None
    ratio = report.ratio_both if both and mode != aa else report.ratio_of
    if versus and mode != aa:
        ratio = versus_ratio(runs, versus)
    clusters = collections.defaultdict(list)
    for r in runs:
        x = ratio(r, metric) if r['mode'] == mode else float('nan')
        if x == x and x > 0:
            key = (r['boot'],) if by_boot else (r['boot'], r['dev'], r['regime'])
            clusters[key].append(math.log(x))
    return clusters


def resample(clusters, rng):
    """Mean log-ratio of one bootstrap draw of whole clusters."""
    keys = sorted(clusters)
    s = [v for k in rng.choices(keys, k=len(keys)) for v in clusters[k]]
    return sum(s) / len(s)


def interval(est):
    est = sorted(est)
    return math.exp(est[int(0.05 * len(est))]), math.exp(est[int(0.95 * len(est)) - 1])


def mean_log(clusters):
    allv = [v for k in sorted(clusters) for v in clusters[k]]
    return sum(allv) / len(allv), len(allv)


def pooled(clusters, rng):
    """Geometric mean of all ratios, its 90% interval, rounds and clusters."""
    if not clusters:
        return None
    m, n = mean_log(clusters)
    lo, hi = interval([resample(clusters, rng) for _ in range(N)])
    return math.exp(m), lo, hi, n, len(clusters)


def contrast(ca, cb, rng):
    """Pooled figure of CA over that of CB, with the interval of the quotient when the
    clusters of each are resampled on their own."""
    if not ca or not cb:
        return None
    lo, hi = interval([resample(ca, rng) - resample(cb, rng) for _ in range(N)])
    return math.exp(mean_log(ca)[0] - mean_log(cb)[0]), lo, hi


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--net', action='store_true',
                    help='the network rows (--job send or receive, baseline virtio_net)')
    ap.add_argument('--job', default='qd4')
    ap.add_argument('--mode', default='auto')
    ap.add_argument('--dev', default='', help='only disks whose name starts so')
    ap.add_argument('--regime', default='', choices=['', 'file', 'fast'])
    ap.add_argument('--both', action='store_true',
                    help='MODE against the mean of both baseline runs of its round')
    ap.add_argument('--versus', default='', metavar='MODE2',
                    help='MODE against the run of MODE2 in its round, not the baseline')
    ap.add_argument('--by-boot', action='store_true',
                    help='resample whole boots, not (boot, disk, regime) clusters')
    ap.add_argument('dirs', nargs='+')
    ap.add_argument('--against', nargs='+', default=[], metavar='DIR',
                    help='a second set of boots to compare the first with')
    args = ap.parse_args()
    if args.versus and args.both:
        ap.error('--versus and --both are two different references; give one')
    kind = 'net' if args.net else 'disk'
    base, aa = report.BASELINE[kind]
    sets = [d for d in (args.dirs, args.against) if d]
    runs = []
    for dirs in sets:
        runs.append(load(dirs, args.job, args.dev, args.regime, kind))
        if not runs[-1]:
            raise SystemExit(f'no {args.job} rounds in {" ".join(dirs)}')
        if args.versus and not any(r['mode'] == args.versus for r in runs[-1]):
            raise SystemExit(f'no {args.versus} runs to compare with in {" ".join(dirs)}')
    if args.both:
        base = 'both baseline runs of their round'
    if args.versus:
        base = f'{base} ({args.mode}: to {args.versus} in the same round)'
    for i, dirs in enumerate(sets):
        if args.against:
            print(f'{"first" if i == 0 else "second"} set: {" ".join(dirs)}')
        print(f'{args.job}, {len(dirs)} boots; geometric mean of the paired rounds\' '
              f'ratios to {base} [90% interval, clusters resampled]')
        for metric in METRICS[kind]:
            for mode in (args.mode, aa):
                c = clusters_of(runs[i], mode, metric, args.both, args.by_boot,
                                args.versus)
                p = pooled(c, random.Random(1))
                if p:
                    print(f'{metric:10s} {mode:8s} {p[0]:.3f}x [{p[1]:.3f}-{p[2]:.3f}]'
                          f'  ({p[3]} rounds, {p[4]} clusters)')
    if args.against:
        print('first set against second: the quotient of the pooled ratios [90% interval]')
        for metric in METRICS[kind]:
            for mode in (args.mode, aa):
                c = contrast(*(clusters_of(r, mode, metric, args.both, args.by_boot,
                                           args.versus)
                               for r in runs),
                             random.Random(1))
                if c:
                    print(f'{metric:10s} {mode:8s} {c[0]:.3f}x [{c[1]:.3f}-{c[2]:.3f}]')


if __name__ == '__main__':
    main()
