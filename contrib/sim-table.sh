#!/usr/bin/env bash
# sim-table.sh TOPOSIM TRACE [toposim args...] - run every policy of the
# simulator on TRACE and print their summaries side by side.
set -euo pipefail
toposim=$1
trace=$2
shift 2
policies=(fcfs easy conservative window-ff batch-njob rb-har)
keys=(jobs utilisation mean_wait mean_bounded_slowdown mean_response_ratio
      mean_wait_over_estimate makespan fill_completion_rate killed wall_seconds)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# each policy only the settings it reads (toposim warns about the others)
settings() {
	case $1 in
	window-ff) echo --window 4 ;;
	batch-njob) echo --njob 4 ;;
	esac
}
for p in "${policies[@]}"; do
	# shellcheck disable=SC2046 # the settings, split on purpose
	"$toposim" --workload "$trace" --policy "$p" $(settings "$p") --quiet \
		--jobs-csv /dev/null --summary-json "$tmp/$p.json" "$@"
done
value() { sed -n "s/^  \"$2\": \([^,]*\),*$/\1/p" "$tmp/$1.json"; }
printf '%-26s' "metric \\ policy"
for p in "${policies[@]}"; do printf '%14s' "$p"; done
echo
for k in "${keys[@]}"; do
	printf '%-26s' "$k"
	for p in "${policies[@]}"; do printf '%14s' "$(value "$p" "$k")"; done
	echo
done
echo "(window-ff with W=4, batch-njob with Njob=4; definitions in toposim(1))"
