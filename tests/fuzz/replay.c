/* A main() for the fuzz targets without libFuzzer: each argument (a file,
 * or a folder of them, read in name order) is one input, handed to the
 * target exactly as the fuzzer would.  `make check` builds the targets
 * this way with the normal compiler and replays their seeds and the
 * regressions, so a harness or a fixed bug cannot rot between campaigns. */
#define _POSIX_C_SOURCE 200809L   /* scandir */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_util.h"

static size_t replayed;

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t cap = 4096, len = 0;
	uint8_t *buf = malloc(cap);
	size_t got;
	while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
		len += got;
		if (len == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	if (!buf) {
		fprintf(stderr, "%s: out of memory\n", path);
		return -1;
	}
	/* Exactly the input's bytes, as libFuzzer passes them, so a read past
	 * the end is caught by the sanitizer build. */
	uint8_t *exact = malloc(len ? len : 1);
	if (!exact)
		abort();
	memcpy(exact, buf, len);
	free(buf);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	replayed++;
	return 0;
}

static int replay(const char *path)
{
	struct stat st;
	if (stat(path, &st) != 0) {
		perror(path);
		return -1;
	}
	if (!S_ISDIR(st.st_mode))
		return replay_file(path);
	struct dirent **names;
	int n = scandir(path, &names, NULL, alphasort);
	if (n < 0) {
		perror(path);
		return -1;
	}
	int rc = 0;
	for (int i = 0; i < n; i++) {
		if (names[i]->d_name[0] != '.' && rc == 0) {
			char sub[4096];
			snprintf(sub, sizeof(sub), "%s/%s", path, names[i]->d_name);
			rc = replay(sub);
		}
		free(names[i]);
	}
	free(names);
	return rc;
}

int main(int argc, char **argv)
{
	LLVMFuzzerInitialize(&argc, &argv);
	for (int i = 1; i < argc; i++)
		if (replay(argv[i]) != 0)
			return 1;
	printf("%s: %zu inputs replayed\n", argv[0], replayed);
	return 0;
}
