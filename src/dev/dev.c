#include "dev/dev.h"

#include <stdlib.h>
#include <string.h>

void rs_dev_restart_stats(struct rs_dev *dev, rs_time_t now)
{
	rs_tavg_restart(&dev->inflight, now);
	dev->completed_at_restart = dev->completed;
	for (size_t i = 0; i < dev->nmembers; i++)
		rs_dev_restart_stats(dev->members[i], now);
	if (dev->type->restart_stats)
		dev->type->restart_stats(dev, now);
}

void rs_dev_report(const struct rs_dev *dev, rs_time_t now, struct rs_dev_report *r)
{
	*r = (struct rs_dev_report){ 0 };
	r->queue_depth = rs_tavg_mean(&dev->inflight, now);
	/* The drives below a composite: mean of their means, peak of peaks. */
	double sum = 0, peak = 0, extra = 0;
	uint32_t n = 0, nextra = 0;
	for (size_t i = 0; i < dev->nmembers; i++) {
		struct rs_dev_report m;
		rs_dev_report(dev->members[i], now, &m);
		sum += m.drive_qd * m.drives;
		n += m.drives;
		if (m.drive_qd_max > peak)
			peak = m.drive_qd_max;
		/* A figure of the members' own (an SSD's write amplification):
		 * the composite reports their mean, under the same name. */
		if (m.extra_name && (!r->extra_name || strcmp(r->extra_name, m.extra_name) == 0)) {
			r->extra_name = m.extra_name;
			extra += m.extra;
			nextra++;
		}
	}
	if (n) {
		r->drive_qd = sum / n;
		r->drive_qd_max = peak;
		r->drives = n;
	}
	if (nextra)
		r->extra = extra / nextra;
	if (dev->type->report)
		dev->type->report(dev, now, r);
}

static void mark_abandoned(struct rs_dev *dev)
{
	dev->abandoned = true;
	for (size_t i = 0; i < dev->nmembers; i++)
		mark_abandoned(dev->members[i]);
}

void rs_dev_destroy_abandoned(struct rs_dev *dev)
{
	if (!dev)
		return;
	mark_abandoned(dev);
	rs_dev_destroy(dev);
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
