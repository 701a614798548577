#include <linux/blk-iopoll.h>

struct hba {
	struct blk_iopoll iop;
};

static int hba_poll(struct blk_iopoll *iop, int budget);
static void hba_reset_chip(struct hba *h);

static void hba_setup(struct hba *h)
{
	blk_iopoll_init(&h->iop, 64, hba_poll);
	blk_iopoll_enable(&h->iop);
}

static void hba_reset(struct hba *h)
{
	blk_iopoll_disable(&h->iop);
	hba_reset_chip(h);
	blk_iopoll_enable(&h->iop);
}
