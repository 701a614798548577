#include <linux/blk-iopoll.h>

struct adp {
	struct blk_iopoll iopoll;
	int x;
};

static int adp_poll(struct blk_iopoll *iop, int budget)
{
	struct adp *a = container_of(iop, struct adp, iopoll);
	int done = 0;

	if (done < budget)
		blk_iopoll_complete(iop);
	return done;
}

static irqreturn_t adp_irq(int irq, void *data)
{
	struct adp *a = data;

	if (blk_iopoll_enabled && blk_iopoll_sched_prep(&a->iopoll))
		blk_iopoll_sched(&a->iopoll);
	return IRQ_HANDLED;
}

static void adp_setup(struct adp *a)
{
	blk_iopoll_init(&a->iopoll, 32, adp_poll);
	blk_iopoll_enable(&a->iopoll);
}

static void adp_stop(struct adp *a)
{
	blk_iopoll_disable(&a->iopoll);
}
