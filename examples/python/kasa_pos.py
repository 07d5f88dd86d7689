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


def require_ready():
    """Exit 2 with kasa's reason unless the register is READY for fiscal work."""
    try:
        status = get("/api/status/get")
    except NoAnswer as e:
        sys.exit(f"kasa does not answer at {KASA_URL}: {e}")
    # 300 BUSY: another request is issuing a document right now; it passes by itself (up to ~10 s).
    for _ in range(20):
        if status["reasonCode"] != 300:
            break
        time.sleep(0.5)
        status = get("/api/status/get")
    if status["state"] != "READY":
        if status["reasonCode"] == 508:
            # The last document waits for its paper: the reprint example, not a wait, clears it.
            print("the last document is not printed yet: run reprint.py first", file=sys.stderr)
            sys.exit(3)
        print(f"kasa is not ready: {status['reasonCode']} {status['reason']}", file=sys.stderr)
        sys.exit(2)


def store_with_retries(path, body, attempts=3):
    """POST with one Idempotency-Key for the whole sale, repeated with the SAME key when no
    answer came back: kasa then answers the stored document instead of issuing a second one."""
    key = str(uuid.uuid4())  # keep it with the sale in the POS to repeat after a POS restart too
    for attempt in range(1, attempts + 1):
        try:
            return post(path, body, idempotency_key=key)
        except NoAnswer as e:
            print(f"no answer (attempt {attempt}): {e}; repeating with the same key", file=sys.stderr)
            time.sleep(attempt)
    sys.exit(f"kasa never answered; repeat later with Idempotency-Key {key}")
