# Checks X-SH-Signature (see docs/receiving-webhooks.md). Run against the published vectors:
#   node libs/receiver/scripts/vectors-tsv.mjs | python3 docs/examples/verify/verify.py
import base64
import sys

# snippet:start
import hashlib
import hmac
import time


def verify(secret: str, timestamp: str, signature: str, raw_body: bytes,
           now: "int | None" = None, tolerance_seconds: int = 300) -> bool:
    """True only for a genuine, fresh request. Pass the raw body bytes, before any JSON parsing."""
    if not timestamp or not timestamp.isascii() or not timestamp.isdigit():
        return False
    now = int(time.time()) if now is None else now
    if abs(now - int(timestamp)) > tolerance_seconds:
        return False
    digest = hmac.new(secret.encode("utf-8"), timestamp.encode("ascii") + b"." + raw_body, hashlib.sha256)
    # bytes, not str: compare_digest raises on a non-ASCII str, and a header can carry anything
    return hmac.compare_digest(b"sha256=" + digest.hexdigest().encode("ascii"), (signature or "").encode("utf-8", "replace"))
# snippet:end


def main() -> int:
    failed = 0
    for line in sys.stdin.read().splitlines():
        name, secret_b64, ts, body_b64, expected = line.split("\t")
        secret, body, now = base64.b64decode(secret_b64).decode("utf-8"), base64.b64decode(body_b64), int(ts)
        checks = [
            verify(secret, ts, expected, body, now),
            not verify(secret, ts, expected, body + b" ", now),
            not verify(secret, ts, expected, body, now + 301),
            not verify(secret, ts, "sha256=zz", body, now),
            not verify(secret, ts, "sha256=\u017e", body, now),
            not verify(secret, "1e9", expected, body, now),
        ]
        print(("ok " if all(checks) else "FAILED ") + name)
        failed += not all(checks)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
