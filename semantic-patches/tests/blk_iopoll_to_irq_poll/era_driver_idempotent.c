#include <linux/interrupt.h>
#include <linux/irq_poll.h>

#define XHBA_WEIGHT	256

struct xhba_eq {
	struct irq_poll	iopoll;
	void __iomem		*db;
	unsigned int		ncq;
};

struct xhba {
	struct xhba_eq		eq[4];
	unsigned int		num_eq;
};

static unsigned int xhba_reap_eq(struct xhba_eq *eq, unsigned int max);
static void xhba_arm_eq(struct xhba_eq *eq);

static int xhba_iopoll(struct irq_poll *iop, int budget)
{
	struct xhba_eq *eq = container_of(iop, struct xhba_eq, iopoll);
	unsigned int ret;

	ret = xhba_reap_eq(eq, budget);
	if (ret < budget) {
		irq_poll_complete(iop);
		xhba_arm_eq(eq);
	}
	return ret;
}

static irqreturn_t xhba_msix_isr(int irq, void *dev_id)
{
	struct xhba_eq *eq = dev_id;

	irq_poll_sched(&eq->iopoll);
	return IRQ_HANDLED;
}

static void xhba_setup_eqs(struct xhba *x)
{
	unsigned int i;

	for (i = 0; i < x->num_eq; i++) {
		irq_poll_init(&x->eq[i].iopoll, XHBA_WEIGHT, xhba_iopoll);
	}
}

static void xhba_remove_eqs(struct xhba *x)
{
	unsigned int i;

	for (i = 0; i < x->num_eq; i++)
		irq_poll_disable(&x->eq[i].iopoll);
}
