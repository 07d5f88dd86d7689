# Shared by the curl examples: where kasa is, its token, and small helpers (needs curl and jq).
KASA_URL=${KASA_URL:-http://127.0.0.1:13083}
auth=()
if [ -n "${KASA_TOKEN:-}" ]; then auth=(-H "Authorization: Bearer $KASA_TOKEN"); fi

# The API text's reachability check: can a TCP connection to kasa's port be opened?
reachable() {
  local hostport=${KASA_URL#*://}
  hostport=${hostport%%/*}
  timeout 2 bash -c "exec 3<>/dev/tcp/${hostport%:*}/${hostport##*:}" 2>/dev/null
}

# GET PATH → the JSON answer on stdout (curl exits non-zero only when no answer arrived).
kasa_get() {
  curl -sS --max-time 30 "${auth[@]}" "$KASA_URL$1"
}

# POST PATH BODY [IDEMPOTENCY-KEY] → the JSON answer. A body needs Content-Type: application/json.
kasa_post() {
  local key=()
  if [ -n "${3:-}" ]; then key=(-H "Idempotency-Key: $3"); fi
  curl -sS --max-time 30 "${auth[@]}" "${key[@]}" -H 'Content-Type: application/json' -d "$2" "$KASA_URL$1"
}

# 300 BUSY: another request is issuing a document right now; it passes by itself. The examples
# wait for it up to about 10 s (20 x 0.5 s), then give up with exit 2.
BUSY_TRIES=20

# POST PATH BODY [IDEMPOTENCY-KEY], repeated while kasa answers 300 BUSY (it refused the request at
# once, so repeating does nothing twice). Fails when no answer arrived; answers the last 300 when
# kasa stayed busy, for the caller to exit 2 on.
kasa_post_waiting() {
  local answer tries=0
  answer=$(kasa_post "$@") || return
  while [ "$(jq -r .resultCode <<<"$answer")" = 300 ] && [ $tries -lt $BUSY_TRIES ]; do
    sleep 0.5
    tries=$((tries + 1))
    answer=$(kasa_post "$@") || return
  done
  printf '%s\n' "$answer"
}

# kasa_post_waiting for a request without an Idempotency-Key: no answer, or still busy, is exit 2.
kasa_post_or_exit() {
  local answer
  answer=$(kasa_post_waiting "$@") || { echo "kasa does not answer at $KASA_URL" >&2; exit 2; }
  if [ "$(jq -r .resultCode <<<"$answer")" = 300 ]; then
    echo "kasa stays busy: $(jq -r .error <<<"$answer"); try again later" >&2
    exit 2
  fi
  printf '%s\n' "$answer"
}

# Is the register ready for fiscal work? Prints why not and exits: 2 not ready (or not there),
# 3 the last document waits for its paper, 1 refused (e.g. a missing or wrong KASA_TOKEN).
require_ready() {
  local status
  status=$(kasa_get /api/status/get) || { echo "kasa does not answer at $KASA_URL" >&2; exit 2; }
  local tries=0
  while [ "$(jq -r .reasonCode <<<"$status")" = 300 ] && [ $tries -lt $BUSY_TRIES ]; do
    sleep 0.5
    tries=$((tries + 1))
    status=$(kasa_get /api/status/get) || { echo "kasa does not answer at $KASA_URL" >&2; exit 2; }
  done
  if [ "$(jq -r '.state // empty' <<<"$status")" = "" ]; then
    echo "refused: $(jq -r '"\(.resultCode) \(.error)"' <<<"$status")" >&2
    exit 1
  fi
  if [ "$(jq -r .state <<<"$status")" != READY ]; then
    # 508: the last document waits for its paper — the reprint example, not a wait, clears it.
    if [ "$(jq -r .reasonCode <<<"$status")" = 508 ]; then
      echo "the last document is not printed yet: run reprint.sh first" >&2
      exit 3
    fi
    echo "kasa is not ready: $(jq -r '.reasonCode|tostring' <<<"$status") $(jq -r .reason <<<"$status")" >&2
    exit 2
  fi
}
