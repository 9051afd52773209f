/* A host bus adapter in front of a device: device type `hba`.
 *
 * Three limits of an HBA such as the LSI SAS3008: the commands its
 * firmware starts per second (a server taking 1/iops per command, so it
 * caps IOPS), the bandwidth of its host side (one full-duplex link the
 * data of every command crosses, write data before the command goes on,
 * read data after it is back), and a latency per command that overlaps
 * between commands (its firmware and SAS protocol path).  At most
 * queue_depth commands are inside at once; more wait in front of it. */
#ifndef RS_HOST_HBA_H
#define RS_HOST_HBA_H

#include "dev/dev.h"

extern const struct rs_dev_type rs_dev_hba;

#endif
