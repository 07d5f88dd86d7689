#!/usr/bin/env python3
"""After paper out: print the pending original (POST /api/document/print), or with the argument
`copy` a copy (KÓPIA) of the last document. Exit: 0 printed, 3 the printer still fails, 2 kasa not
there or still busy, 1 nothing to print or refused."""
import sys

from kasa_pos import post_or_exit, refused

if sys.argv[1:] == ["copy"]:
    answer = post_or_exit("/api/document/get", {"printer": {}})
else:
    answer = post_or_exit("/api/document/print", {})
code = answer["resultCode"]
if code == 0:
    print("printed")
elif code == 505:
    print(f"nothing waits to be printed ({answer['error']})")
    sys.exit(1)
elif 100 <= code <= 106:
    print(f"the printer still fails: {code} {answer['error']}", file=sys.stderr)
    sys.exit(3)
else:
    refused(answer)
