/* raidsim import disksim SETUP.parv: a drive model written from a DiskSim
 * set-up (import/dsim_hdd.h), whole or not at all. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "config/diag.h"
#include "import/dsim_hdd.h"

const char cli_usage_import[] =
	"Usage: raidsim import disksim SETUP.parv [-o OUT.yaml]\n"
	"\n"
	"Write a raidsim hdd model (YAML) from a DiskSim 4.0 set-up: the .parv file\n"
	"and the .diskspecs, .model and .seek files it loads, which must lie in its\n"
	"folder or below.  Every value carries a comment naming the file:line it\n"
	"comes from.  A parameter raidsim cannot express is refused with\n"
	"FILE:LINE:COLUMN (status 2) and nothing is written; parameters that cannot\n"
	"change a drive's timing (statistics, the synthetic workload) are listed at\n"
	"the end as ignored, with the reason.\n"
	"\n"
	"Options:\n"
	"  -o, --output FILE  write the model there (default: standard output)\n"
	"      --limit NAME=V raise or lower a cap (model_depth bounds 'source' nesting)\n";

/* The model goes to a hidden temporary beside OUT first, so a failed write
 * leaves no partial model under OUT's name. */
static int write_model(const char *parv, const char *out)
{
	struct rs_diag d;
	rs_diag_init(&d);
	char *buf = NULL;
	size_t len = 0;
	FILE *mem = open_memstream(&buf, &len);
	if (!mem) {
		perror("raidsim: open_memstream");
		return 1;
	}
	int rc = rs_import_disksim(parv, mem, &d);
	fclose(mem);
	if (rc != 0) {
		rs_diag_print(&d, stderr);
		free(buf);
		return EXIT_BAD_INPUT;
	}
	if (!out) {
		int ok = fwrite(buf, 1, len, stdout) == len && fflush(stdout) == 0;
		free(buf);
		if (!ok)
			perror("raidsim: writing the model");
		return ok ? 0 : 1;
	}
	size_t n = strlen(out) + 32;
	char *tmp = malloc(n);
	if (!tmp) {
		perror("raidsim");
		free(buf);
		return 1;
	}
	const char *slash = strrchr(out, '/');
	int dl = slash ? (int)(slash - out + 1) : 0;
	snprintf(tmp, n, "%.*s.%s.%ld.tmp", dl, out, slash ? slash + 1 : out, (long)getpid());
	FILE *f = fopen(tmp, "wb");
	int ok = f && fwrite(buf, 1, len, f) == len;
	ok = f && fclose(f) == 0 && ok;
	if (ok && rename(tmp, out) != 0)
		ok = 0;
	if (!ok) {
		fprintf(stderr, "raidsim: cannot write '%s': %s\n", out, strerror(errno));
		remove(tmp);
	}
	free(tmp);
	free(buf);
	return ok ? 0 : 1;
}

int cmd_import(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ .name = "output", .has_arg = required_argument, .val = 'o' },
		{ .name = "limit", .has_arg = required_argument, .val = 'L' },
		{ .name = "help", .has_arg = no_argument, .val = 'h' },
		{ 0 },
	};
	const char *out = NULL;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			out = optarg;
			break;
		case 'L':
			if (cli_set_limit(optarg) != 0)
				return EXIT_BAD_INPUT;
			break;
		case 'h':
			fputs(cli_usage_import, stdout);
			return 0;
		default:
			fputs("Try 'raidsim help import'.\n", stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (argc - optind != 2 || strcmp(argv[optind], "disksim") != 0) {
		fputs("raidsim: import expects 'disksim SETUP.parv' (the one format it reads)\n"
		      "Try 'raidsim help import'.\n", stderr);
		return EXIT_BAD_INPUT;
	}
	return write_model(argv[optind + 1], out);
}
