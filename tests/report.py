#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn the guest's benchmark records into a table, a CSV file and PNG plots.

Usage: report.py RUN_DIR

Reads RUN_DIR/results/*/ (written by tests/guest/lib.sh measure()) and writes
RUN_DIR/results.csv, RUN_DIR/results.txt (the table, also printed) and, with gnuplot,
RUN_DIR/<kind>.png.  Every row carries its ratio to the baseline of the same device
and job measured in the same boot (disk: mode "off"; network: "virtio_net").  Under
TCG absolute figures mean little; the ratios are the result.
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


def read_record(d):
    meta = {}
    for line in open(os.path.join(d, 'meta')):
        if '=' in line:
            k, v = line.strip().split('=', 1)
            meta[k] = v
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
    if meta['kind'] == 'disk':
        rd = out['jobs'][0]['read']
        ios = rd['total_ios']
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
        s = out['end']['sum_received']
        gb = s['bytes'] / 1e9
        row.update({
            'gbit_s': s['bits_per_second'] / 1e9,
            'irq_per_gb': irqs / gb if gb else float('nan'),
            'sys_ms_per_gb': sys_us / 1000.0 / gb if gb else float('nan'),
        })
    return row


COLS = {
    'disk': [('iops', 'IOPS', '%.0f'), ('p50_us', 'p50 us', '%.0f'), ('p99_us', 'p99 us', '%.0f'),
             ('p99.9_us', 'p99.9 us', '%.0f'), ('irq_per_io', 'irq/IO', '%.3f'),
             ('sys_us_per_io', 'sys us/IO', '%.1f')],
    'net': [('gbit_s', 'Gbit/s', '%.3f'), ('irq_per_gb', 'irq/GB', '%.0f'),
            ('sys_ms_per_gb', 'sys ms/GB', '%.0f')],
}


def main(argv):
    if len(argv) != 1:
        sys.stderr.write(__doc__)
        return 2
    run = argv[0]
    base = os.path.join(run, 'results')
    rows = []
    errors = []
    for name in sorted(os.listdir(base)) if os.path.isdir(base) else []:
        d = os.path.join(base, name)
        if not os.path.isfile(os.path.join(d, 'meta')):
            continue
        try:
            rows.append(read_record(d))
        except (ValueError, KeyError, IndexError) as e:
            errors.append(str(e))
    if not rows:
        print('report: no benchmark results in %s' % base)
        return 1
    # device, then job, then mode; known names in their natural order first
    order = {n: i for i, n in enumerate(['qd32', 'qd1', 'moderate', 'send', 'receive',
                                         'off', 'virtio_net', 'on', 'defer', 'threaded'])}
    rows.sort(key=lambda r: (r['kind'], r['dev'], order.get(r['job'], 99), r['job'],
                             order.get(r['mode'], 99), r['mode']))
    # ratios to the same-boot baseline of the same device and job
    for r in rows:
        ref = [b for b in rows if b['kind'] == r['kind'] and b['dev'] == r['dev'] and
               b['job'] == r['job'] and b['mode'] == BASELINE[r['kind']]]
        for key, _, _ in COLS[r['kind']]:
            r[key + '_ratio'] = (r[key] / ref[0][key]) if ref and ref[0][key] else float('nan')

    lines = []
    for kind in ('disk', 'net'):
        kr = [r for r in rows if r['kind'] == kind]
        if not kr:
            continue
        hdr = '%-10s %-12s %-8s' % ('device', 'mode', 'job')
        for _, title, _ in COLS[kind]:
            hdr += ' %18s' % title
        lines += ['', hdr, '-' * len(hdr)]
        for r in kr:
            s = '%-10s %-12s %-8s' % (r['dev'], r['mode'], r['job'])
            for key, _, fmt in COLS[kind]:
                s += ' %18s' % ((fmt % r[key]) + (' (%.2fx)' % r[key + '_ratio']))
            lines.append(s)
    lines.append('')
    lines.append('(ratios: to mode "%s" for disks, "%s" for the network, same boot)'
                 % (BASELINE['disk'], BASELINE['net']))
    text = '\n'.join(lines)
    print(text)
    open(os.path.join(run, 'results.txt'), 'w').write(text + '\n')

    keys = ['kind', 'dev', 'mode', 'job', 'irqs']
    for kind in ('disk', 'net'):
        for key, _, _ in COLS[kind]:
            keys += [key, key + '_ratio']
    with open(os.path.join(run, 'results.csv'), 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=keys, extrasaction='ignore')
        w.writeheader()
        for r in rows:
            w.writerow(r)
    plot(run, rows)
    for e in errors:
        print('report: ' + e)
    return 1 if errors else 0


def plot(run, rows):
    """One PNG per kind: each metric's ratio to baseline, grouped by device/job."""
    for kind in ('disk', 'net'):
        kr = [r for r in rows if r['kind'] == kind]
        if not kr:
            continue
        dat = os.path.join(run, '%s.dat' % kind)
        metrics = [k for k, _, _ in COLS[kind]]
        with open(dat, 'w') as f:
            f.write('label ' + ' '.join(metrics) + '\n')
            for r in kr:
                f.write('%s/%s/%s ' % (r['dev'], r['job'], r['mode']) +
                        ' '.join('%.4f' % r[m + '_ratio'] for m in metrics) + '\n')
        titles = [t for _, t, _ in COLS[kind]]
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
