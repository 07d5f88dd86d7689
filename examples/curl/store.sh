#!/usr/bin/env bash
# Store (register and print) a receipt, the way a POS should (docs/integration.md):
# reachability → readiness → POST /api/document/store with an Idempotency-Key, repeated with the
# SAME key when no answer came back, so the sale is never issued twice.
# Exit: 0 printed/delivered, 3 stored but not printed (run reprint.sh), 2 kasa not there, not ready
# or still busy (repeat later with the same key), 1 refused.
set -euo pipefail
cd "$(dirname "$0")" && . ./common.sh

reachable || { echo "nothing listens at $KASA_URL (is kasa running?)" >&2; exit 2; }
require_ready

key=$(cat /proc/sys/kernel/random/uuid)   # one key per sale; keep it with the sale in the POS
sale='{
  "type": "PD",
  "amount": 5.15,
  "externalId": "example-'"${key:0:8}"'",
  "documentEntries": [
    { "name": "Káva", "price": 2.50, "quantity": 2, "vatRate": "VAT_23", "itemType": "SALE" },
    { "name": "Rožok", "price": 0.15, "quantity": 1, "vatRate": "VAT_5", "itemType": "SALE" }
  ],
  "payments": { "Hotovosť": 5.15 }
}'
answer=""
for attempt in 1 2 3; do
  if answer=$(kasa_post_waiting /api/document/store "$sale" "$key"); then break; fi
  answer=""
  echo "no answer (attempt $attempt)" >&2
  if [ "$attempt" -lt 3 ]; then sleep "$attempt"; fi   # then repeat with the same Idempotency-Key
done
# Not a refusal: the sale may be stored. The same key later answers it (or stores it once).
[ -n "$answer" ] || { echo "kasa never answered; repeat later with key $key" >&2; exit 2; }

code=$(jq -r .resultCode <<<"$answer")
case "$code" in
  0)
    jq -r '"stored \(.document.documentNumber) id \(.document.internalDocumentId) okp \(.document.okp) uuid \(.document.uuid // "offline: sent later")"' <<<"$answer"
    ;;
  507)
    jq -r '"stored \(.document.documentNumber) but NOT printed (printer code \(.printResultCode)): fix the printer, then run reprint.sh"' <<<"$answer"
    exit 3
    ;;
  508)
    echo "the last document is not printed yet: run reprint.sh first" >&2
    exit 3
    ;;
  300)
    echo "kasa stays busy: $(jq -r .error <<<"$answer"); repeat later with key $key" >&2
    exit 2
    ;;
  *)
    echo "refused: $code $(jq -r .error <<<"$answer")" >&2
    exit 1
    ;;
esac
