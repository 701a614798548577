#include <linux/blk-iopoll.h>

struct hba {
	struct blk_iopoll iop;
};

static irqreturn_t hba_isr(int irq, void *data)
{
	struct hba *h = data;

	if (blk_iopoll_enabled && !blk_iopoll_sched_prep(&h->iop))
		blk_iopoll_sched(&h->iop);
	return IRQ_HANDLED;
}

static bool hba_polled(struct hba *h)
{
	return blk_iopoll_enabled && h != NULL;
}
