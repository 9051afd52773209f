/* Fuzz target: the input is a model file.  It is found first on the model
 * path as `fuzzmodel` and used by a fixed small scenario as its device, so
 * the model's own schema (and, through `model:` and its sections, the
 * shipped models it names) is bound and the device is built. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "run/scenario.h"

static const char scenario[] =
	"device: {model: fuzzmodel}\n"
	"workload: {iometer: {spec: database, outstanding: 2, run: 0.1s}}\n";

static char models_dir[4200], model_file[4300], scenario_file[4200];

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_scratch_path(models_dir, sizeof(models_dir), "models");
	if (mkdir(models_dir, 0700) != 0)
		abort();
	snprintf(model_file, sizeof(model_file), "%s/fuzzmodel.yaml", models_dir);
	fuzz_scratch_path(scenario_file, sizeof(scenario_file), "scenario.yaml");
	fuzz_write(scenario_file, scenario, strlen(scenario));
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_write(model_file, data, size);

	/* A new path each time: the index keeps the models it has loaded. */
	struct rs_model_path mp;
	fuzz_model_path(&mp, models_dir);
	struct rs_diag d;
	rs_diag_init(&d);
	struct rs_scenario sc;
	int rc = rs_scenario_load(&sc, scenario_file, NULL, 0, &mp, &d);
	fuzz_check_verdict(rc, &d);
	rs_scenario_free(&sc);
	rs_model_path_free(&mp);
	unlink(model_file);
	return 0;
}
