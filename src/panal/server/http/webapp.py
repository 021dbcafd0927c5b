"""The installable web app: its manifest and its service worker, as the server hands them out.

The service worker (``web/sw.js``) caches the static files; it is served from ``/sw.js`` so that
its scope is the whole site, with the version of the static files (a hash of their names and
contents) and their list filled in, so that every change to the files is a new worker that the
browser installs, replacing the old cache.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

__all__ = ["MANIFEST_MEDIA_TYPE", "service_worker_script", "static_assets", "static_version"]

MANIFEST_MEDIA_TYPE = "application/manifest+json"
# Files under web/ that are not fetched from /static/: the page shell is served at "/", the
# manifest at /manifest.webmanifest, the worker itself at /sw.js.
_SERVED_ELSEWHERE = {"index.html": "/", "manifest.webmanifest": "/manifest.webmanifest"}
_NOT_CACHED = {"sw.js"}


def _files(web_dir: Path) -> list[Path]:
    return sorted(
        path
        for path in web_dir.rglob("*")
        if path.is_file() and not path.name.startswith(".") and "__pycache__" not in path.parts
    )


def static_version(web_dir: Path) -> str:
    """A short hash of every static file's path and content: it changes with any file."""
    digest = hashlib.sha256()
    for path in _files(web_dir):
        digest.update(path.relative_to(web_dir).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:16]


def static_assets(web_dir: Path) -> list[str]:
    """The URLs the service worker caches: the page shell, the manifest, every static file."""
    urls = []
    for path in _files(web_dir):
        relative = path.relative_to(web_dir).as_posix()
        if relative in _NOT_CACHED:
            continue
        urls.append(_SERVED_ELSEWHERE.get(relative, f"/static/{relative}"))
    return urls


def service_worker_script(web_dir: Path) -> str:
    """``web/sw.js`` with this release's version and file list filled in."""
    template = (web_dir / "sw.js").read_text(encoding="utf-8")
    return template.replace("__PANAL_VERSION__", static_version(web_dir)).replace(
        "__PANAL_ASSETS__", json.dumps(static_assets(web_dir))
    )
