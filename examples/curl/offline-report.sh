#!/usr/bin/env bash
# What was issued offline and is not registered yet (POST /api/report/offline), and — with the
# argument `send` — send one batch now (POST /api/document/send/offline) instead of waiting for
# kasa's background sender. Exit: 0, 2 kasa not there or still busy, 1 refused.
set -euo pipefail
cd "$(dirname "$0")" && . ./common.sh

if [ "${1:-}" = send ]; then
  sent=$(kasa_post_or_exit /api/document/send/offline '{}')
  [ "$(jq -r .resultCode <<<"$sent")" = 0 ] || { echo "refused: $(jq -r '"\(.resultCode) \(.error)"' <<<"$sent")" >&2; exit 1; }
  jq -r '"sent now: \(.documents | length) document(s), \(.locations | length) location(s)"' <<<"$sent"
fi
report=$(kasa_post_or_exit /api/report/offline '{}')
[ "$(jq -r .resultCode <<<"$report")" = 0 ] || { echo "refused: $(jq -r '"\(.resultCode) \(.error)"' <<<"$report")" >&2; exit 1; }
jq -r '"waiting: \(.documents | length) document(s), \(.locations | length) location(s)"' <<<"$report"
jq -r '.documents[] | "  \(.documentNumber) \(.amount) created \(.createDate) \(if .status.error then "STUCK \(.status.error.errorCode) \(.status.error.message)" else "offline" end)"' <<<"$report"
