#include <linux/blk-iopoll.h>

struct hba {
	struct blk_iopoll iop;
	int mode;
};

static void hba_reap(struct hba *h);

static irqreturn_t hba_isr(int irq, void *data)
{
	struct hba *h = data;

	if (h->mode == 2) {
		hba_reap(h);
	} else if (!blk_iopoll_enabled) {
		hba_reap(h);
	} else {
		if (blk_iopoll_enabled && !blk_iopoll_sched_prep(&h->iop))
			blk_iopoll_sched(&h->iop);
	}
	return IRQ_HANDLED;
}
