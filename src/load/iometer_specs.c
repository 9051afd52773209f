#include "load/iometer_specs.h"

#include <string.h>

#define KiB 1024ull

/* Shares and mixes as published: Intel's File/Web Server specs and
 * StorageReview's Workstation (see WORKLOADS in the README); Database is
 * Intel's 8 KiB random 67 % read, whose read share the X-bit/iXBT studies
 * sweep; the sequential patterns take their size from `size:`. */
static const struct rs_spec specs[] = {
	{ "database", "8 KiB random, 67% read (sweep `read` for the X-bit/iXBT variant)", 1,
	  { { 8 * KiB, 100, 67, 100, 0 } } },
	{ "fileserver", "Intel File Server: 512 B..64 KiB mix, 80% read, 100% random", 8,
	  { { 512, 10, 80, 100, 0 }, { 1 * KiB, 5, 80, 100, 0 }, { 2 * KiB, 5, 80, 100, 0 },
	    { 4 * KiB, 60, 80, 100, 0 }, { 8 * KiB, 2, 80, 100, 0 },
	    { 16 * KiB, 4, 80, 100, 0 }, { 32 * KiB, 4, 80, 100, 0 },
	    { 64 * KiB, 10, 80, 100, 0 } } },
	{ "webserver", "Intel Web Server: 512 B..512 KiB mix, 100% read, 100% random", 10,
	  { { 512, 22, 100, 100, 0 }, { 1 * KiB, 15, 100, 100, 0 },
	    { 2 * KiB, 8, 100, 100, 0 }, { 4 * KiB, 23, 100, 100, 0 },
	    { 8 * KiB, 15, 100, 100, 0 }, { 16 * KiB, 2, 100, 100, 0 },
	    { 32 * KiB, 6, 100, 100, 0 }, { 64 * KiB, 7, 100, 100, 0 },
	    { 128 * KiB, 1, 100, 100, 0 }, { 512 * KiB, 1, 100, 100, 0 } } },
	{ "workstation", "StorageReview Workstation: 8 KiB, 80% read, 80% random", 1,
	  { { 8 * KiB, 100, 80, 80, 0 } } },
	{ "seqread", "sequential read, one size (set `size:`, default 64 KiB)", 1,
	  { { 64 * KiB, 100, 100, 0, 0 } } },
	{ "seqwrite", "sequential write, one size (set `size:`, default 64 KiB)", 1,
	  { { 64 * KiB, 100, 0, 0, 0 } } },
	{ "default", "IOMeter's built-in Default: 2 KiB, 67% read, 100% random", 1,
	  { { 2 * KiB, 100, 67, 100, 0 } } },
};

size_t rs_spec_count(void) { return sizeof(specs) / sizeof(specs[0]); }

const struct rs_spec *rs_spec_at(size_t i) { return i < rs_spec_count() ? &specs[i] : NULL; }

const struct rs_spec *rs_spec_find(const char *name)
{
	for (size_t i = 0; i < rs_spec_count(); i++)
		if (strcmp(specs[i].name, name) == 0)
			return &specs[i];
	return NULL;
}
