#include <linux/irq_poll.h>

struct q { struct irq_poll iop; };

/* completes even when the whole budget was used */
static int q_poll(struct irq_poll *iop, int budget)
{
	struct q *q = container_of(iop, struct q, iop);
	int n = q_reap(q, budget);

	irq_poll_complete(iop);
	return n;
}

static void q_setup(struct q *q)
{
	irq_poll_init(&q->iop, 32, q_poll);
}
