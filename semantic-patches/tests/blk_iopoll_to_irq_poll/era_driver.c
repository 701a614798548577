#include <linux/interrupt.h>
#include <linux/blk-iopoll.h>

#define XHBA_WEIGHT	256

struct xhba_eq {
	struct blk_iopoll	iopoll;
	void __iomem		*db;
	unsigned int		ncq;
};

struct xhba {
	struct xhba_eq		eq[4];
	unsigned int		num_eq;
};

static unsigned int xhba_reap_eq(struct xhba_eq *eq, unsigned int max);
static void xhba_arm_eq(struct xhba_eq *eq);

static int xhba_iopoll(struct blk_iopoll *iop, int budget)
{
	struct xhba_eq *eq = container_of(iop, struct xhba_eq, iopoll);
	unsigned int ret;

	ret = xhba_reap_eq(eq, budget);
	if (ret < budget) {
		blk_iopoll_complete(iop);
		xhba_arm_eq(eq);
	}
	return ret;
}

static irqreturn_t xhba_msix_isr(int irq, void *dev_id)
{
	struct xhba_eq *eq = dev_id;

	if (blk_iopoll_enabled) {
		if (!blk_iopoll_sched_prep(&eq->iopoll))
			blk_iopoll_sched(&eq->iopoll);
	} else {
		xhba_reap_eq(eq, eq->ncq);
		xhba_arm_eq(eq);
	}
	return IRQ_HANDLED;
}

static void xhba_setup_eqs(struct xhba *x)
{
	unsigned int i;

	if (blk_iopoll_enabled) {
		for (i = 0; i < x->num_eq; i++) {
			blk_iopoll_init(&x->eq[i].iopoll, XHBA_WEIGHT, xhba_iopoll);
			blk_iopoll_enable(&x->eq[i].iopoll);
		}
	}
}

static void xhba_remove_eqs(struct xhba *x)
{
	unsigned int i;

	for (i = 0; i < x->num_eq; i++)
		if (blk_iopoll_enabled)
			blk_iopoll_disable(&x->eq[i].iopoll);
}
