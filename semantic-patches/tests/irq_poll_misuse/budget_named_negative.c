#include <linux/irq_poll.h>

struct q { struct irq_poll iop; };

/* the mpt_irq_poll() pattern: complete_done only below the budget */
static int q_poll(struct irq_poll *iop, int budget)
{
	struct q *q = container_of(iop, struct q, iop);
	int done = 0;

	while (done < budget) {
		if (!q_reap_one(q))
			break;
		done++;
	}

	if (done < budget)
		irq_poll_complete_done(iop, done);
	return done;
}

static int q_setup(struct q *q, const struct irq_poll_config *cfg)
{
	return irq_poll_init_named(&q->iop, cfg, q_poll);
}
