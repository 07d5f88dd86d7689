#!/usr/bin/env python3
"""What waits to be sent to the SFS and by when (OFFLINE_BACKLOG of GET /api/status/get).
(The offline report endpoints of the API text are not in this version of kasa yet.)"""
from kasa_pos import get

status = get("/api/status/get")
backlog = next(c for c in status["components"] if c["component"] == "OFFLINE_BACKLOG")
details = backlog.get("details", {})
print(f"{backlog['state']}: {backlog['reason']}")
print(f"unsent documents: {details.get('unsentDocuments', 0)}, stuck: {details.get('stuckDocuments', 0)}")
if details.get("sendBy"):
    print(f"send by: {details['sendBy']}")
