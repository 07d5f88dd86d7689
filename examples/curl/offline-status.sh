#!/usr/bin/env bash
# What waits to be sent to the SFS (documents issued offline) and by when: the OFFLINE_BACKLOG
# entry of GET /api/status/get. (The offline report endpoints of the API text are not in this
# version of kasa yet.)
set -euo pipefail
cd "$(dirname "$0")" && . ./common.sh

kasa_get /api/status/get | jq -r '
  .components[] | select(.component == "OFFLINE_BACKLOG") |
  "\(.state): \(.reason)",
  "unsent documents: \(.details.unsentDocuments // 0), stuck: \(.details.stuckDocuments // 0)",
  (if .details.sendBy then "send by: \(.details.sendBy)" else empty end)'
