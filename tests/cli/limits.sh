#!/bin/sh
# Valid-looking input that would hang, exhaust memory or abort: each run
# must end within seconds, inside 1 GiB of address space, with status 2 (a
# file:line:column error) or 1 (a runtime error) and its message, never a
# crash (134, 139) or a time-out (124).
set -u
here=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$here/lib.sh"
command -v timeout >/dev/null 2>&1 || { echo "limits: no timeout(1), skipped"; exit 77; }

# run NAME STATUS PATTERN [raidsim run arguments...] < scenario text
# STATUS is the exit status wanted; PATTERN (unless empty) must appear on
# stderr.
run() {
	name=$1 want=$2 pattern=$3
	shift 3
	cat >"$tmp/$name.yaml"
	(
		ulimit -v 1048576
		exec timeout 20 "$raidsim" run -q -j 1 -o "$tmp/out-$name" "$@" "$tmp/$name.yaml"
	) </dev/null >/dev/null 2>"$tmp/$name.err"
	got=$?
	if [ "$got" -ne "$want" ] ||
		{ [ -n "$pattern" ] && ! grep -q -- "$pattern" "$tmp/$name.err"; }; then
		echo "  $name: status $got (want $want), stderr:"
		sed 's/^/    /' "$tmp/$name.err" | head -n 3
		return 1
	fi
}

check "zero service time refused" run zero 2 "simulated time would never advance" <<'Y'
device: {model: ideal-1ms, mean: 0s}
workload: {iometer: {spec: database, run: 1s}}
Y

check "open loop beyond the device: overloaded" run rate-huge 1 "overloaded: 500001 requests queued" <<'Y'
device: {model: ideal-1ms}
workload: {iometer: {spec: database, rate: 1000000000000, run: 1s}}
Y

check "overloaded through a controller and an array" run rate-huge-raid 1 "overloaded" <<'Y'
device:
  model: generic-hw-raid
  array: {type: array, level: raid5, disks: {model: maxtor-6l020l0, count: 4}}
workload: {iometer: {spec: database, rate: 1000000000, run: 1s}}
Y

check "a lower cap stops sooner" run rate-cap 1 "cap queued_requests=1000;" --limit queued_requests=1000 <<'Y'
device: {model: ideal-1ms}
workload: {iometer: {spec: database, rate: 2000, run: 10s}}
Y

check "tiny rate: valid, no overflow" run rate-tiny 0 "" <<'Y'
device: {model: ideal-1ms}
workload: {iometer: {spec: database, rate: 0.00000000001, run: 1s}}
Y

check "time series of 10^12 intervals refused" run series 2 "cap series_intervals=1000000" <<'Y'
device: {model: ideal-1ms}
workload: {iometer: {spec: database, run: 1000s}}
output: {timeseries: 1ns}
Y

check "read-ahead larger than the cache refused" run read-ahead 2 "larger than the cache" <<'Y'
device:
  model: generic-hw-raid
  array: {type: array, level: raid0, disks: {model: maxtor-6l020l0, count: 2}}
  cache: {read_ahead: 128GiB}
workload: {iometer: {spec: seqread, run: 1s}}
Y

# The seek fit alone used to take over 5 minutes here; the whole run now
# takes a fraction of a second, far inside the time-out.
check "1 PB drive set up at once" run petabyte 0 "" <<'Y'
device: {model: maxtor-6l020l0, capacity: 1PB}
workload: {iometer: {spec: database, run: 0.1s}}
Y

check "trace /dev/zero refused at its first line" run trace-zero 2 "/dev/zero:1:4097: error: line longer" <<'Y'
device: {model: ideal-1ms}
workload: {trace: {file: /dev/zero}}
Y

# An endless stream of valid lines on a pipe: counted while read.
yes '0 0 0 8 1' 2>/dev/null | {
	cat >"$tmp/pipe.yaml" <<'Y'
device: {model: ideal-1ms}
workload: {trace: {file: /dev/stdin}}
Y
	(ulimit -v 1048576; exec timeout 20 "$raidsim" run -q -j 1 -o "$tmp/out-pipe" \
		--limit trace_bytes=4MiB "$tmp/pipe.yaml") >/dev/null 2>"$tmp/pipe.err"
	echo $? >"$tmp/pipe.status"
}
check "endless trace on a pipe stops at the cap" \
	grep -q "holds more than the cap trace_bytes=4MiB" "$tmp/pipe.err"
check "endless trace on a pipe: status 2" test "$(cat "$tmp/pipe.status")" -eq 2

# A cache hit that costs nothing, on a closed loop over one line: the
# kernel's backstop ends it.
check "zero-time loop stopped by the kernel" run hit-loop 1 "simulated time does not advance" <<'Y'
device:
  model: generic-hw-raid
  cpu: host
  command_cost: 0s
  array: {type: array, level: raid0, disks: {model: maxtor-6l020l0, count: 2}}
  cache: {location: driver, cost_hit: 0s, cost_miss: 0s}
workload: {iometer: {spec: seqread, size: 64KiB, range: 64KiB, run: 1s}}
Y

check "service time beyond the clock" run clock 1 "simulated time overflows" <<'Y'
device: {model: ideal-1ms, bandwidth: 0.000000001B/s}
workload: {iometer: {spec: database, outstanding: 4, run: 1s}}
Y

summary limits
