# The helpers the validation programs include.
EXTRA_DIST += tests/validation/validation.h tests/validation/ledger.h tests/validation/points.h

# The findings ledger (scenarios/STUDY/ledger.tsv) and how findings are
# judged: across seeds, strict orderings, counts per class.  Quick: no study
# is simulated.
UNIT_TESTS += tests/validation/check_ledger
tests_validation_check_ledger_CFLAGS = $(UNIT_CFLAGS)

# The validation suite: one test per finding of the reference studies and
# per datasheet check of the disk models (tests/validation/check_validation.c).
# Each test prints "ID: reproduced|NOT reproduced: ..." and the program
# writes the same lines to tests/validation/findings.tsv in the build tree.
# All its tests are tagged "slow": CK_EXCLUDE_TAGS=slow skips them.
UNIT_TESTS += tests/validation/check_validation
tests_validation_check_validation_CFLAGS = $(UNIT_CFLAGS)
CLEANFILES += tests/validation/findings.tsv

# The Promise FastTrak TX4000 study (iXBT, 2003): findings TX4000-C1..C15
# (tests/validation/check_tx4000.c, scenarios/tx4000/), judged across seeds
# and counted by class from scenarios/tx4000/ledger.tsv (ledger.h), results
# in tests/validation/findings-tx4000.tsv and the counts in
# findings-tx4000.counts.  The other studies below work the same way.
UNIT_TESTS += tests/validation/check_tx4000
tests_validation_check_tx4000_CFLAGS = $(UNIT_CFLAGS)
CLEANFILES += tests/validation/findings-tx4000.tsv

# The Promise FastTrak TX4200 study (X-bit labs, 2005): findings
# TX4200-D4..D13 (tests/validation/check_tx4200.c, scenarios/tx4200/), same
# mechanism, results in tests/validation/findings-tx4200.tsv.  Tagged "slow".
UNIT_TESTS += tests/validation/check_tx4200
tests_validation_check_tx4200_CFLAGS = $(UNIT_CFLAGS)
CLEANFILES += tests/validation/findings-tx4200.tsv

# The iSCSI adapters study (Express-Electronika, 2004): findings
# ISCSI-N1..N6 and ISCSI-F1..F3 (tests/validation/check_iscsi.c,
# scenarios/iscsi/), same mechanism, results in
# tests/validation/findings-iscsi.tsv.  Tagged "slow".
UNIT_TESTS += tests/validation/check_iscsi
tests_validation_check_iscsi_CFLAGS = $(UNIT_CFLAGS)
CLEANFILES += tests/validation/findings-iscsi.tsv

# The Intel SSD DC S3700 100 GB model against its product specification
# and the greedy-GC predictions: checks DATASHEET-s3700-* (check_s3700_drive.c,
# scenarios/ssd/), results in tests/validation/findings-s3700_drive.tsv.  "slow".
UNIT_TESTS += tests/validation/check_s3700_drive
tests_validation_check_s3700_drive_CFLAGS = $(UNIT_CFLAGS)
CLEANFILES += tests/validation/findings-s3700_drive.tsv

# The S3700 strip-size study (2015): findings S3700-S1..S7
# (tests/validation/check_s3700.c, scenarios/s3700/), results in
# tests/validation/findings-s3700.tsv.  Tagged "slow".
UNIT_TESTS += tests/validation/check_s3700
tests_validation_check_s3700_CFLAGS = $(UNIT_CFLAGS)
CLEANFILES += tests/validation/findings-s3700.tsv

# The Quantum Atlas 10K against DiskSim's validation trace of the real drive
# (models/disks/disksim/source/atlas10k.trace): DiskSim's demerit, below
# DiskSim's own 0.268 ms (tests/validation/check_atlas10k.c).
UNIT_TESTS += tests/validation/check_atlas10k
tests_validation_check_atlas10k_CFLAGS = $(UNIT_CFLAGS)

# Cross-checks against DiskSim 4.0's own simulation of the imported Atlas
# 10K and Cheetah 9LP (tests/validation/check_disksim_xcheck.c): QD1 random
# reads, host-side FCFS / C-LOOK / SSTF and RAID0 on one shared SCSI bus
# asserted within 3 %; the figures not reproduced yet (host SPTF) are
# printed beside DiskSim's.
UNIT_TESTS += tests/validation/check_disksim_xcheck
tests_validation_check_disksim_xcheck_CFLAGS = $(UNIT_CFLAGS)

# A study's scenario changed in a copy changes its verdict (follow.sh); the
# READMEs' findings tables and counts agree with the ledgers
# (ledger-table.sh; --update rewrites them).
TESTS += tests/validation/follow.sh tests/validation/ledger-table.sh \
	tests/validation/ledger-table-test.sh
EXTRA_DIST += tests/validation/follow.sh tests/validation/ledger-table.sh \
	tests/validation/ledger-table-test.sh
CLEANFILES += tests/validation/findings-tx4000.counts tests/validation/findings-tx4200.counts \
	tests/validation/findings-iscsi.counts tests/validation/findings-s3700.counts
