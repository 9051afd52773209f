/* Ethernet, TCP/IP and iSCSI framing: how many bytes a transfer puts on
 * the wire.
 *
 * Pure arithmetic, no simulation state.  An iSCSI data transfer is cut into
 * PDUs of at most `max_segment` data bytes, each with a 48-byte Basic
 * Header Segment (plus optional header and data digests, data padded to 4
 * bytes).  The PDUs form one TCP byte stream, cut into segments of one MSS
 * (MTU less the IP and TCP headers, less 12 bytes of TCP timestamp option);
 * each segment is one Ethernet frame that costs preamble + SFD (8), MAC
 * header (14), FCS (4) and the inter-frame gap (12) on top of its IP
 * packet, and at least the 64-byte minimum frame.  The receiver
 * acknowledges every second segment with a bare ACK on the reverse
 * direction. */
#ifndef RS_NET_FRAME_H
#define RS_NET_FRAME_H

#include <stdbool.h>
#include <stdint.h>

#include "config/diag.h"
#include "config/models.h"
#include "config/node.h"

#define RS_ETH_FRAME_OVERHEAD 38u   /* preamble+SFD 8, header 14, FCS 4, gap 12 */
#define RS_ETH_MIN_FRAME 64u        /* header + payload + FCS, padded */
#define RS_IP_HEADER 20u
#define RS_TCP_HEADER 20u
#define RS_TCP_TIMESTAMPS 12u       /* the timestamp option, padded */
#define RS_ISCSI_BHS 48u
#define RS_ISCSI_DIGEST 4u

struct rs_eth_params {
	double rate_bits_s;           /* line rate of one direction: 100Mb/s, 1Gb/s, 10Gb/s */
	bool full_duplex;
	uint64_t mtu;                 /* IP packet size: 1500 or 9000 */
	bool timestamps;              /* TCP timestamp option on every segment */
	bool header_digest, data_digest;
	uint64_t max_segment;         /* iSCSI MaxRecvDataSegmentLength */
	uint32_t segments_per_ack;    /* delayed ACK: one ACK per this many segments */
};

/* TCP payload of one segment. */
uint64_t rs_eth_mss(const struct rs_eth_params *p);
/* TCP payload bytes (the iSCSI byte stream) of the PDUs that carry
 * `data` bytes; `data` 0 = one header-only PDU (a command, a status). */
uint64_t rs_iscsi_stream_bytes(const struct rs_eth_params *p, uint64_t data);
/* iSCSI PDUs needed for `data` bytes (at least one). */
uint64_t rs_iscsi_pdus(const struct rs_eth_params *p, uint64_t data);
/* Segments (frames) for a TCP stream of `stream` bytes. */
uint64_t rs_eth_segments(const struct rs_eth_params *p, uint64_t stream);
/* On-wire bytes of a TCP stream of `stream` bytes sent as full segments. */
uint64_t rs_eth_wire_bytes(const struct rs_eth_params *p, uint64_t stream);
/* On-wire bytes of the ACKs the receiver returns for `segments` segments. */
uint64_t rs_eth_ack_wire_bytes(const struct rs_eth_params *p, uint64_t segments);
/* On-wire bytes of one iSCSI message carrying `data` bytes. */
uint64_t rs_iscsi_wire_bytes(const struct rs_eth_params *p, uint64_t data);
/* Line rate in bytes per second. */
double rs_eth_bytes_s(const struct rs_eth_params *p);
/* The payload ceiling of one direction for long transfers in PDUs of
 * max_segment bytes, in bytes per second (ACKs of the reverse direction not
 * counted: they travel the other way). */
double rs_iscsi_payload_ceiling(const struct rs_eth_params *p);
/* Store-and-forward delay of one full frame at the line rate. */
int64_t rs_eth_frame_ns(const struct rs_eth_params *p);

/* Bind an Ethernet section: {rate, duplex, mtu, timestamps, header_digest,
 * data_digest, max_segment, ack_every}; NULL = all defaults (1 Gb/s, full
 * duplex, MTU 1500, no timestamps, no digests, 64 KiB, 2).  0 or -1. */
int rs_eth_bind(const struct rs_node *section, const char *what, struct rs_eth_params *out,
		struct rs_diag *d);

#endif
