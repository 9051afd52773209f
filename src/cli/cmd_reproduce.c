/* raidsim reproduce: every study run, its findings decided and one page
 * written (run/reproduce.h).  The source and build trees, which hold the
 * studies and their validation programs, are found from where this
 * binary is. */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/commands.h"
#include "run/reproduce.h"

const char cli_usage_reproduce[] =
	"Usage: raidsim reproduce [-o DIR] [-j N] [--study NAME]...\n"
	"\n"
	"Run every study listed in scenarios/studies.list: its run.sh (tables and\n"
	"figures into DIR/NAME/) and its validation program from the build tree\n"
	"(the findings, written to DIR/NAME/findings*.tsv exactly as under 'make\n"
	"check'); then write DIR/index.html with each study's figures, captions\n"
	"and findings table.  'make reproduce' builds what is needed and runs this.\n"
	"A study's own numbers (FOLDER/measured.tsv) are checked against its\n"
	"scenarios before anything runs, then compared with the simulated tables:\n"
	"the page and DIR/NAME/errors.tsv give each one's error.\n"
	"\n"
	"Options:\n"
	"  -o, --output DIR   where to write (default: out/reproduce)\n"
	"  -j, --jobs N       processes per study (default: number of cores)\n"
	"      --study NAME   only this study (repeatable)\n"
	"      --srcdir DIR   the source tree (default: found from this binary)\n"
	"      --builddir DIR the build tree with tests/validation/ (same)\n"
	"      --studies FILE the study list (default: SRCDIR/scenarios/studies.list)\n"
	"      --rerun-validation  run the validation programs even when 'make check'\n"
	"                     has left their results (check_X.trs, findings-X.tsv)\n"
	"                     newer than the program; by default those are shown\n"
	"  -q, --quiet        print nothing but errors\n"
	"\n"
	"Exit status 1 when a study's script or validation program failed, or a\n"
	"number of measured.tsv has no simulated value (the page is still written\n"
	"and says which); 2 on a bad study list, option or measured.tsv.\n";

/* The tree this binary was built in: the binary is BUILDDIR/src/raidsim.
 * The source tree is the build tree, or the abs_top_srcdir its Makefile
 * names (a VPATH build). */
static void find_trees(char *build, size_t nb, char *src, size_t ns, char *self, size_t nself)
{
	ssize_t len = readlink("/proc/self/exe", self, nself - 1);
	self[len > 0 ? len : 0] = '\0';
	snprintf(build, nb, ".");
	snprintf(src, ns, ".");
	char *slash = strrchr(self, '/');
	if (len <= 0 || !slash)
		return;
	snprintf(build, nb, "%.*s/..", (int)(slash - self), self);
	snprintf(src, ns, "%s", build);
	/* Installed: the studies and models are the installed data, and
	 * there are no validation programs (the studies run without
	 * findings). */
	const char *data = cli_installed_data();
	if (data) {
		snprintf(src, ns, "%s", data);
		snprintf(build, nb, "%s", data);
		return;
	}
	char mk[PATH_MAX + 16], line[PATH_MAX + 64];
	snprintf(mk, sizeof(mk), "%.*s/Makefile", PATH_MAX, build);
	FILE *f = fopen(mk, "r");
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "abs_top_srcdir = ", 17) == 0) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(src, ns, "%.*s", (int)(ns - 1), line + 17);
			break;
		}
	}
	if (f)
		fclose(f);
}

int cmd_reproduce(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ .name = "output", .has_arg = required_argument, .val = 'o' },
		{ .name = "jobs", .has_arg = required_argument, .val = 'j' },
		{ .name = "study", .has_arg = required_argument, .val = 'S' },
		{ .name = "srcdir", .has_arg = required_argument, .val = 's' },
		{ .name = "builddir", .has_arg = required_argument, .val = 'b' },
		{ .name = "studies", .has_arg = required_argument, .val = 'l' },
		{ .name = "rerun-validation", .has_arg = no_argument, .val = 'R' },
		{ .name = "quiet", .has_arg = no_argument, .val = 'q' },
		{ .name = "help", .has_arg = no_argument, .val = 'h' },
		{ 0 },
	};
	static char build[PATH_MAX], src[PATH_MAX], self[PATH_MAX], vdir[PATH_MAX + 32];
	const char *only[64];
	struct rs_reproduce_opts o = { .out_dir = "out/reproduce", .only = only };
	find_trees(build, sizeof(build), src, sizeof(src), self, sizeof(self));
	o.srcdir = src;
	o.builddir = build;
	o.raidsim = self;
	int c;
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:j:qh", longopts, NULL)) != -1) {
		switch (c) {
		case 'o':
			o.out_dir = optarg;
			break;
		case 'j':
			if (cli_parse_jobs(optarg, &o.jobs) != 0)
				return EXIT_BAD_INPUT;
			break;
		case 'S':
			if (o.nonly == 64) {
				fputs("raidsim: too many --study options\n", stderr);
				return EXIT_BAD_INPUT;
			}
			only[o.nonly++] = optarg;
			break;
		case 's':
			o.srcdir = optarg;
			break;
		case 'b':
			o.builddir = optarg;
			break;
		case 'l':
			o.manifest = optarg;
			break;
		case 'R':
			o.rerun_validation = true;
			break;
		case 'q':
			o.quiet = true;
			break;
		case 'h':
			fputs(cli_usage_reproduce, stdout);
			return 0;
		default:
			fputs("Try 'raidsim help reproduce'.\n", stderr);
			return EXIT_BAD_INPUT;
		}
	}
	if (optind != argc) {
		fputs("raidsim: reproduce takes no arguments\nTry 'raidsim help reproduce'.\n",
		      stderr);
		return EXIT_BAD_INPUT;
	}
	if (o.jobs == 0) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		o.jobs = n > 0 ? (unsigned)n : 1;
	}
	snprintf(vdir, sizeof(vdir), "%s/tests/validation", o.builddir);
	o.validation_dir = vdir;
	return rs_reproduce(&o);
}
