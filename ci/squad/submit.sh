#!/bin/sh
# submit.sh - upload one run's SQUAD files (preflight history export --squad
# DIR: tests.json, metrics.json, metadata.json) to a SQUAD server with curl.
# The build is what the run measured (e.g. the kernel version), the
# environment the board; the run's UUID is the metadata's job_id, so a
# resubmission is recognisable.
#
# usage: SQUAD_TOKEN=... submit.sh SQUAD_URL GROUP PROJECT BUILD ENVIRONMENT DIR
#   e.g. submit.sh https://squad.example.org rt preflight 6.6.30 board-a out/squad

set -u
if [ $# -ne 6 ]; then
	echo "usage: SQUAD_TOKEN=... $0 SQUAD_URL GROUP PROJECT BUILD ENVIRONMENT DIR" >&2
	exit 2
fi
url=${1%/} group=$2 project=$3 build=$4 env=$5 dir=$6
for f in tests.json metrics.json metadata.json; do
	[ -r "$dir/$f" ] || { echo "submit: $dir/$f: missing (preflight history export --squad $dir)" >&2; exit 2; }
done
[ -n "${SQUAD_TOKEN:-}" ] || { echo "submit: SQUAD_TOKEN is not set" >&2; exit 2; }
command -v curl >/dev/null || { echo "submit: curl is not installed" >&2; exit 3; }
curl --fail --silent --show-error \
	--header "Auth-Token: $SQUAD_TOKEN" \
	--form "tests=@$dir/tests.json" \
	--form "metrics=@$dir/metrics.json" \
	--form "metadata=@$dir/metadata.json" \
	"$url/api/submit/$group/$project/$build/$env" || exit 3
echo "submit: $dir sent to $url/$group/$project/$build/$env"
