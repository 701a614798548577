// SPDX-License-Identifier: GPL-2.0
/*
 * A closed loop driving IRQ_POLL_MODE_AUTO's controller (ctl.h, from mk.py) in
 * virtual time, with parking and trials as irq_poll_sched_irqoff() does them.
 * N commands in flight, each completing LAT * (0.5..1.5) after it was
 * (re)submitted; one CPU that pays CW per interrupt (CT per timer), CP more per
 * poll (mask, softirq, unmask) and CI per completion, and resubmits when done.
 * Compares mode off (the driver reaps in its handler), on (a poll per
 * interrupt) and auto, by completions in the window [T0, T1) seconds after the
 * switch, averaged over seeds.
 *
 * A poll reads the device POLL_US after the interrupt (0 by default): the
 * softirq runs after the handler, so a poll finds what completed meanwhile,
 * the driver's handler only what was there when it ran.
 *
 * Usage: cl N LAT_US CW_US CP_US CI_US T0 T1 [SEEDS [POLL_US]]
 */
#include "ctl.h"

static u64 rs;
static u64 poll_delay;

static double urand(void)
{
	rs = rs * 6364136223846793005ULL + 1442695040888963407ULL;
	return (rs >> 11) / (double)(1ULL << 53);
}

struct res { double iops, defio, pollio, pairs; };

static struct res run(int mode, int n, u64 lat, u64 cw, u64 cp, u64 ci, u64 ct,
		      u64 t0, u64 t1, unsigned int seed)
{
	struct irq_poll_auto a = { 0 };
	u64 done[256], now = 0;
	long comp = 0, c0 = 0, defs = 0, polls = 0, pairs = 0;
	int parked = 0, deferred = 0, counting = 0, i;
	u32 to = 0;
	struct res r;

	irq_poll_auto_reset(&a);
	rs = seed;
	for (i = 0; i < n; i++)
		done[i] = (u64)(lat * (0.5 + urand()));
	while (now < t1) {
		u64 cost, fin, seen;
		int poll, k = 0;

		if (deferred) {
			now += to;
		} else {
			u64 next = ~0ULL;

			for (i = 0; i < n; i++)
				next = min(next, done[i]);
			now = max(next, now);
		}
		if (!counting && now >= t0) {
			counting = 1;
			c0 = comp;
			defs = polls = pairs = 0;
		}
		poll = mode != 0;
		if (mode == 2 && parked) {
			/* a parked instance is polled on trial every 256th interrupt */
			poll = 0;
			if (++a.irqs >= IRQ_POLL_AUTO_TRIAL) {
				parked = 0;
				irq_poll_auto_trial(&a);
				poll = 1;
			}
		}
		cost = (deferred ? ct : cw) + (poll ? cp : 0);
		seen = now + (poll ? poll_delay : 0);
		for (i = 0; i < n; i++)
			if (done[i] <= seen)
				k++;
		fin = max(now + cost, seen) + k * ci;
		for (i = 0; i < n; i++)
			if (done[i] <= seen)
				done[i] = fin + (u64)(lat * (0.5 + urand()));
		comp += k;
		deferred = 0;
		if (poll)
			polls++;
		if (mode == 2 && poll) {
			int phase = a.phase;
			enum irq_poll_auto_verdict v;

			v = irq_poll_auto_step(&a, now, k, true, false, &to);
			if (phase == IRQ_POLL_AUTO_PAIR2 &&
			    a.phase == IRQ_POLL_AUTO_FOLLOW)
				pairs++;
			if (v == IRQ_POLL_AUTO_DEFER) {
				deferred = 1;
				defs++;
			} else if (v == IRQ_POLL_AUTO_PARK) {
				parked = 1;
			}
		}
		now = fin;
	}
	comp -= c0;
	r.iops = comp / ((t1 - t0) / 1e9);
	r.defio = (double)defs / comp;
	r.pollio = (double)polls / comp;
	r.pairs = pairs;
	return r;
}

int main(int argc, char **argv)
{
	int n, seeds, m;
	u64 lat, cw, cp, ci, t0, t1;
	double iops[3] = { 0 }, d = 0, p = 0, pr = 0;
	unsigned int s;

	if (argc < 8) {
		fprintf(stderr, "usage: cl N LAT_US CW_US CP_US CI_US T0 T1 [SEEDS [POLL_US]]\n");
		return 2;
	}
	n = atoi(argv[1]);
	if (n < 1 || n > 256)
		return 2;
	lat = atol(argv[2]) * 1000;
	cw = atol(argv[3]) * 1000;
	cp = atol(argv[4]) * 1000;
	ci = atol(argv[5]) * 1000;
	t0 = atof(argv[6]) * 1e9;
	t1 = atof(argv[7]) * 1e9;
	seeds = argc > 8 ? atoi(argv[8]) : 10;
	poll_delay = argc > 9 ? atol(argv[9]) * 1000 : 0;
	for (s = 1; s <= (unsigned int)seeds; s++) {
		for (m = 0; m < 3; m++) {
			struct res r = run(m, n, lat, cw, cp, ci, 10000, t0, t1, s);

			iops[m] += r.iops;
			if (m == 2) {
				d += r.defio;
				p += r.pollio;
				pr += r.pairs;
			}
		}
	}
	printf("QD%d %.1f-%.1f s: off %.0f/s, on %.3fx, auto %.3fx (deferrals/IO %.3f, polls/IO %.2f, pairs %.1f)\n",
	       n, t0 / 1e9, t1 / 1e9, iops[0] / seeds, iops[1] / iops[0],
	       iops[2] / iops[0], d / seeds, p / seeds, pr / seeds);
	return 0;
}
