#include <linux/blk-iopoll.h>

struct hba {
	struct blk_iopoll iop;
	int count;
};

static void hba_reap(struct hba *h);

static irqreturn_t hba_isr(int irq, void *data)
{
	struct hba *h = data;

	if (blk_iopoll_enabled) {
		if (!blk_iopoll_sched_prep(&h->iop))
			blk_iopoll_sched(&h->iop);
	} else {
		hba_reap(h);
		h->count++;
	}
	return IRQ_HANDLED;
}

static void hba_start(struct hba *h)
{
	if (!blk_iopoll_enabled)
		h->count = 0;
	else if (h->count)
		h->count--;
}

static void hba_stop(struct hba *h)
{
	if (blk_iopoll_enabled)
		blk_iopoll_disable(&h->iop);
}
