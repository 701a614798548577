#include <linux/irq_poll.h>

struct q { struct irq_poll iop; };

static int q_poll(struct irq_poll *iop, int budget)
{
	struct q *q = container_of(iop, struct q, iop);
	int n = q_reap(q, budget);

	if (n < budget)
		irq_poll_complete(iop);
	return n;
}

/* returning 0 after complete is fine too (be2iscsi style) */
static int q_poll2(struct irq_poll *iop, int budget)
{
	struct q *q = container_of(iop, struct q, iop);

	if (q_dead(q)) {
		irq_poll_complete(iop);
		return 0;
	}
	return q_reap(q, budget);
}

static void q_setup(struct q *q, struct q *q2)
{
	irq_poll_init(&q->iop, 32, q_poll);
	irq_poll_init(&q2->iop, 32, q_poll2);
}
