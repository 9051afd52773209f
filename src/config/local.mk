# config module: YAML trees with positions, units, schemas, models, sweeps
src_librs_a_SOURCES += \
	src/config/diag.c src/config/diag.h \
	src/config/node.c src/config/node.h \
	src/config/yaml_load.c \
	src/config/units.c src/config/units.h \
	src/config/schema.c src/config/schema.h \
	src/config/models.c src/config/models.h \
	src/config/emit.c src/config/emit.h \
	src/config/sweep.c src/config/sweep.h \
	src/config/limits.c src/config/limits.h

UNIT_TESTS += tests/unit/check_config
tests_unit_check_config_CFLAGS = $(UNIT_CFLAGS)
