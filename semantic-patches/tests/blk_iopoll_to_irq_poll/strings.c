#include <linux/module.h>
#include <linux/blk-iopoll.h>

static int hba_weight = 64;
module_param(hba_weight, int, 0444);
MODULE_PARM_DESC(hba_weight, "blk-iopoll budget (default 64)");

static void hba_report(struct device *dev)
{
	dev_info(dev, "using blk-iopoll, weight %d\n", hba_weight);
	dev_info(dev, "ready\n");
}
