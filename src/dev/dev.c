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
	r->queue_depth = rs_tavg_mean(rs_dev_inflight(dev), now);
	/* The drives below a composite: mean of their means, peak of peaks.
	 * The members' own figures (an SSD's write amplification): the
	 * composite reports the mean of each name over the members having it. */
	double sum = 0, peak = 0;
	uint32_t n = 0, nextra[RS_DEV_EXTRAS] = { 0 };
	for (size_t i = 0; i < dev->nmembers; i++) {
		struct rs_dev_report m;
		rs_dev_report(dev->members[i], now, &m);
		sum += m.drive_qd * m.drives;
		n += m.drives;
		if (m.drive_qd_max > peak)
			peak = m.drive_qd_max;
		for (uint32_t e = 0; e < m.nextras; e++) {
			uint32_t k = 0;
			while (k < r->nextras && strcmp(r->extras[k].name, m.extras[e].name) != 0)
				k++;
			double prev = k < r->nextras ? r->extras[k].value : 0;
			rs_dev_report_extra(r, m.extras[e].name, prev + m.extras[e].value);
			if (k < RS_DEV_EXTRAS)
				nextra[k]++;
		}
	}
	if (n) {
		r->drive_qd = sum / n;
		r->drive_qd_max = peak;
		r->drives = n;
	}
	for (uint32_t k = 0; k < r->nextras; k++)
		rs_dev_report_extra(r, r->extras[k].name, r->extras[k].value / nextra[k]);
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
