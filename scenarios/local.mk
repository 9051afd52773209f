EXTRA_DIST += \
	scenarios/examples/queueing.yaml
