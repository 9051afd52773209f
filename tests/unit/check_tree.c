/* The device tree is assembled from the set of types the build context
 * carries: a made-up type injected there builds, counts and is attached
 * behind a controller like the real ones, and a type the set lacks is
 * unknown.  raidsim's own set (tree/registry.c) is checked for what the
 * build relies on. */
#include <check.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "config/diag.h"
#include "config/node.h"
#include "config/schema.h"
#include "ctrl/controller.h"
#include "dev/build.h"
#include "dev/dev.h"
#include "dev/link.h"
#include "io/io.h"
#include "kernel/sim.h"
#include "raid/volume.h"
#include "tree/tree.h"

/* ---- a made-up drive ---------------------------------------------------- */

struct toy_params {
	uint64_t blocks;
};

static const struct rs_opt toy_opts[] = {
	{ "blocks", RS_OPT_UINT, offsetof(struct toy_params, blocks), "1000", RS_OPT_HAS_MIN, 1,
	  0, NULL, "addressable blocks" },
	RS_OPT_END
};

/* What the last attach of a toy was told, and how many there were. */
static struct {
	unsigned calls;
	bool had_link, shared_bus, host_service;
	rs_time_t host_service_ns;
	bool mirror_reads;
} told;

static int toy_init(struct rs_sim *sim, struct rs_dev *dev, const void *params,
		    const struct rs_node *node, struct rs_build *b, struct rs_diag *d)
{
	dev->capacity_blk = ((const struct toy_params *)params)->blocks;
	return 0;
}

static void toy_submit(struct rs_sim *sim, struct rs_dev *dev, struct rs_io *io)
{
	rs_dev_complete(sim, dev, io, 0);
}

static bool toy_attach(struct rs_dev *dev, const struct rs_dev_attach *at)
{
	told.calls++;
	told.had_link = at->link != NULL;
	told.shared_bus = at->shared_bus;
	told.host_service = at->host_service;
	told.host_service_ns = at->host_service_ns;
	told.mirror_reads = at->mirror_reads != NULL;
	return at->link != NULL;
}

static const struct rs_dev_type toy = {
	.name = "toy",
	.help = "a drive only this test knows",
	.opts = toy_opts,
	.params_size = sizeof(struct toy_params),
	.init = toy_init,
	.submit = toy_submit,
	.attach = toy_attach,
};

/* A composite of its own: builds nothing, but says where devices would be
 * inside it, for counting. */
static int box_init(struct rs_sim *sim, struct rs_dev *dev, const void *params,
		    const struct rs_node *node, struct rs_build *b, struct rs_diag *d)
{
	dev->capacity_blk = 1;
	return 0;
}

static const struct rs_opt box_opts[] = {
	{ "inside", RS_OPT_NODE, 0, NULL, 0, 0, 0, NULL, "the devices inside" },
	RS_OPT_END
};

static const struct rs_dev_type box = {
	.name = "box",
	.help = "a composite only this test knows",
	.opts = box_opts,
	.params_size = sizeof(const struct rs_node *),
	.init = box_init,
	.submit = toy_submit,
};

static const struct rs_dev_type *const toy_types[] = { &toy, &box };
static const struct rs_inner_section toy_inner[] = { { &box, "inside", RS_INNER_COUNTED } };
static const struct rs_dev_types only_toys = { toy_types, 2, toy_inner, 1 };

/* The toy behind raidsim's controller and array, and nothing else. */
static const struct rs_dev_type *const ctrl_types[] = { &rs_dev_controller, &rs_dev_array,
							&toy };
static const struct rs_inner_section ctrl_inner[] = {
	{ &rs_dev_controller, "array", RS_INNER_ONE },
	{ &rs_dev_array, "disks", RS_INNER_COUNTED },
};
static const struct rs_dev_types toys_behind_ctrl = { ctrl_types, 3, ctrl_inner, 2 };

static struct rs_sim *sim;

static void kept(struct rs_sim *s, struct rs_io *io) {}

/* Built in `sim`, made afresh for each test. */
static struct rs_dev *build(const struct rs_dev_types *types, const char *text,
			    struct rs_node **root, struct rs_diag *d)
{
	rs_diag_init(d);
	*root = rs_yaml_load_string("in.yaml", text, strlen(text), d);
	ck_assert_ptr_nonnull(*root);
	struct rs_build b = { .sim = sim, .types = types, .diag = d };
	return rs_dev_build(&b, *root, "device", "device");
}

static void sim_new(void) { sim = rs_sim_new(1); }
static void sim_free(void) { rs_sim_free(sim); }

START_TEST(injected_type_builds)
{
	struct rs_node *root;
	struct rs_diag d;
	struct rs_dev *dev = build(&only_toys, "{type: toy, blocks: 4096}", &root, &d);
	if (!dev)
		rs_diag_print(&d, stderr);
	ck_assert_ptr_nonnull(dev);
	ck_assert_ptr_eq(dev->type, &toy);
	ck_assert_uint_eq(dev->capacity_blk, 4096);
	/* It runs too: a request submitted completes through it. */
	struct rs_io *io = rs_io_new(sim, RS_READ, 0, 8, kept, NULL);
	rs_dev_submit(sim, dev, io);
	ck_assert_uint_eq(dev->completed, 1);
	rs_io_free(sim, io);
	rs_dev_destroy(dev);
	rs_node_free(root);
}
END_TEST

/* The build knows the types it is given, not raidsim's. */
START_TEST(type_not_in_the_set_is_unknown)
{
	struct rs_node *root;
	struct rs_diag d;
	ck_assert_ptr_null(build(&only_toys, "{type: hdd}", &root, &d));
	ck_assert_str_eq(d.msg, "unknown device type 'hdd'");
	rs_node_free(root);
	ck_assert_ptr_null(build(&only_toys, "{type: tox}", &root, &d));
	ck_assert_str_eq(d.msg, "unknown device type 'tox' (did you mean 'toy'?)");
	rs_node_free(root);
	ck_assert_ptr_null(build(rs_tree_types(), "{type: toy}", &root, &d));
	ck_assert_str_eq(d.msg, "unknown device type 'toy'");
	rs_node_free(root);
}
END_TEST

/* Counting a device before building it follows the set's inner sections. */
START_TEST(injected_inner_sections_count)
{
	const char *text = "{type: box, inside: {type: toy, count: 5}}";
	struct rs_diag d;
	rs_diag_init(&d);
	struct rs_node *root = rs_yaml_load_string("in.yaml", text, strlen(text), &d);
	ck_assert_ptr_nonnull(root);
	struct rs_build b = { .types = &only_toys, .diag = &d };
	uint64_t n;
	bool exact;
	ck_assert_int_eq(rs_dev_count(&b, root, &n, &exact), 0);
	ck_assert_uint_eq(n, 1 + 5);
	ck_assert(exact);
	/* Without the box's inner section, the box is one device. */
	static const struct rs_dev_types flat = { toy_types, 2, NULL, 0 };
	b.types = &flat;
	ck_assert_int_eq(rs_dev_count(&b, root, &n, &exact), 0);
	ck_assert_uint_eq(n, 1);
	rs_node_free(root);
}
END_TEST

/* A controller tells each drive behind its ports, in one attach, the link
 * the data crosses and the driver's service reaction; the array gets the
 * driver's mirror reads and no link. */
START_TEST(controller_attaches_injected_drives)
{
	struct rs_node *root;
	struct rs_diag d;
	memset(&told, 0, sizeof(told));
	struct rs_dev *dev = build(&toys_behind_ctrl,
				   "{type: controller, ports: 3, port_link: {rate: 150MB/s},\n"
				   " host_service: 3us, queued_reads: {read_policy: primary},\n"
				   " array: {type: array, level: raid0,\n"
				   "         disks: {type: toy, count: 3}}}",
				   &root, &d);
	if (!dev)
		rs_diag_print(&d, stderr);
	ck_assert_ptr_nonnull(dev);
	ck_assert_uint_eq(told.calls, 3);
	ck_assert(told.had_link);
	ck_assert(!told.shared_bus);
	ck_assert(told.host_service);
	ck_assert_uint_eq(told.host_service_ns, 3000);
	rs_dev_destroy(dev);
	rs_node_free(root);

	/* A single drive gets a port, and keeps its own service reaction. */
	memset(&told, 0, sizeof(told));
	dev = build(&toys_behind_ctrl, "{type: controller, array: {type: toy}}", &root, &d);
	ck_assert_ptr_nonnull(dev);
	ck_assert_uint_eq(told.calls, 1);
	ck_assert(!told.had_link);        /* no port_link: the link is not modelled */
	ck_assert(!told.host_service);
	rs_dev_destroy(dev);
	rs_node_free(root);
}
END_TEST

/* raidsim's own set: names unique, every inner section's type in it. */
START_TEST(raidsim_types)
{
	const struct rs_dev_types *all = rs_tree_types();
	ck_assert_uint_ge(all->ntypes, 11);
	for (size_t i = 0; i < all->ntypes; i++) {
		ck_assert_ptr_eq(rs_dev_types_find(all, all->types[i]->name), all->types[i]);
		ck_assert_ptr_nonnull(all->types[i]->init);
		ck_assert_ptr_nonnull(all->types[i]->submit);
	}
	for (size_t i = 0; i < all->ninner; i++)
		ck_assert_ptr_eq(rs_dev_types_find(all, all->inner[i].type->name),
				 all->inner[i].type);
	ck_assert_ptr_nonnull(rs_dev_types_find(all, "hdd"));
	ck_assert_ptr_null(rs_dev_types_find(all, "toy"));
}
END_TEST

static Suite *tree_suite(void)
{
	Suite *s = suite_create("tree");
	TCase *tc = tcase_create("types");
	tcase_add_checked_fixture(tc, sim_new, sim_free);
	tcase_add_test(tc, injected_type_builds);
	tcase_add_test(tc, type_not_in_the_set_is_unknown);
	tcase_add_test(tc, injected_inner_sections_count);
	tcase_add_test(tc, controller_attaches_injected_drives);
	tcase_add_test(tc, raidsim_types);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(tree_suite());
	srunner_run_all(sr, CK_NORMAL);
	int failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
