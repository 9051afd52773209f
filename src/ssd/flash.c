#include "ssd/flash.h"

#include <stdio.h>
#include <stdlib.h>

#include "kernel/assert.h"

void flash_init(struct flash_array *fa, uint32_t nchannels, uint32_t dies_per_channel,
		const struct rs_link_params *bus, rs_time_t now)
{
	*fa = (struct flash_array){ .ndies = nchannels * dies_per_channel,
				    .nchannels = nchannels };
	fa->die = calloc(fa->ndies, sizeof(*fa->die));
	fa->chan = calloc(nchannels, sizeof(*fa->chan));
	fa->chan_name = calloc(nchannels, sizeof(*fa->chan_name));
	RS_ASSERT(fa->die && fa->chan && fa->chan_name);
	for (uint32_t c = 0; c < nchannels; c++) {
		snprintf(fa->chan_name[c], sizeof(fa->chan_name[c]), "flash-ch%u", c);
		rs_link_init(&fa->chan[c], fa->chan_name[c], bus, now);
	}
	for (uint32_t d = 0; d < fa->ndies; d++)
		fa->die[d] = (struct flash_die){ .index = d, .channel = d % nchannels,
						 .reg_page = UINT32_MAX,
						 .victim = UINT32_MAX };
	rs_tavg_init(&fa->busy, now, 0);
}

void flash_free(struct flash_array *fa)
{
	free(fa->die);
	free(fa->chan);
	free(fa->chan_name);
	fa->die = NULL;
	fa->chan = NULL;
	fa->chan_name = NULL;
}

void flash_restart_stats(struct flash_array *fa, rs_time_t now)
{
	rs_tavg_restart(&fa->busy, now);
	for (uint32_t c = 0; c < fa->nchannels; c++)
		rs_link_restart_stats(&fa->chan[c], now);
}

static void finish(struct rs_sim *sim, void *obj, void *arg)
{
	struct flash_array *fa = obj;
	struct flash_die *die = arg;
	die->busy = false;
	rs_tavg_add(&fa->busy, sim->now, -1);
	die->fn(sim, die->fn_obj, die->fn_arg);
}

static void moved(struct rs_sim *sim, void *obj, void *arg, int status)
{
	struct flash_die *die = arg;
	RS_ASSERT(status == 0);  /* flash buses are never taken down */
	if (die->post_ns > 0)
		rs_sched(sim, die->post_ns, finish, obj, die);
	else
		finish(sim, obj, die);
}

static void sensed(struct rs_sim *sim, void *obj, void *arg)
{
	struct flash_array *fa = obj;
	struct flash_die *die = arg;
	if (die->bytes > 0)
		rs_link_xfer(sim, &fa->chan[die->channel], (enum rs_dir)die->dir, die->bytes, moved,
			     fa, die);
	else
		moved(sim, fa, die, 0);
}

void flash_run(struct rs_sim *sim, struct flash_array *fa, struct flash_die *die,
	       rs_time_t pre_ns, uint64_t bytes, enum rs_dir dir, rs_time_t post_ns,
	       uint32_t page, rs_event_fn *fn, void *obj, void *arg)
{
	RS_ASSERT(!die->busy);
	die->busy = true;
	rs_tavg_add(&fa->busy, sim->now, 1);
	die->bytes = bytes;
	die->dir = (uint8_t)dir;
	die->post_ns = post_ns;
	die->fn = fn;
	die->fn_obj = obj;
	die->fn_arg = arg;
	die->reg_page = page;
	if (pre_ns > 0)
		rs_sched(sim, pre_ns, sensed, fa, die);
	else
		sensed(sim, fa, die);
}
