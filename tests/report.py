#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the guest's benchmark records into a table, a CSV file and PNG plots.

Usage: report.py RUN_DIR

Reads RUN_DIR/results/*/ (written by tests/guest/lib.sh measure()) and writes
RUN_DIR/results.csv, RUN_DIR/results.txt (the table, also printed) and, with gnuplot,
RUN_DIR/<kind>.png.  Every row carries its ratio to the baseline of the same device
and job measured in the same boot (disk: mode "off"; network: "virtio_net").  Jobs run
in several rounds (meta "round") are paired with their round's baseline and reported
as medians; RUN_DIR/results-rounds.csv then keeps every round.  Under TCG absolute
figures mean little; the ratios are the result.
"""
import csv
import json
import os
import subprocess
import sys

USER_HZ = 100  # /proc/stat unit, fixed by the kernel ABI
BASELINE = {'disk': 'off', 'net': 'virtio_net'}


def cpu_ticks(path):
    """user, system, irq, softirq ticks of a /proc/stat cpu line."""
    f = open(path).read().split()
    v = [int(x) for x in f[1:]]
    # user nice system idle iowait irq softirq steal ...
    return {'user': v[0] + v[1], 'sys': v[2] + v[5] + v[6]}


def read_kv(path):
    """key=value lines of a file."""
    kv = {}
    for line in open(path):
        if '=' in line:
            k, v = line.strip().split('=', 1)
            kv[k] = v
    return kv


def read_counters(d):
    """Deltas of the irq_poll instance counters around a job, if recorded."""
    b, a = os.path.join(d, 'poll.before'), os.path.join(d, 'poll.after')
    if not (os.path.isfile(b) and os.path.isfile(a)):
        return {}
    b, a = read_kv(b), read_kv(a)
    return {k: int(a[k]) - int(b[k]) for k in a if k in b}


def read_timer(d):
    """Deferral timer delays (tests/guest/bench/disk.sh): requested vs fired."""
    meta = read_kv(os.path.join(d, 'meta'))
    us = [int(x) for x in open(os.path.join(d, 'delays_us')).read().split()]
    return meta, sorted(us)


def read_record(d):
    meta = read_kv(os.path.join(d, 'meta'))
    try:
        out = json.load(open(os.path.join(d, 'out.json')))
    except (ValueError, OSError) as e:
        raise ValueError('%s: no JSON result (%s); see %s/err' % (d, e, d))
    irqs = int(open(os.path.join(d, 'irq.after')).read()) - \
        int(open(os.path.join(d, 'irq.before')).read())
    b, a = cpu_ticks(os.path.join(d, 'stat.before')), cpu_ticks(os.path.join(d, 'stat.after'))
    sys_us = (a['sys'] - b['sys']) * 1e6 / USER_HZ
    row = dict(meta)
    row['irqs'] = irqs
    row['counters'] = read_counters(d)
    if meta['kind'] == 'disk':
        rd = out['jobs'][0]['read']
        ios = rd['total_ios']
        row['ios'] = ios
        pct = rd['clat_ns'].get('percentile', {})
        row.update({
            'iops': rd['iops'],
            'p50_us': pct.get('50.000000', 0) / 1000.0,
            'p99_us': pct.get('99.000000', 0) / 1000.0,
            'p99.9_us': pct.get('99.900000', 0) / 1000.0,
            'irq_per_io': irqs / ios if ios else float('nan'),
            'sys_us_per_io': sys_us / ios if ios else float('nan'),
        })
    else:
        end = out['end']
        if 'sum_received' in end:       # TCP: what the receiver got
            s = end['sum_received']
            lost = 0.0
        else:                           # UDP: one sum, with the receiver's losses
            s = end['sum']
            lost = s.get('lost_percent', 0.0)
        gb = s['bytes'] * (1 - lost / 100.0) / 1e9
        row.update({
            'gbit_s': s['bits_per_second'] * (1 - lost / 100.0) / 1e9,
            'lost_pct': lost,
            'irq_per_gb': irqs / gb if gb else float('nan'),
            'sys_ms_per_gb': sys_us / 1000.0 / gb if gb else float('nan'),
        })
    return row


COLS = {
    'disk': [('iops', 'IOPS', '%.0f'), ('p50_us', 'p50 us', '%.0f'), ('p99_us', 'p99 us', '%.0f'),
             ('p99.9_us', 'p99.9 us', '%.0f'), ('irq_per_io', 'irq/IO', '%.3f'),
             ('sys_us_per_io', 'sys us/IO', '%.1f')],
    'net': [('gbit_s', 'Gbit/s', '%.3f'), ('irq_per_gb', 'irq/GB', '%.0f'),
            ('sys_ms_per_gb', 'sys ms/GB', '%.0f'), ('lost_pct', 'lost %', '%.1f')],
}


def main(argv):
    if len(argv) != 1:
        sys.stderr.write(__doc__)
        return 2
    run = argv[0]
    base = os.path.join(run, 'results')
    rows = []
    timers = []
    errors = []
    for name in sorted(os.listdir(base)) if os.path.isdir(base) else []:
        d = os.path.join(base, name)
        if not os.path.isfile(os.path.join(d, 'meta')):
            continue
        try:
            if read_kv(os.path.join(d, 'meta')).get('kind') == 'timer':
                timers.append(read_timer(d))
            else:
                rows.append(read_record(d))
        except (ValueError, KeyError, IndexError, OSError) as e:
            errors.append('%s: %s' % (d, e))
    if not rows:
        print('report: no benchmark results in %s' % base)
        return 1
    # device, then job, then mode; known names in their natural order first
    order = {n: i for i, n in enumerate(['qd32', 'qd1', 'moderate', 'send', 'receive',
                                         'udp64-receive', 'off', 'virtio_net',
                                         'virtio_net-gro', 'virtio_net-defer', 'on',
                                         'defer', 'threaded', 'sample-on', 'sample-defer',
                                         'sample-threaded'])}
    rows.sort(key=lambda r: (r['kind'], r['dev'], order.get(r['job'], 99), r['job'],
                             order.get(r['mode'], 99), r['mode']))
    # ratios to the same-boot baseline of the same device, job and round
    for r in rows:
        ref = [b for b in rows if b['kind'] == r['kind'] and b['dev'] == r['dev'] and
               b['job'] == r['job'] and b.get('round') == r.get('round') and
               b['mode'] == BASELINE[r['kind']]]
        for key, _, _ in COLS[r['kind']]:
            r[key + '_ratio'] = (r[key] / ref[0][key]) if ref and ref[0][key] else float('nan')
    per_round = rows
    rows = merge_rounds(rows)

    lines = []
    for kind in ('disk', 'net'):
        kr = [r for r in rows if r['kind'] == kind]
        if not kr:
            continue
        hdr = '%-10s %-16s %-14s' % ('device', 'mode', 'job')
        for _, title, _ in COLS[kind]:
            hdr += ' %18s' % title
        lines += ['', hdr, '-' * len(hdr)]
        for r in kr:
            s = '%-10s %-16s %-14s' % (r['dev'], r['mode'], r['job'])
            for key, _, fmt in COLS[kind]:
                ratio = '' if key == 'lost_pct' else ' (%.2fx)' % r[key + '_ratio']
                s += ' %18s' % ((fmt % r[key]) + ratio)
            lines.append(s)
    lines.append('')
    lines.append('(ratios: to mode "%s" for disks, "%s" for the network, same boot)'
                 % (BASELINE['disk'], BASELINE['net']))
    lines += spread(rows)
    lines += evidence(rows, timers)
    text = '\n'.join(lines)
    print(text)
    open(os.path.join(run, 'results.txt'), 'w').write(text + '\n')

    keys = ['kind', 'dev', 'mode', 'job', 'rounds', 'irqs']
    for kind in ('disk', 'net'):
        for key, _, _ in COLS[kind]:
            keys += [key, key + '_ratio']
    write_csv(os.path.join(run, 'results.csv'), keys, rows)
    if any(r['rounds'] > 1 for r in rows):
        keys[4] = 'round'
        write_csv(os.path.join(run, 'results-rounds.csv'), keys, per_round)
    plot(run, rows)
    for e in errors:
        print('report: ' + e)
    return 1 if errors else 0


def write_csv(path, keys, rows):
    with open(path, 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=keys, extrasaction='ignore')
        w.writeheader()
        for r in rows:
            w.writerow(r)


def median(v):
    v = sorted(v)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2.0


def merge_rounds(rows):
    """One row per device, mode and job: the median of its rounds, each metric and
    each ratio (a ratio pairs a round with its own baseline).  Keeps the per-round
    throughput and interrupt ratios for spread()."""
    groups = {}
    for r in rows:
        groups.setdefault((r['kind'], r['dev'], r['mode'], r['job']), []).append(r)
    out = []
    for g in groups.values():
        m = dict(g[0])
        m['rounds'] = len(g)
        m['irqs'] = median([r['irqs'] for r in g])
        for key, _, _ in COLS[m['kind']]:
            for k in (key, key + '_ratio'):
                m[k] = median([r[k] for r in g])
        m['round_ratios'] = [(r[COLS[m['kind']][0][0] + '_ratio'], r[COLS[m['kind']][1][0] +
                              '_ratio']) for r in sorted(g, key=lambda r: int(r.get('round', 0)))]
        out.append(m)
    return out


def spread(rows):
    """How far the rounds behind each median row lie apart."""
    kr = [r for r in rows if r['rounds'] > 1 and r['mode'] != BASELINE[r['kind']]]
    if not kr:
        return []
    n = max(r['rounds'] for r in kr)
    c0, c1 = COLS[kr[0]['kind']][0][1], COLS[kr[0]['kind']][1][1]
    out = ['', 'medians of %d rounds; each round\'s ratios (%s, %s) to its own baseline:'
           % (n, c0, c1)]
    for r in kr:
        out.append('%-10s %-16s %-14s %s' % (r['dev'], r['mode'], r['job'], '  '.join(
            '%.2fx %.2fx' % p for p in r['round_ratios'])))
    return out


def pct(v, p):
    """p-th percentile of the sorted list v (nearest rank)."""
    return v[min(len(v) - 1, max(0, int(round(p / 100.0 * len(v))) - 1))]


def evidence(rows, timers):
    """Why the interrupt figures are what they are: the instances' own counters per
    disk job, and how late the deferral timer fired."""
    out = []
    kr = [r for r in rows if r['kind'] == 'disk' and r['counters'].get('polls')]
    if kr:
        hdr = '%-10s %-12s %-10s %12s %12s %12s %12s' % (
            'device', 'mode', 'job', 'polls/IO', 'reaped/poll', 'empty/poll', 'deferred/IO')
        out += ['', 'irq_poll counters during each disk job:', hdr, '-' * len(hdr)]
        for r in kr:
            c, ios = r['counters'], float(r['ios'] or 1)
            polls = float(c['polls'])
            out.append('%-10s %-12s %-10s %12.3f %12.2f %12.2f %12.3f' % (
                r['dev'], r['mode'], r['job'], polls / ios, c['reaped'] / polls,
                c['empty_polls'] / polls, c['deferrals'] / ios))
    for meta, us in timers:
        if not us:
            out.append('%s: deferral timer: no samples' % meta['dev'])
            continue
        out.append('%s: deferral timer asked for %d us, fired after p50 %d us, p90 %d us, '
                   'max %d us (%d samples, QD1, defer mode)' % (
                       meta['dev'], int(meta['requested_ns']) // 1000, pct(us, 50),
                       pct(us, 90), us[-1], len(us)))
    return out


def plot(run, rows):
    """One PNG per kind: each metric's ratio to baseline, grouped by device/job."""
    for kind in ('disk', 'net'):
        kr = [r for r in rows if r['kind'] == kind]
        if not kr:
            continue
        dat = os.path.join(run, '%s.dat' % kind)
        metrics = [k for k, _, _ in COLS[kind] if k != 'lost_pct']
        with open(dat, 'w') as f:
            f.write('label ' + ' '.join(metrics) + '\n')
            for r in kr:
                f.write('%s/%s/%s ' % (r['dev'], r['job'], r['mode']) +
                        ' '.join('%.4f' % r[m + '_ratio'] for m in metrics) + '\n')
        titles = [t for k, t, _ in COLS[kind] if k != 'lost_pct']
        script = [
            'set terminal png size 1200,600',
            "set output '%s'" % os.path.join(run, '%s.png' % kind),
            "set title '%s: ratio to %s, same boot (TCG; log scale, 1 = no change)'"
            % (kind, BASELINE[kind]),
            'set logscale y', 'set yrange [0.01:100]', 'set arrow from graph 0, first 1 '
            'to graph 1, first 1 nohead dt 2',
            'set style data histograms', 'set style histogram clustered gap 1',
            'set style fill solid 0.8 border -1', 'set key outside right top',
            'set xtics rotate by -30', 'set grid y',
            'plot ' + ', '.join("'%s' using %d:xtic(1) title '%s'" % (dat, i + 2, t)
                                for i, t in enumerate(titles)),
        ]
        try:
            subprocess.run(['gnuplot'], input='\n'.join(script), text=True, check=True,
                           capture_output=True)
            print('plot: %s' % os.path.join(run, '%s.png' % kind))
        except (OSError, subprocess.CalledProcessError) as e:
            print('plot: gnuplot failed for %s: %s' % (kind, e))


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
