#include <linux/interrupt.h>
#include <linux/irq_poll.h>

struct q { struct irq_poll iop; int irq; };

static void q_rearm(struct q *q)
{
	enable_irq(q->irq);
}

static int q_poll(struct irq_poll *iop, int budget)
{
	struct q *q = container_of(iop, struct q, iop);
	int n;

	disable_irq_nosync(q->irq);
	n = q_reap(q, budget);
	if (n < budget) {
		irq_poll_complete(iop);
		q_rearm(q);
	}
	return n;
}

static void q_setup(struct q *q)
{
	irq_poll_init(&q->iop, 32, q_poll);
}
