#include "dev/dev.h"

#include <stdlib.h>

void rs_dev_restart_stats(struct rs_dev *dev, rs_time_t now)
{
	rs_tavg_restart(&dev->inflight, now);
	for (size_t i = 0; i < dev->nmembers; i++)
		rs_dev_restart_stats(dev->members[i], now);
	if (dev->type->restart_stats)
		dev->type->restart_stats(dev, now);
}

void rs_dev_report(const struct rs_dev *dev, rs_time_t now, struct rs_dev_report *r)
{
	r->queue_depth = rs_tavg_mean(&dev->inflight, now);
	r->utilisation = 0;
	r->extra_name = NULL;
	r->extra = 0;
	if (dev->type->report)
		dev->type->report(dev, now, r);
}

void rs_dev_destroy(struct rs_dev *dev)
{
	if (!dev)
		return;
	for (size_t i = 0; i < dev->nmembers; i++)
		rs_dev_destroy(dev->members[i]);
	free(dev->members);
	if (dev->type && dev->type->destroy)
		dev->type->destroy(dev);
	free(dev->params);
	rs_node_free(dev->tree);
	free(dev->name);
	free(dev);
}
