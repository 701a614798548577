// SPDX-License-Identifier: GPL-2.0
/*
 * A stream that interrupts once per completion, such as a NIC receiving TCP
 * segments under QEMU, driving IRQ_POLL_MODE_AUTO's controller (ctl.h, from
 * mk.py) in virtual time on an instance that is not switchable.  Completions
 * come every POLLED_US while each interrupts and every WINDOWED_US while
 * windows batch them (the CPU the windows free goes to the load), both times a
 * noise factor: lognormal with sigma SIGMA, drawn afresh every NOISE_MS.  A
 * poll runs 20 us after the interrupt.  Counts, in the window [T0, T1) seconds
 * after the switch, wake-ups (interrupts and window timers) per completion,
 * and the rounds (seeds) in which windows served next to nothing (more than 0.9
 * wake-ups per completion).
 *
 * Usage: lone POLLED_US WINDOWED_US SIGMA NOISE_MS T0 T1 [SEEDS [BUSY]]
 */
#include "ctl.h"

static u64 rs;

/* cl.c's generator, its values kept in (0, 1). */
static double urand(void)
{
	rs = rs * 6364136223846793005ULL + 1442695040888963407ULL;
	return ((rs >> 11) + 0.5) / (double)(1ULL << 53);
}

/*
 * No libm: its exp() and log() differ in the last bit between CPUs (glibc
 * picks an FMA variant where there is one), and the unit test compares this
 * output with the README's.  Normal by the sum of 12 uniforms; exp() by its
 * series on x / 16, squared four times.
 */
static double gauss(void)
{
	double g = -6;
	int i;

	for (i = 0; i < 12; i++)
		g += urand();
	return g;
}

static double expo(double x)
{
	double sum = 1, term = 1;
	int i;

	x /= 16;
	for (i = 1; i < 20; i++) {
		term *= x / i;
		sum += term;
	}
	for (i = 0; i < 4; i++)
		sum *= sum;
	return sum;
}

int main(int argc, char **argv)
{
	double polled, windowed, sigma, sum = 0;
	u64 noise, t0, t1;
	int seeds, busy, s, none = 0;

	if (argc < 7) {
		fprintf(stderr, "usage: lone POLLED_US WINDOWED_US SIGMA NOISE_MS T0 T1 [SEEDS [BUSY]]\n");
		return 2;
	}
	polled = atof(argv[1]) * 1000;
	windowed = atof(argv[2]) * 1000;
	sigma = atof(argv[3]);
	noise = atof(argv[4]) * 1e6;
	t0 = atof(argv[5]) * 1e9;
	t1 = atof(argv[6]) * 1e9;
	seeds = argc > 7 ? atoi(argv[7]) : 200;
	busy = argc > 8 ? atoi(argv[8]) : 1;
	if (polled < 1 || windowed < 1 || noise < 1 || seeds < 1)
		return 2;
	for (s = 1; s <= seeds; s++) {
		struct irq_poll_auto a = { 0 };
		enum irq_poll_auto_verdict v = IRQ_POLL_AUTO_IDLE;
		u64 now = 0, next = polled, redraw = noise;
		long comp = 0, wakes = 0;
		double f = 1;
		u32 to = 0;

		rs = s * 7919ULL;
		irq_poll_auto_reset(&a);
		while (now < t1) {
			double each;
			int w = 0;

			if (v == IRQ_POLL_AUTO_DEFER) {
				now += to;
				each = windowed;
			} else {
				now = max(now, next) + 20000;
				each = polled;
			}
			for (; redraw <= now; redraw += noise)
				f = expo(sigma * gauss());
			for (; next <= now; next += (u64)(each * f))
				w++;
			v = irq_poll_auto_step(&a, now, w, false, busy, &to);
			if (now < t0)
				continue;
			comp += w;
			wakes++;
		}
		sum += (double)wakes / comp;
		if (wakes > 0.9 * comp)
			none++;
	}
	printf("%.0f/%.0f us, sigma %.2f per %.0f ms, %.1f-%.1f s: wake-ups per completion %.3f, rounds almost without windows %d of %d\n",
	       polled / 1000, windowed / 1000, sigma, noise / 1e6, t0 / 1e9,
	       t1 / 1e9, sum / seeds, none, seeds);
	return 0;
}
