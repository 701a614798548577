#include <linux/irq_poll.h>

struct q { struct irq_poll iop; };

/* registered with irq_poll_init_named(), completes with
 * irq_poll_complete_done() even when the whole budget was used */
static int q_poll(struct irq_poll *iop, int budget)
{
	struct q *q = container_of(iop, struct q, iop);
	int n = q_reap(q, budget);

	irq_poll_complete_done(iop, n);
	return n;
}

static int q_setup(struct q *q, const struct irq_poll_config *cfg)
{
	return irq_poll_init_named(&q->iop, cfg, q_poll);
}
