/* The walk behind rs_dev_components: one entry per device of the tree,
 * then the parts its type adds (processors, links), then its members.
 *
 * Figures come from Little's law over the measuring window: a device that
 * completed X requests per second and held L on average keeps each for
 * L / X; one that was busy a fraction U of the time served each for
 * U / X.  For a composite device the "service" is the time its requests
 * spend below it (the mean over its members), so queue_ms is what the
 * layer itself adds: its queue and its own processing. */
#include "dev/dev.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dev/link.h"
#include "dev/server.h"

void rs_components_free(struct rs_components *c)
{
	free(c->v);
	*c = (struct rs_components){ 0 };
}

/* Append a part; NULL only if memory ran out (then out is unchanged). */
static struct rs_component *rs_components_add(struct rs_components *out, const char *name,
					      const char *part, const char *kind)
{
	if (out->n == out->cap) {
		size_t cap = out->cap ? out->cap * 2 : 16;
		struct rs_component *v = realloc(out->v, cap * sizeof(*v));
		if (!v)
			return NULL;
		out->v = v;
		out->cap = cap;
	}
	struct rs_component *c = &out->v[out->n++];
	if (name && name[0] && part && part[0])
		snprintf(c->name, sizeof(c->name), "%s.%s", name, part);
	else
		snprintf(c->name, sizeof(c->name), "%s", part && part[0] ? part : name);
	c->kind = kind;
	c->utilisation = c->ops_s = c->time_ms = c->service_ms = c->queue_ms = NAN;
	return c;
}

static double window_s(rs_time_t start, rs_time_t now)
{
	return now > start ? (double)(now - start) / 1e9 : 0;
}

/* Busy time per job (ms) of something busy a fraction u with rate x/s. */
static double busy_per_op_ms(double u, double servers, double x)
{
	return x > 0 ? u * servers / x * 1e3 : NAN;
}

void rs_components_add_server(struct rs_components *out, const char *name, const char *part,
			      const struct rs_server *s, rs_time_t now)
{
	struct rs_component *c = rs_components_add(out, name, part, "cpu");
	if (!c)
		return;
	double w = window_s(s->busy_avg.t_start, now);
	c->utilisation = rs_server_utilisation(s, now);
	c->ops_s = w > 0 ? (double)s->jobs_done / w : NAN;
	c->service_ms = busy_per_op_ms(c->utilisation, s->servers, c->ops_s);
}

static void add_channel(struct rs_components *out, const char *name, const char *part,
			const struct rs_link *l, int dir, rs_time_t now)
{
	struct rs_component *c = rs_components_add(out, name, part, "link");
	if (!c)
		return;
	const struct rs_link_channel *ch = &l->ch[dir];
	double w = window_s(ch->busy.t_start, now);
	c->utilisation = rs_link_utilisation(l, (enum rs_dir)dir, now);
	c->ops_s = w > 0 ? (double)ch->transactions / w : NAN;
	c->service_ms = busy_per_op_ms(c->utilisation, 1, c->ops_s);
}

void rs_components_add_link(struct rs_components *out, const char *name, const char *part,
			    const struct rs_link *l, rs_time_t now)
{
	if (!l->p.full_duplex) {
		add_channel(out, name, part, l, 0, now);
		return;
	}
	char p[96];
	snprintf(p, sizeof(p), "%s.in", part);
	add_channel(out, name, p, l, RS_DIR_IN, now);
	snprintf(p, sizeof(p), "%s.out", part);
	add_channel(out, name, p, l, RS_DIR_OUT, now);
}

/* A port (the controller's stand-in in front of a drive) is not a part of
 * its own: its channel is listed by the controller, its drive by name. */
static bool is_port(const struct rs_dev *dev)
{
	return strcmp(dev->type->name, "port") == 0;
}

static const struct rs_dev *behind_ports(const struct rs_dev *dev)
{
	while (is_port(dev) && dev->nmembers == 1)
		dev = dev->members[0];
	return dev;
}

static bool is_controller(const struct rs_dev *dev)
{
	return strcmp(dev->type->name, "controller") == 0;
}

static double ops_per_s(const struct rs_dev *dev, rs_time_t now)
{
	double w = window_s(rs_dev_inflight(dev)->t_start, now);
	return w > 0 ? (double)(dev->completed - dev->completed_at_restart) / w : NAN;
}

static double time_in_ms(const struct rs_dev *dev, rs_time_t now)
{
	double x = ops_per_s(dev, now);
	return x > 0 ? rs_tavg_mean(rs_dev_inflight(dev), now) / x * 1e3 : NAN;
}

/* Members are named by their own names (disk0, disk1 ...) under the top
 * device, a controller, and a controller's array; deeper ones carry their
 * parent's name in front (disk1.disk0: disk 0 of the second mirror of a
 * RAID 10 volume), so every name is unique and stable. */
static void walk(const struct rs_dev *dev, rs_time_t now, const char *name,
		 bool short_children, struct rs_components *out)
{
	struct rs_dev_report r;
	rs_dev_report(dev, now, &r);
	const char *kind = is_controller(dev)                    ? "ctrl"
			   : !dev->nmembers                       ? "device"
			   : strcmp(dev->type->name, "array") == 0 ? "array"
								   : "composite";
	struct rs_component *c = rs_components_add(out, NULL, name, kind);
	if (c) {
		c->utilisation = r.utilisation;
		c->ops_s = ops_per_s(dev, now);
		c->time_ms = time_in_ms(dev, now);
		if (!dev->nmembers) {
			c->service_ms = busy_per_op_ms(r.utilisation, 1, c->ops_s);
		} else {
			/* Below it: the members' times, weighted by their requests. */
			double sum = 0, n = 0;
			for (size_t i = 0; i < dev->nmembers; i++) {
				const struct rs_dev *m = dev->members[i];
				double x = ops_per_s(m, now), t = time_in_ms(m, now);
				if (x > 0 && !isnan(t)) {
					sum += x * t;
					n += x;
				}
			}
			c->service_ms = n > 0 ? sum / n : NAN;
		}
		c->queue_ms = c->time_ms - c->service_ms;
		/* Rounding, or a member's time reaching past the window. */
		if (c->queue_ms < 0)
			c->queue_ms = 0;
	}
	if (dev->type->components)
		dev->type->components(dev, now, name, out);
	for (size_t i = 0; i < dev->nmembers; i++) {
		const struct rs_dev *m = behind_ports(dev->members[i]);
		char child[128];
		if (short_children)
			snprintf(child, sizeof(child), "%s", m->name);
		else
			snprintf(child, sizeof(child), "%s.%s", name, m->name);
		walk(m, now, child, is_controller(dev), out);
	}
}

void rs_dev_components(const struct rs_dev *dev, rs_time_t now, struct rs_components *out)
{
	walk(dev, now, is_controller(dev) ? "ctrl" : "device", true, out);
}
