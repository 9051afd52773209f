src_librs_a_SOURCES += \
	src/disk/layout.c src/disk/layout.h \
	src/disk/layout_gen.c src/disk/layout_gen.h \
	src/disk/seek.c src/disk/seek.h \
	src/disk/spindle.c src/disk/spindle.h \
	src/disk/spindle_position.c src/disk/spindle_position.h \
	src/disk/hdd.c src/disk/hdd.h \
	src/disk/hdd_params.c src/disk/hdd_params.h \
	src/disk/hdd_mech.c src/disk/hdd_mech.h \
	src/disk/hdd_sched.c src/disk/hdd_sched.h \
	src/disk/hdd_protocol.c src/disk/hdd_protocol.h \
	src/disk/hdd_buffer.c src/disk/hdd_buffer.h \
	src/disk/hdd_firmware.c src/disk/hdd_firmware.h \
	src/disk/hdd_wcache.c src/disk/hdd_wcache.h

UNIT_TESTS += tests/unit/check_disk_geom
tests_unit_check_disk_geom_CFLAGS = $(UNIT_CFLAGS)
UNIT_TESTS += tests/unit/check_hdd
tests_unit_check_hdd_CFLAGS = $(UNIT_CFLAGS)
UNIT_TESTS += tests/unit/check_hdd_dsim_fw
tests_unit_check_hdd_dsim_fw_CFLAGS = $(UNIT_CFLAGS)
UNIT_TESTS += tests/unit/check_disksim_models
tests_unit_check_disksim_models_CFLAGS = $(UNIT_CFLAGS)
