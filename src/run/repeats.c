#include "run/repeats.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "kernel/assert.h"

void rs_mean_ci95(const double *x, size_t n, double *mean, double *half)
{
	RS_ASSERT(n >= 1);
	/* Sums of differences from the first value: n equal values give that
	 * value and a width of exactly 0, not a rounding residue. */
	double sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += x[i] - x[0];
	double m = x[0] + sum / (double)n;
	double ss = 0;
	for (size_t i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*mean = m;
	if (isnan(m)) {
		*half = m;
		return;
	}
	if (n < 2 || ss == 0) {
		*half = 0;
		return;
	}
	double sd = sqrt(ss / (double)(n - 1));
	*half = gsl_cdf_tdist_Pinv(0.975, (double)(n - 1)) * sd / sqrt((double)n);
}

/* Cell k of every run into v[r * ncells + k]: its number, or NaN. */
static int split_runs(char *const *runs, size_t n, size_t ncells, double *v)
{
	for (size_t r = 0; r < n; r++) {
		const char *p = runs[r];
		size_t k = 0;
		for (;;) {
			size_t len = strcspn(p, "\t");
			char cell[64];
			double x = NAN;
			if (k >= ncells)
				return -1;
			if (len < sizeof(cell)) {
				memcpy(cell, p, len);
				cell[len] = '\0';
				if (!rs_table_number(cell, &x))
					x = NAN;
			}
			v[r * ncells + k++] = x;
			if (p[len] != '\t')
				break;
			p += len + 1;
		}
		if (k != ncells)
			return -1;
	}
	return 0;
}

int rs_repeat_row(char *const *runs, size_t n, size_t ncells, struct rs_table *t,
		  size_t row, size_t col)
{
	double *v = malloc(n * ncells * sizeof(*v) + n * sizeof(*v) + 1);
	RS_ASSERT(v != NULL);
	double *x = v + n * ncells;
	int rc = split_runs(runs, n, ncells, v);
	for (size_t k = 0; rc == 0 && k < ncells; k++) {
		for (size_t r = 0; r < n; r++)
			x[r] = v[r * ncells + k];
		double mean, half;
		rs_mean_ci95(x, n, &mean, &half);
		char cell[32];
		rs_fmt_double(cell, sizeof(cell), mean);
		rs_table_set(t, row, col++, cell);
		rs_fmt_double(cell, sizeof(cell), half);
		rs_table_set(t, row, col++, cell);
	}
	if (rc == 0)
		rs_table_setf(t, row, col, "%zu", n);
	free(v);
	return rc;
}
