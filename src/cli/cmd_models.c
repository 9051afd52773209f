/* raidsim models: the models on the model path, one model with its
 * defaults filled in ('models show NAME'), or the device and workload
 * types and access specs a scenario may name (--types). */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cli/commands.h"
#include "config/diag.h"
#include "config/emit.h"
#include "config/models.h"
#include "config/node.h"
#include "config/schema.h"
#include "dev/bus.h"
#include "dev/dev.h"
#include "load/iometer_specs.h"
#include "load/load.h"
#include "tree/tree.h"

const char cli_usage_models[] =
	"Usage: raidsim models [-M DIR]... [--types]\n"
	"       raidsim models [-M DIR]... show NAME\n"
	"\n"
	"List every model on the model path, one line each: name, device type,\n"
	"description and file.  With --types, list the device types, workload\n"
	"types and named IOMeter access specs instead.  'show NAME' prints the\n"
	"model NAME (or a model file, ./my-disk.yaml) as a scenario would get it:\n"
	"the models it is based on laid under it and every default filled in.\n"
	"\n"
	"The model path: each -M DIR, $RAIDSIM_MODELS (colon-separated), the\n"
	"models of the build tree this binary runs from, then the installed ones.\n"
	"A scenario's own folder and its models/ folder come first for 'run'.\n";

static int print_model(const struct rs_model_info *m, void *arg)
{
	printf("%-28s %-10s %s  (%s)\n", m->name, m->type ? m->type : "?",
	       m->description ? m->description : "", m->path);
	++*(unsigned *)arg;
	return 0;
}

/* Marks the defaults show_model fills in, so they print with a comment. */
static const char default_file[] = "(default)";

/* `raidsim models show NAME`: the model as a scenario section naming it
 * gets it, with the defaults of its type's keys added.  (Sections inside
 * it, such as a controller's cache, are shown as written.) */
static int show_model(const struct rs_model_path *mp, const char *name, struct rs_diag *d)
{
	struct rs_node *section = rs_node_new_map("command line", 1, 1);
	rs_node_put(section, rs_node_new_scalar("command line", 1, 1, "model"),
		    rs_node_new_scalar("command line", 1, 1, name));
	struct rs_node *m = rs_model_resolve(mp, section, d);
	rs_node_free(section);
	if (!m)
		return -1;
	const struct rs_node *type = rs_node_get(m, "type");
	const struct rs_dev_type *t = type ? rs_dev_types_find(rs_tree_types(), type->str) : NULL;
	const struct rs_opt *opts = t ? t->opts : type && strcmp(type->str, "link") == 0 ?
		rs_bus_schema() : NULL;
	if (opts)
		rs_schema_fill_defaults(opts, m, rs_intern(default_file));
	rs_node_emit(m, stdout, rs_intern(default_file), "default");
	rs_node_free(m);
	return 0;
}

int cmd_models(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ .name = "models", .has_arg = required_argument, .val = 'M' },
		{ .name = "types", .has_arg = no_argument, .val = 't' },
		{ .name = "help", .has_arg = no_argument, .val = 'h' },
		{ 0 },
	};
	char *model_dirs[64];
	size_t ndirs = 0;
	int c, types = 0;
	optind = 1;
	while ((c = getopt_long(argc, argv, "M:th", longopts, NULL)) != -1) {
		switch (c) {
		case 'M':
			if (cli_add_model_dir(model_dirs, &ndirs, sizeof(model_dirs) / sizeof(model_dirs[0]),
					      optarg) != 0)
				return EXIT_BAD_INPUT;
			break;
		case 't':
			types = 1;
			break;
		case 'h':
			fputs(cli_usage_models, stdout);
			return 0;
		default:
			fputs("Try 'raidsim help models'.\n", stderr);
			return EXIT_BAD_INPUT;
		}
	}
	const char *show = NULL;
	if (optind < argc && strcmp(argv[optind], "show") == 0) {
		if (argc - optind != 2 || types) {
			fputs("raidsim: models show expects one model name\n"
			      "Try 'raidsim help models'.\n", stderr);
			return EXIT_BAD_INPUT;
		}
		show = argv[optind + 1];
	} else if (optind != argc) {
		fprintf(stderr, "raidsim: models takes no arguments but 'show NAME', got '%s'\n",
			argv[optind]);
		return EXIT_BAD_INPUT;
	}
	if (types) {
		printf("device types:\n");
		const struct rs_dev_types *all = rs_tree_types();
		for (size_t i = 0; i < all->ntypes; i++) {
			const struct rs_dev_type *t = all->types[i];
			printf("  %-10s %s\n", t->name, t->help);
			rs_schema_print(t->opts, stdout, "      ");
		}
		printf("workload types:\n");
		for (size_t i = 0; i < rs_load_type_count(); i++) {
			const struct rs_load_type *t = rs_load_type_at(i);
			printf("  %-10s %s\n", t->name, t->help);
			rs_schema_print(t->opts, stdout, "      ");
		}
		printf("IOMeter access specs:\n");
		for (size_t i = 0; i < rs_spec_count(); i++)
			printf("  %-12s %s\n", rs_spec_at(i)->name, rs_spec_at(i)->help);
		return 0;
	}
	struct rs_model_path mp;
	if (cli_setup_models(&mp, model_dirs, ndirs) != 0)
		return EXIT_BAD_INPUT;
	struct rs_diag d;
	rs_diag_init(&d);
	int rc;
	if (show) {
		rc = show_model(&mp, show, &d);
	} else {
		unsigned found = 0;
		rc = rs_model_list(&mp, print_model, &found, &d);
		if (rc == 0 && found == 0) {
			char looked[2048];
			rs_model_path_where(&mp, looked, sizeof(looked));
			fprintf(stderr, "raidsim: no models found; looked in %s (use -M DIR or set "
					"RAIDSIM_MODELS)\n", looked);
			rc = -1;
		}
	}
	if (rc != 0 && d.failed)
		rs_diag_print(&d, stderr);
	rs_model_path_free(&mp);
	return rc == 0 ? 0 : EXIT_BAD_INPUT;
}
