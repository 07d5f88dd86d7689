#!/usr/bin/env bash
# After paper out (507 on store, 508 on the next sale): print the pending original with
# POST /api/document/print, or — with the argument `copy` — print a copy (KÓPIA) of the last document.
# Exit: 0 printed, 3 the printer still fails, 2 kasa not there or still busy, 1 nothing to print / refused.
set -euo pipefail
cd "$(dirname "$0")" && . ./common.sh

if [ "${1:-}" = copy ]; then
  answer=$(kasa_post_or_exit /api/document/get '{"printer": {}}')
else
  answer=$(kasa_post_or_exit /api/document/print '{}')
fi
code=$(jq -r .resultCode <<<"$answer")
case "$code" in
  0) echo "printed" ;;
  505) echo "nothing waits to be printed ($(jq -r .error <<<"$answer"))"; exit 1 ;;
  10[0-6]) echo "the printer still fails: $code $(jq -r .error <<<"$answer")" >&2; exit 3 ;;
  *) echo "refused: $code $(jq -r .error <<<"$answer")" >&2; exit 1 ;;
esac
