#include <linux/blk-iopoll.h>

struct hba {
	struct blk_iopoll iop;
	bool polled;
};

static void hba_setup(struct hba *h)
{
	h->polled = blk_iopoll_enabled;
}
