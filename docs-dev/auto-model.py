#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What IRQ_POLL_MODE_AUTO's deferral windows cost where the device, not the CPU,
is the bottleneck: a model, not a measurement (see auto-model.md).

The controller is irq_poll_auto_step() of lib-irqpoll/lib/irq_poll.c, written out
again in Python (deferral decisions only: parking is left out, so every poll is
interrupt-driven or ends a window).  The device is the closed loop of the KUnit
suite's ipt_rates (DEPTH commands in flight, each resubmitted by the poll that reaps
it), with service times drawn uniformly from 0.5x to 1.5x SERVICE so that the
commands do not move in lockstep, and a poll TURN after the interrupt that wakes it.
Polls and interrupts cost no time: what a window does to throughput and latency here
is all it does when the CPU has time to spare.  Streams (Poisson arrivals, an open
loop) show what windows buy in wake-ups per completion.

Usage: python3 docs-dev/auto-model.py [--ceiling]    (a second; deterministic)
  --ceiling  a variant of the growth rule: a window halved because its rate fell
             below the last window's is not doubled past that size again in the
             same chain of windows
"""
import random
import sys

NS_MIN, NS_MAX, GAP_MAX = 10000, 500000, 10000000   # IRQ_POLL_AUTO_NS_*, _GAP_MAX


class Auto:
    """struct irq_poll_auto, the fields deferral uses."""

    def __init__(self):
        self.gap = self.span = self.span_x256 = self.last = 0
        self.window = self.rate = 0
        self.ceiling = NS_MAX


def step(a, now, work, ceiling=False):
    """irq_poll_auto_step() without parking: the window to defer for, or 0."""
    w = min(work, 255)
    window = a.window
    if w > 0:
        gap = now - a.last if a.last else GAP_MAX
        if gap < GAP_MAX and not window:
            if a.span:
                a.span += int((gap - a.span) / 4)
                a.span_x256 += int((w * 256 - a.span_x256) / 4)
            else:
                a.span, a.span_x256 = gap, w * 256
            a.gap = a.span * 256 // a.span_x256
        a.last = now
    a.window = 0
    if w >= 2 and window:
        rate = (w << 30) // window
        irq_rate = (1 << 30) // a.gap if a.gap else 0
        if 4 <= w < 16 and 4 * rate >= 3 * a.rate and 3 * rate >= 2 * irq_rate and \
                window < a.ceiling:
            window = min(2 * window, a.ceiling)
        elif 3 * rate < 2 * a.rate or 3 * rate < 2 * irq_rate:
            if ceiling and 3 * rate < 2 * a.rate:
                a.ceiling = window // 2
            window = max(window // 2, NS_MIN)
        a.rate = rate
    elif w >= 2:
        if a.gap and 2 * a.gap <= NS_MAX:
            window = min(max(4 * a.gap, NS_MIN), NS_MAX)
        a.rate = 0
        a.ceiling = NS_MAX
    if w >= 2 and window:
        a.window = window
        return window
    return 0


def closed_loop(depth, service, defer, ceiling=False, turn=20000, polls=6000, seed=1):
    """IOPS, wake-ups per I/O and mean latency (ns) of a closed loop."""
    rnd = random.Random(seed)
    draw = lambda: int(service * rnd.uniform(0.5, 1.5))  # noqa: E731
    a = Auto()
    done_at = [draw() for _ in range(depth)]
    issued = [0] * depth
    now = timeout = done = lat = 0
    for _ in range(polls):
        now = now + timeout if timeout else max(now, min(done_at)) + turn
        work = 0
        for i in range(depth):
            if done_at[i] <= now:
                lat += now - issued[i]
                issued[i], done_at[i] = now, now + draw()
                work += 1
        done += work
        timeout = step(a, now, work, ceiling) if defer else 0
    return done * 1e9 / now, polls / done, lat / done


def stream(mean, defer, ceiling=False, turn=20000, polls=4000, seed=1):
    """Wake-ups per completion and mean wait (ns) of Poisson arrivals."""
    rnd = random.Random(seed)
    t, arrivals = 0.0, []
    while t < polls * 600000:
        t += rnd.expovariate(1.0 / mean)
        arrivals.append(t)
    a = Auto()
    now = timeout = nxt = done = wait = 0
    for _ in range(polls):
        now = now + timeout if timeout else max(now, arrivals[nxt]) + turn
        k = nxt
        while k < len(arrivals) and arrivals[k] <= now:
            wait += now - arrivals[k]
            k += 1
        work, nxt = k - nxt, k
        done += work
        timeout = step(a, now, work, ceiling) if defer else 0
    return polls / done, wait / done


def main(argv):
    ceiling = argv == ['--ceiling']
    if argv and not ceiling:
        sys.stderr.write(__doc__)
        return 2
    if ceiling:
        print('variant: --ceiling')
    print('closed loops, auto against no deferral (same seeds): IOPS and latency ratios,')
    print('wake-ups per I/O (no deferral -> auto)')
    for depth in (2, 4, 8, 16, 32):
        for service in (150000, 600000):
            i0, w0, l0 = closed_loop(depth, service, False)
            i1, w1, l1 = closed_loop(depth, service, True, ceiling)
            print('  QD%-2d service %3d us: IOPS %.2fx  latency %.2fx  wake-ups/IO %.2f -> %.2f'
                  % (depth, service // 1000, i1 / i0, l1 / l0, w0, w1))
    print('streams (Poisson): wake-ups per completion and mean wait, no deferral -> auto')
    for mean in (5000, 12000, 25000, 50000, 106000):
        w0, l0 = stream(mean, False)
        w1, l1 = stream(mean, True, ceiling)
        print('  one every %3d us: wake-ups %.2f -> %.2f  wait %3.0f -> %3.0f us'
              % (mean // 1000, w0, w1, l0 / 1000, l1 / 1000))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
