#include "stats/iostat.h"

#include <string.h>

void rs_iostat_reset(struct rs_iostat *s, rs_time_t now)
{
	memset(s, 0, sizeof(*s));
	for (int c = 0; c < RS_ST_ALL; c++)
		rs_hist_reset(&s->lat[c]);
	s->t_start = now;
}

void rs_iostat_merge(struct rs_iostat *dst, const struct rs_iostat *src)
{
	if (src->t_start < dst->t_start)
		dst->t_start = src->t_start;
	for (int c = 0; c < RS_ST_ALL; c++)
		rs_hist_merge(&dst->lat[c], &src->lat[c]);
	dst->lat_sum_all += src->lat_sum_all;
	for (int c = 0; c < RS_ST_COUNT; c++) {
		dst->ops[c] += src->ops[c];
		dst->bytes[c] += src->bytes[c];
	}
	dst->errors += src->errors;
}

void rs_iostat_all(const struct rs_iostat *s, struct rs_hist *out)
{
	rs_hist_reset(out);
	for (int c = 0; c < RS_ST_ALL; c++)
		rs_hist_merge(out, &s->lat[c]);
	out->sum = s->lat_sum_all;
}

static double ms(int64_t ns)
{
	return (double)ns / 1e6;
}

static double rate(uint64_t n, double seconds)
{
	return seconds > 0.0 ? (double)n / seconds : 0.0;
}

void rs_iostat_summarize(const struct rs_iostat *s, rs_time_t now,
			 struct rs_iostat_summary *out)
{
	struct rs_hist all_hist;      /* 37 KiB, once per window */
	const struct rs_hist *all = &all_hist;
	rs_iostat_all(s, &all_hist);
	const struct rs_hist *rd = &s->lat[RS_ST_READ];
	const struct rs_hist *wr = &s->lat[RS_ST_WRITE];
	double sec = now > s->t_start ? (double)(now - s->t_start) / 1e9 : 0.0;

	memset(out, 0, sizeof(*out));
	out->seconds = sec;
	out->ops = s->ops[RS_ST_ALL];
	out->errors = s->errors;
	out->iops = rate(s->ops[RS_ST_ALL], sec);
	out->read_iops = rate(s->ops[RS_ST_READ], sec);
	out->write_iops = rate(s->ops[RS_ST_WRITE], sec);
	out->mib_s = rate(s->bytes[RS_ST_ALL], sec) / 1048576.0;
	out->mb_s = rate(s->bytes[RS_ST_ALL], sec) / 1e6;
	out->read_mib_s = rate(s->bytes[RS_ST_READ], sec) / 1048576.0;
	out->write_mib_s = rate(s->bytes[RS_ST_WRITE], sec) / 1048576.0;

	out->lat_mean_ms = rs_hist_mean(all) / 1e6;
	out->lat_p50_ms = ms(rs_hist_quantile(all, 0.50));
	out->lat_p90_ms = ms(rs_hist_quantile(all, 0.90));
	out->lat_p99_ms = ms(rs_hist_quantile(all, 0.99));
	out->lat_p999_ms = ms(rs_hist_quantile(all, 0.999));
	out->lat_max_ms = ms(rs_hist_quantile(all, 1.0));
	out->read_lat_mean_ms = rs_hist_mean(rd) / 1e6;
	out->write_lat_mean_ms = rs_hist_mean(wr) / 1e6;
	out->read_lat_p99_ms = ms(rs_hist_quantile(rd, 0.99));
	out->write_lat_p99_ms = ms(rs_hist_quantile(wr, 0.99));
}
