/* Devices: anything a request can be submitted to.
 *
 * A device type is a const table of operations plus the schema of its
 * parameters (fio's ioengine shape).  Types are found by name in the set
 * the build is given (struct rs_dev_types); raidsim's set of every type is
 * the tree module's (tree/registry.c), so adding a device is one entry
 * there.
 * Composite devices (arrays, controllers) build their members through the
 * struct rs_build they are given. */
#ifndef RS_DEV_DEV_H
#define RS_DEV_DEV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "config/diag.h"
#include "config/node.h"
#include "config/schema.h"
#include "dev/fanin.h"
#include "io/io.h"
#include "kernel/sim.h"
#include "stats/tavg.h"

struct rs_dev;
struct rs_build;
struct rs_link;
struct rs_server;
struct rs_components;

/* Most figures of its own one device reports (an array: its rebuild). */
#define RS_DEV_EXTRAS 8

/* What a device says about itself after a run; all fields optional. */
struct rs_dev_report {
	double queue_depth;           /* mean requests inside the device */
	double utilisation;           /* busy fraction, 0..1 */
	/* Commands held inside the drives (their queuing depth in use): the
	 * mean per drive over the window and the most any drive held.  Drives
	 * report themselves; composites aggregate their members'. */
	double drive_qd;
	double drive_qd_max;
	uint32_t drives;              /* drives behind the figures; 0 = none */
	/* Figures of the device's own, each an extra table column (an SSD's
	 * write amplification "wa", an array's rebuild times), in the order
	 * the device adds them (rs_dev_report_extra).  extra_name/extra are
	 * the first of them, for callers that know the device has one. */
	struct rs_dev_extra {
		const char *name;     /* static string */
		double value;
	} extras[RS_DEV_EXTRAS];
	uint32_t nextras;
	const char *extra_name;       /* extras[0].name; NULL = none */
	double extra;
};

/* Set figure `name` of r (added at the end if r has none of that name;
 * beyond RS_DEV_EXTRAS figures the rest are dropped, a bug of ours that
 * the unit tests of the types catch). */
static inline void rs_dev_report_extra(struct rs_dev_report *r, const char *name, double v)
{
	uint32_t i = 0;
	while (i < r->nextras && strcmp(r->extras[i].name, name) != 0)
		i++;
	if (i == RS_DEV_EXTRAS)
		return;
	if (i == r->nextras)
		r->nextras++;
	r->extras[i] = (struct rs_dev_extra){ name, v };
	r->extra_name = r->extras[0].name;
	r->extra = r->extras[0].value;
}

/* What a device is attached behind, stated in one place by whoever puts
 * it there (a controller, for the drives behind its ports and the array
 * it drives): the links a command's data crosses and the host's service
 * settings.  Each type takes what applies to it. */
struct rs_dev_attach {
	/* The link a command's data crosses between the device and the host
	 * side: a controller channel's own link, or a bus that several drives
	 * share; NULL when it is not modelled. */
	struct rs_link *link;
	/* link is a bus shared with other drives (SCSI): the device
	 * arbitrates for it with rank bus_rank (rs_link_add_priority), and a
	 * transfer goes at the slowest rate on its path. */
	bool shared_bus;
	int bus_rank;
	/* The driver answers a drive's service request (legacy ATA TCQ) after
	 * host_service_ns; false: the drive keeps its own figure. */
	bool host_service;
	rs_time_t host_service_ns;
	/* The driver's way with mirrored reads ({read_policy,
	 * sequential_balance}, checked already); NULL: the array's own. */
	const struct rs_node *mirror_reads;
};

struct rs_dev_type {
	const char *name;             /* "ideal", "hdd", "raid0" ... */
	const char *help;             /* one line for `raidsim models` and --help */
	const struct rs_opt *opts;    /* parameter schema */
	size_t params_size;           /* struct the schema binds into */
	/* Build the device from bound params.  `node` is the (merged) YAML
	 * section, for diagnostics about cross-field constraints and for
	 * composite devices' member sections.  Returns 0 or -1 with d set. */
	int (*init)(struct rs_sim *sim, struct rs_dev *dev, const void *params,
		    const struct rs_node *node, struct rs_build *b, struct rs_diag *d);
	void (*submit)(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io);
	/* May be NULL.  The type's child-done hook: a child made with
	 * rs_io_child(..., NULL, NULL) of a request submitted to a device of
	 * this type completed (io/io.h, fan-in).  The parent's device, and so
	 * the layer's state, is child->parent->dev. */
	rs_io_done_fn *child_done;
	/* Measurement window starts now (end of ramp-up). May be NULL. */
	void (*restart_stats)(struct rs_dev *dev, rs_time_t now);
	/* May be NULL: the generic in-flight average is reported. */
	void (*report)(const struct rs_dev *dev, rs_time_t now, struct rs_dev_report *r);
	void (*destroy)(struct rs_dev *dev);   /* frees dev->priv; may be NULL */
	/* May be NULL: the device takes nothing from what it is attached
	 * behind (see struct rs_dev_attach), and whoever attached it moves
	 * its data after it is done.  Returns true when the device moves its
	 * data over at->link itself, as the data leaves the media (a drive). */
	bool (*attach)(struct rs_dev *dev, const struct rs_dev_attach *at);
	/* May be NULL: the device has no head to position.  How long after
	 * `now` the media access of a command for [lba, lba+nblk) would start
	 * if the device took it now, as the drive knows it (host false) or as
	 * a host estimates it from its copy of the drive's model (host true).
	 * A query only, for a host-side queue that orders by it (SPTF). */
	rs_time_t (*positioning)(const struct rs_dev *dev, uint64_t lba, uint32_t nblk,
				 bool is_write, rs_time_t now, bool host);
	/* May be NULL.  Adds the type's own busy parts (processors, links),
	 * named `name`.PART, to out; the device itself and its members are
	 * listed by the walk (rs_dev_components). */
	void (*components)(const struct rs_dev *dev, rs_time_t now, const char *name,
			   struct rs_components *out);
};

struct rs_dev {
	const struct rs_dev_type *type;
	char *name;
	uint64_t capacity_blk;        /* set by init */
	void *params;                 /* bound parameters, owned */
	void *priv;                   /* the type's state */
	struct rs_tavg inflight;      /* requests between submit and complete */
	/* The device whose in-flight average is this one's as well, kept
	 * there only (a straight controller's array, which every request
	 * enters and leaves at the same instants): readers take it through
	 * rs_dev_inflight.  NULL: the device keeps its own. */
	const struct rs_dev *inflight_of;
	uint64_t submitted, completed;
	uint64_t completed_at_restart;  /* `completed` when the window opened */
	struct rs_node *tree;         /* merged YAML the params point into, owned */
	struct rs_dev **members;      /* composite devices: children, owned */
	size_t nmembers;
	bool abandoned;               /* destroyed mid-run: requests may be inside */
};

/* The in-flight average of dev, wherever it is kept. */
static inline const struct rs_tavg *rs_dev_inflight(const struct rs_dev *dev)
{
	return &(dev->inflight_of ? dev->inflight_of : dev)->inflight;
}

/* Submit a request to a device (always accepted: flow control lives with
 * whoever knows the limit). */
static inline void rs_dev_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	io->dev = dev;
	dev->submitted++;
	rs_tavg_add(&dev->inflight, sim->now, 1);
	dev->type->submit(sim, dev, io);
}

/* Devices finish requests through this, so generic accounting holds. */
static inline void rs_dev_complete(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io,
				   int status)
{
	dev->completed++;
	rs_tavg_add(&dev->inflight, sim->now, -1);
	rs_io_complete(sim, io, status);
}

/* rs_dev_complete for a request a layer relayed, once the layer is done
 * with it (rs_io_relay_finish): the completion that gave it back to the
 * layer, by the device below, went through rs_io_complete, which asserted
 * that the request was live with no child nor hold; the layer's hook got
 * it back still live and finishes it here without making children.  So
 * this is rs_io_complete without the two assertions, which every layer
 * that relays the request would otherwise repeat. */
static inline void rs_dev_complete_relayed(struct rs_sim *sim, struct rs_dev *dev,
					   struct rs_io *io, int status)
{
	dev->completed++;
	rs_tavg_add(&dev->inflight, sim->now, -1);
	rs_io_recomplete(sim, io, status);
}

/* rs_dev_complete_relayed for a device whose average another keeps
 * (inflight_of): its own is not kept.  Its clock alone is moved to the
 * instant, so that the update rs_dev_submit makes on every device at the
 * next submission, often at this same instant (a closed loop), is the
 * cheap one that adds no area; the level it counts up is read by no one. */
static inline void rs_dev_complete_relayed_shared(struct rs_sim *sim, struct rs_dev *dev,
						  struct rs_io *io, int status)
{
	dev->completed++;
	dev->inflight.t_last = sim->now;
	rs_io_recomplete(sim, io, status);
}

void rs_dev_restart_stats(struct rs_dev *dev, rs_time_t now);
void rs_dev_report(const struct rs_dev *dev, rs_time_t now, struct rs_dev_report *r);
void rs_dev_destroy(struct rs_dev *dev);
/* Destroy a tree whose run failed half-way (rs_sim_fail): requests may still
 * be inside, so the types skip their checks that everything drained. */
void rs_dev_destroy_abandoned(struct rs_dev *dev);

/* ---- components: where the time of a run went ----------------------------
 * One named part of the device tree and how busy it was over the
 * measuring window.  Figures a part cannot know are NaN. */
struct rs_component {
	char name[128];               /* "ctrl", "ctrl.bus.in", "disk0", "disk0.disk1" */
	const char *kind;             /* "device", "array", "composite", "ctrl", "cpu", "link" */
	double utilisation;           /* busy fraction, 0..1 */
	double ops_s;                 /* requests, jobs or transactions per second */
	double time_ms;               /* mean time one spends inside (queue + service) */
	double service_ms;            /* mean time one is served (or below, in a composite) */
	double queue_ms;              /* time_ms - service_ms */
};

struct rs_components {
	struct rs_component *v;
	size_t n, cap;
};

/* Walk the tree from dev at the end of the measuring window (now) and
 * append its parts to out, in tree order (names: README "Components").
 * Allocates; never called while requests are being simulated. */
void rs_dev_components(const struct rs_dev *dev, rs_time_t now, struct rs_components *out);
void rs_components_free(struct rs_components *c);
/* A processor (k servers): its utilisation and busy time per job. */
void rs_components_add_server(struct rs_components *out, const char *name, const char *part,
			      const struct rs_server *s, rs_time_t now);
/* A link, one entry per direction ("PART.in" toward the host, "PART.out"
 * toward the device), or one ("PART") when it is half duplex. */
void rs_components_add_link(struct rs_components *out, const char *name, const char *part,
			    const struct rs_link *l, rs_time_t now);

/* A set of device types, found by name.  Which types exist is not known
 * here: the build context carries the set (struct rs_build in
 * dev/build.h), the tree module has the one of every type (tree/tree.h). */
struct rs_inner_section;
struct rs_dev_types {
	const struct rs_dev_type *const *types;
	size_t ntypes;
	/* Where types build devices of their own sections (dev/build.h). */
	const struct rs_inner_section *inner;
	size_t ninner;
};
/* The type called `name` in t, or NULL. */
const struct rs_dev_type *rs_dev_types_find(const struct rs_dev_types *t, const char *name);

#endif
