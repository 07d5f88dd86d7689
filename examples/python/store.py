#!/usr/bin/env python3
"""Store (register and print) a receipt: reachability, readiness, idempotent store, 507/508.

Exit: 0 printed or delivered, 3 stored but not printed (run reprint.py), 2 kasa not there, not
ready or still busy (repeat later), 1 refused.
"""
import sys
import uuid

from kasa_pos import KASA_URL, not_there, reachable, refused, require_ready, store_with_retries

if not reachable():
    not_there(f"nothing listens at {KASA_URL} (is kasa running?)")
require_ready()

sale = {
    "type": "PD",
    "amount": 5.15,
    "externalId": "example-" + uuid.uuid4().hex[:8],
    "documentEntries": [
        {"name": "Káva", "price": 2.50, "quantity": 2, "vatRate": "VAT_23", "itemType": "SALE"},
        {"name": "Rožok", "price": 0.15, "quantity": 1, "vatRate": "VAT_5", "itemType": "SALE"},
    ],
    "payments": {"Hotovosť": 5.15},
}
answer = store_with_retries("/api/document/store", sale)
code = answer["resultCode"]
if code == 0:
    d = answer["document"]
    print(f"stored {d['documentNumber']} id {d['internalDocumentId']} okp {d['okp']} "
          f"uuid {d.get('uuid') or 'offline: sent later'}")
elif code == 507:
    d = answer["document"]
    print(f"stored {d['documentNumber']} but NOT printed (printer code {answer['printResultCode']}): "
          "fix the printer, then run reprint.py")
    sys.exit(3)
elif code == 508:
    print("the last document is not printed yet: run reprint.py first", file=sys.stderr)
    sys.exit(3)
else:
    refused(answer)
