#include "net/frame.h"

#include <stddef.h>

#include "config/schema.h"

static uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

uint64_t rs_eth_mss(const struct rs_eth_params *p)
{
	return p->mtu - RS_IP_HEADER - RS_TCP_HEADER - (p->timestamps ? RS_TCP_TIMESTAMPS : 0);
}

uint64_t rs_iscsi_pdus(const struct rs_eth_params *p, uint64_t data)
{
	return data == 0 ? 1 : ceil_div(data, p->max_segment);
}

uint64_t rs_iscsi_stream_bytes(const struct rs_eth_params *p, uint64_t data)
{
	uint64_t pdus = rs_iscsi_pdus(p, data);
	uint64_t per_pdu = RS_ISCSI_BHS + (p->header_digest ? RS_ISCSI_DIGEST : 0);
	uint64_t bytes = pdus * per_pdu;
	if (data) {
		/* Each PDU's data is padded to a 4-byte boundary; only the last
		 * one can be short. */
		uint64_t full = data / p->max_segment, last = data % p->max_segment;
		bytes += full * ((p->max_segment + 3) & ~(uint64_t)3);
		if (last)
			bytes += (last + 3) & ~(uint64_t)3;
		if (p->data_digest)
			bytes += pdus * RS_ISCSI_DIGEST;
	}
	return bytes;
}

uint64_t rs_eth_segments(const struct rs_eth_params *p, uint64_t stream)
{
	return stream ? ceil_div(stream, rs_eth_mss(p)) : 0;
}

static uint64_t frame_on_wire(uint64_t ip_bytes)
{
	uint64_t frame = ip_bytes + 18;  /* MAC header 14 + FCS 4 */
	if (frame < RS_ETH_MIN_FRAME)
		frame = RS_ETH_MIN_FRAME;
	return frame + (RS_ETH_FRAME_OVERHEAD - 18);
}

uint64_t rs_eth_wire_bytes(const struct rs_eth_params *p, uint64_t stream)
{
	uint64_t mss = rs_eth_mss(p);
	uint64_t headers = RS_IP_HEADER + RS_TCP_HEADER + (p->timestamps ? RS_TCP_TIMESTAMPS : 0);
	uint64_t full = stream / mss, last = stream % mss;
	uint64_t wire = full * frame_on_wire(mss + headers);
	if (last)
		wire += frame_on_wire(last + headers);
	return wire;
}

uint64_t rs_eth_ack_wire_bytes(const struct rs_eth_params *p, uint64_t segments)
{
	uint64_t acks = ceil_div(segments, p->segments_per_ack);
	uint64_t headers = RS_IP_HEADER + RS_TCP_HEADER + (p->timestamps ? RS_TCP_TIMESTAMPS : 0);
	return acks * frame_on_wire(headers);
}

uint64_t rs_iscsi_wire_bytes(const struct rs_eth_params *p, uint64_t data)
{
	return rs_eth_wire_bytes(p, rs_iscsi_stream_bytes(p, data));
}

double rs_eth_bytes_s(const struct rs_eth_params *p) { return p->rate_bits_s / 8.0; }

double rs_iscsi_payload_ceiling(const struct rs_eth_params *p)
{
	/* Sixteen full PDUs: long enough that the last partial frame does
	 * not matter at the precision of the figures. */
	uint64_t data = 16 * p->max_segment;
	return rs_eth_bytes_s(p) * (double)data / (double)rs_iscsi_wire_bytes(p, data);
}

int64_t rs_eth_frame_ns(const struct rs_eth_params *p)
{
	return (int64_t)((double)frame_on_wire(p->mtu) * 8e9 / p->rate_bits_s + 0.5);
}

/* ---- the YAML section -------------------------------------------------- */

struct eth_opts {
	double rate;
	int duplex;
	uint64_t mtu;
	bool timestamps, header_digest, data_digest;
	uint64_t max_segment;
	uint64_t ack_every;
};
static const char *const duplex_names[] = { "half", "full", NULL };

#define O(f) offsetof(struct eth_opts, f)
static const struct rs_opt eth_opts[] = {
	{ "rate", RS_OPT_RATE, O(rate), "1Gb/s", RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 1e5, 1.25e10, NULL,
	  "line rate of one direction: 100Mb/s, 1Gb/s, 10Gb/s" },
	{ "duplex", RS_OPT_ENUM, O(duplex), "full", 0, 0, 0, duplex_names,
	  "full: one channel each way; half: both directions share the medium" },
	{ "mtu", RS_OPT_SIZE, O(mtu), "1500", RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 576, 9216, NULL,
	  "largest IP packet: 1500, or 9000 for jumbo frames" },
	{ "timestamps", RS_OPT_BOOL, O(timestamps), "false", 0, 0, 0, NULL,
	  "TCP timestamp option (12 bytes in every segment)" },
	{ "header_digest", RS_OPT_BOOL, O(header_digest), "false", 0, 0, 0, NULL,
	  "iSCSI CRC32C header digest (4 bytes per PDU)" },
	{ "data_digest", RS_OPT_BOOL, O(data_digest), "false", 0, 0, 0, NULL,
	  "iSCSI CRC32C data digest (4 bytes per data-carrying PDU)" },
	{ "max_segment", RS_OPT_SIZE, O(max_segment), "64KiB", RS_OPT_HAS_MIN | RS_OPT_HAS_MAX,
	  512, 16777215, NULL, "iSCSI MaxRecvDataSegmentLength: the most data in one PDU" },
	{ "ack_every", RS_OPT_UINT, O(ack_every), "2", RS_OPT_HAS_MIN | RS_OPT_HAS_MAX, 1, 64,
	  NULL, "segments per TCP acknowledgement (delayed ACK: 2)" },
	RS_OPT_END
};
#undef O

int rs_eth_bind(const struct rs_node *section, const char *what, struct rs_eth_params *out,
		struct rs_diag *d)
{
	if (section && rs_node_expect_map(section, what, d))
		return -1;
	struct eth_opts o;
	if (rs_schema_bind(eth_opts, section, &o, section, what, NULL, d))
		return -1;
	*out = (struct rs_eth_params){
		.rate_bits_s = o.rate * 8.0,
		.full_duplex = o.duplex == 1,
		.mtu = o.mtu,
		.timestamps = o.timestamps,
		.header_digest = o.header_digest,
		.data_digest = o.data_digest,
		.max_segment = o.max_segment,
		.segments_per_ack = (uint32_t)o.ack_every,
	};
	return 0;
}
