"""Shared by the Python examples: talking to kasa the way a POS should (docs/integration.md).

Needs `requests` (pip install requests, or Debian's python3-requests).
KASA_URL (default http://127.0.0.1:13083) and KASA_TOKEN (when kasa runs with --token) configure it.
"""
import os
import socket
import sys
import time
import uuid
from urllib.parse import urlsplit

import requests

KASA_URL = os.environ.get("KASA_URL", "http://127.0.0.1:13083").rstrip("/")
HEADERS = {"Accept": "application/json"}
if os.environ.get("KASA_TOKEN"):
    HEADERS["Authorization"] = "Bearer " + os.environ["KASA_TOKEN"]


class NoAnswer(Exception):
    """No answer arrived: whether kasa did the work is unknown."""


def reachable(timeout=2.0):
    """The API text's reachability check: a TCP connection to kasa's port."""
    url = urlsplit(KASA_URL)
    try:
        with socket.create_connection((url.hostname, url.port or 80), timeout=timeout):
            return True
    except OSError:
        return False


def get(path):
    try:
        return requests.get(KASA_URL + path, headers=HEADERS, timeout=30).json()
    except requests.RequestException as e:
        raise NoAnswer(str(e)) from e


def post(path, body, idempotency_key=None):
    """POST a JSON body (kasa requires Content-Type: application/json); returns the answer."""
    headers = dict(HEADERS, **{"Content-Type": "application/json"})
    if idempotency_key:
        headers["Idempotency-Key"] = idempotency_key
    try:
        return requests.post(KASA_URL + path, json=body, headers=headers, timeout=30).json()
    except requests.RequestException as e:
        raise NoAnswer(str(e)) from e


def not_there(message):
    """Exit 2, what the examples promise when kasa is not there, not ready or stays busy."""
    print(message, file=sys.stderr)
    sys.exit(2)


def refused(answer):
    """Exit 1 with kasa's reason: it answered, and said no."""
    print(f"refused: {answer.get('resultCode')} {answer.get('error')}", file=sys.stderr)
    sys.exit(1)


# 300 BUSY: another request is issuing a document right now; it passes by itself. Wait for it up
# to about 10 s (20 x 0.5 s), then give up with exit 2.
BUSY_TRIES = 20
BUSY_PAUSE = 0.5


def require_ready():
    """Exit 2 with kasa's reason unless the register is READY for fiscal work."""
    try:
        status = get("/api/status/get")
        for _ in range(BUSY_TRIES):
            if status.get("reasonCode") != 300:
                break
            time.sleep(BUSY_PAUSE)
            status = get("/api/status/get")
    except NoAnswer as e:
        not_there(f"kasa does not answer at {KASA_URL}: {e}")
    if "state" not in status:
        refused(status)  # e.g. 401: a missing or wrong KASA_TOKEN
    if status["state"] != "READY":
        if status["reasonCode"] == 508:
            # The last document waits for its paper: the reprint example, not a wait, clears it.
            print("the last document is not printed yet: run reprint.py first", file=sys.stderr)
            sys.exit(3)
        not_there(f"kasa is not ready: {status['reasonCode']} {status['reason']}")


def post_waiting(path, body, idempotency_key=None):
    """POST, repeated while kasa answers 300 BUSY (it refused the request at once, so repeating
    does nothing twice), for up to about 10 s; then exit 2. Raises NoAnswer like post()."""
    answer = post(path, body, idempotency_key)
    for _ in range(BUSY_TRIES):
        if answer.get("resultCode") != 300:
            return answer
        time.sleep(BUSY_PAUSE)
        answer = post(path, body, idempotency_key)
    not_there(f"kasa stays busy: {answer.get('error')}; try again later")


def post_or_exit(path, body):
    """post_waiting() for a request without an Idempotency-Key: no answer is exit 2."""
    try:
        return post_waiting(path, body)
    except NoAnswer as e:
        not_there(f"kasa does not answer at {KASA_URL}: {e}")


def store_with_retries(path, body, attempts=3):
    """POST with one Idempotency-Key for the whole sale, repeated with the SAME key when no
    answer came back: kasa then answers the stored document instead of issuing a second one."""
    key = str(uuid.uuid4())  # keep it with the sale in the POS to repeat after a POS restart too
    for attempt in range(1, attempts + 1):
        try:
            return post_waiting(path, body, idempotency_key=key)
        except NoAnswer as e:
            print(f"no answer (attempt {attempt}): {e}", file=sys.stderr)
            if attempt < attempts:
                time.sleep(attempt)  # then repeat with the same key
    # Not a refusal: the sale may be stored. The same key later answers it (or stores it once).
    not_there(f"kasa never answered; repeat later with Idempotency-Key {key}")
