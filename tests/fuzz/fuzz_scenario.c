/* Fuzz target: the input is a scenario file, loaded the way `raidsim run`
 * loads it (sweep parsed, every point bound and built, nothing run, nothing
 * written) against the shipped models. */
#include <string.h>
#include <unistd.h>

#include "fuzz_util.h"
#include "run/scenario.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	fuzz_scratch();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char path[4200];
	fuzz_scratch_path(path, sizeof(path), "scenario.yaml");
	fuzz_write(path, data, size);

	struct rs_model_path mp;
	fuzz_model_path(&mp, NULL);
	struct rs_diag d;
	rs_diag_init(&d);
	struct rs_scenario sc;
	int rc = rs_scenario_load(&sc, path, NULL, 0, &mp, &d);
	fuzz_check_verdict(rc, &d);
	rs_scenario_free(&sc);
	rs_model_path_free(&mp);
	unlink(path);
	return 0;
}
