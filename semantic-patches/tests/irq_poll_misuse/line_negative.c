#include <linux/interrupt.h>
#include <linux/irq_poll.h>

struct q { struct irq_poll iop; int irq; void __iomem *regs; };

static int q_poll(struct irq_poll *iop, int budget)
{
	struct q *q = container_of(iop, struct q, iop);
	int n = q_reap(q, budget);

	if (n < budget) {
		irq_poll_complete(iop);
		writel(1, q->regs);	/* unmask at the device */
	}
	return n;
}

/* not a poll function: disable_irq() here is none of our business */
static void q_suspend(struct q *q)
{
	disable_irq(q->irq);
}

static void q_setup(struct q *q)
{
	irq_poll_init(&q->iop, 32, q_poll);
}
