/* What the fuzz targets share.
 *
 * The loader reads scenarios and models by path, so each input goes to a
 * file in a scratch folder private to the process (removed at exit), and
 * is deleted again before the next input.  Models come from the source
 * tree's models/ folder ($RAIDSIM_MODELS when set, else the path compiled
 * in by the build), so a scenario input can name any shipped model. */
#ifndef RS_FUZZ_UTIL_H
#define RS_FUZZ_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "config/diag.h"
#include "config/models.h"

/* libFuzzer's entry points, also called by the replay driver. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The scratch folder, made on first use. */
const char *fuzz_scratch(void);
/* "SCRATCH/name" into out. */
void fuzz_scratch_path(char *out, size_t len, const char *name);
/* Write (create or replace) a file with exactly these bytes; aborts on
 * failure, which would be the machine's fault, not the input's. */
void fuzz_write(const char *path, const void *data, size_t size);

/* A model path: `first` (may be NULL) searched before the shipped models. */
void fuzz_model_path(struct rs_model_path *mp, const char *first);

/* A load's verdict must be consistent: success with no diagnostic, or
 * failure with one naming a file (printed as file:line:column), the form
 * every bad input gets.  Aborts otherwise, so the fuzzer reports the
 * input. */
void fuzz_check_verdict(int rc, const struct rs_diag *d);

#endif
