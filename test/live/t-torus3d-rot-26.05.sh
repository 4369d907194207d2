#!/bin/bash
# Live test: on Slurm 26.05.3's own topology/torus3d with placement list
# (c) - every distinct rotation of each placement of a chain with sides of
# 3 and 4 on rings of 4, as the head-to-head's torus3d - every NodeList of
# a 30-job stream equals the core's torus-anchor's; sizes no placement has
# are refused by both (test/live/torus3d.sh).
LIVE_SRCDIR=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=test/live/torus3d.sh
. "$LIVE_SRCDIR/torus3d.sh"
torus3d_test rot
