#include <linux/irq_poll.h>

struct adp {
	struct irq_poll iopoll;
	int x;
};

static int adp_poll(struct irq_poll *iop, int budget)
{
	struct adp *a = container_of(iop, struct adp, iopoll);
	int done = 0;

	if (done < budget)
		irq_poll_complete(iop);
	return done;
}

static irqreturn_t adp_irq(int irq, void *data)
{
	struct adp *a = data;

	irq_poll_sched(&a->iopoll);
	return IRQ_HANDLED;
}

static void adp_setup(struct adp *a)
{
	irq_poll_init(&a->iopoll, 32, adp_poll);
}

static void adp_stop(struct adp *a)
{
	irq_poll_disable(&a->iopoll);
}
