#!/usr/bin/env python3
"""What was issued offline and is not registered yet (POST /api/report/offline), and with the
argument `send` one batch sent now (POST /api/document/send/offline) instead of waiting for kasa's
background sender. Exit: 0, 2 kasa not there or still busy, 1 refused."""
import sys

from kasa_pos import post_or_exit, refused


def checked(answer):
    if answer["resultCode"] != 0:
        refused(answer)
    return answer


if sys.argv[1:] == ["send"]:
    sent = checked(post_or_exit("/api/document/send/offline", {}))
    print(f"sent now: {len(sent['documents'])} document(s), {len(sent['locations'])} location(s)")
report = checked(post_or_exit("/api/report/offline", {}))
print(f"waiting: {len(report['documents'])} document(s), {len(report['locations'])} location(s)")
for d in report["documents"]:
    error = d.get("status", {}).get("error")
    state = f"STUCK {error['errorCode']} {error['message']}" if error else "offline"
    print(f"  {d['documentNumber']} {d['amount']} created {d['createDate']} {state}")
