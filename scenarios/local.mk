EXTRA_DIST += \
	scenarios/examples/queueing.yaml \
	scenarios/examples/array-study.yaml \
	scenarios/examples/sync-writes.yaml \
	scenarios/disks/README.md \
	scenarios/disks/access-time.yaml \
	scenarios/disks/database-mix.yaml \
	scenarios/disks/pattern-database.yaml \
	scenarios/disks/pattern-fileserver.yaml \
	scenarios/disks/pattern-webserver.yaml \
	scenarios/disks/pattern-workstation.yaml \
	scenarios/disks/sequential-position-maxtor.yaml \
	scenarios/disks/sequential-position.yaml \
	scenarios/tx4000/README.md \
	scenarios/tx4000/run.sh \
	scenarios/tx4000/figures.tsv \
	scenarios/tx4000/ledger.tsv \
	scenarios/tx4000/measured.tsv \
	scenarios/tx4000/database.yaml \
	scenarios/tx4000/sequential.yaml \
	scenarios/tx4000/workstation.yaml \
	scenarios/tx4000/fileserver.yaml \
	scenarios/tx4000/webserver.yaml \
	scenarios/tx4200/README.md \
	scenarios/tx4200/run.sh \
	scenarios/tx4200/figures.tsv \
	scenarios/tx4200/ledger.tsv \
	scenarios/tx4200/measured.tsv \
	scenarios/tx4200/database.yaml \
	scenarios/tx4200/sequential.yaml \
	scenarios/tx4200/workstation.yaml \
	scenarios/tx4200/workstation32.yaml \
	scenarios/tx4200/fileserver.yaml \
	scenarios/tx4200/webserver.yaml \
	scenarios/tx4200/filecopy.yaml \
	scenarios/tx4200/pcix.yaml \
	scenarios/iscsi/README.md \
	scenarios/iscsi/run.sh \
	scenarios/iscsi/figures.tsv \
	scenarios/iscsi/ledger.tsv \
	scenarios/iscsi/measured.tsv \
	scenarios/iscsi/duplex.yaml \
	scenarios/iscsi/read.yaml \
	scenarios/iscsi/write.yaml \
	scenarios/iscsi/overlap.yaml \
	scenarios/iscsi/intel-write-cost.yaml \
	scenarios/iscsi/failover-alacritech.yaml \
	scenarios/iscsi/failover-adaptec.yaml \
	scenarios/iscsi/failover-intel.yaml \
	scenarios/find-raidsim.sh \
	scenarios/study.sh \
	scenarios/studies.list

EXTRA_DIST += \
	scenarios/rebuild/README.md \
	scenarios/rebuild/run.sh \
	scenarios/rebuild/figures.tsv \
	scenarios/rebuild/levels.yaml \
	scenarios/rebuild/raptor8.yaml \
	scenarios/rebuild/lse.yaml

EXTRA_DIST += \
	scenarios/benchmarks/README.md \
	scenarios/benchmarks/cdm.yaml \
	scenarios/benchmarks/atto.yaml

EXTRA_DIST += \
	scenarios/ssd/README.md \
	scenarios/ssd/random-read.yaml \
	scenarios/ssd/random-write.yaml \
	scenarios/ssd/sequential.yaml \
	scenarios/ssd/latency.yaml \
	scenarios/ssd/gc-onset.yaml \
	scenarios/ssd/raid0-c226.yaml \
	scenarios/ssd/nvme-p3700.yaml \
	scenarios/ssd/worn-reads.yaml

EXTRA_DIST += \
	scenarios/s3700/README.md \
	scenarios/s3700/run.sh \
	scenarios/s3700/cdm.yaml \
	scenarios/s3700/atto.yaml \
	scenarios/s3700/figures.tsv \
	scenarios/s3700/ledger.tsv \
	scenarios/s3700/measured.tsv
