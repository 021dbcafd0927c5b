"""A Web Push service on loopback for tests, and a browser's push subscription keys: what the
server sends is kept, and decrypted here as a browser would (RFC 8291, ``aes128gcm``)."""

from __future__ import annotations

import base64
import contextlib
import json
import secrets
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class PushService:
    """Answers 201 at /ok/…, 410 at /gone/…; keeps what it was sent."""

    url: str
    received: list[Received] = field(default_factory=list)

    def wait(self, count: int, seconds: float = 10.0) -> list[Received]:
        deadline = time.monotonic() + seconds
        while len(self.received) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        assert len(self.received) >= count, f"{len(self.received)} pushes, expected {count}"
        return self.received


@contextlib.contextmanager
def running_push_service() -> Iterator[PushService]:
    """A push service on loopback while the block runs."""
    service = PushService("")

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            service.received.append(
                Received(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
            )
            self.send_response(410 if self.path.startswith("/gone/") else 201)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    service.url = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield service
    finally:
        server.shutdown()
        server.server_close()


@dataclass
class BrowserKeys:
    """A browser's push subscription keys: its P-256 key pair and auth secret."""

    private: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: secrets.token_bytes(16))

    def subscription(self, endpoint: str) -> dict[str, Any]:
        point = self.private.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        keys = {"p256dh": b64(point), "auth": b64(self.auth)}
        return {"endpoint": endpoint, "keys": keys, "expirationTime": None}

    def plaintext(self, body: bytes) -> str:
        """A push message's body decrypted as the browser would (RFC 8291, ``aes128gcm``)."""
        plain = http_ece.decrypt(
            body, private_key=self.private, auth_secret=self.auth, version="aes128gcm"
        )
        return str(plain.decode("utf-8"))

    def decrypt(self, body: bytes) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.plaintext(body))
        return message


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def check_vapid(headers: dict[str, str], server_key: str, audience: str) -> None:
    """The push's ``Authorization: vapid t=<JWT>, k=<key>`` (RFC 8292): the server's key, and a
    JWT for this push service signed by it (ES256)."""
    scheme, _, fields = headers["authorization"].partition(" ")
    assert scheme == "vapid"
    parts = dict(part.strip().split("=", 1) for part in fields.split(","))
    assert parts["k"] == server_key
    header, claims, signature = parts["t"].split(".")
    assert json.loads(unb64(claims))["aud"] == audience
    raw = unb64(signature)
    der = encode_dss_signature(int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big"))
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64(server_key))
    public.verify(der, f"{header}.{claims}".encode(), ec.ECDSA(hashes.SHA256()))  # raises
