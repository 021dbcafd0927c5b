"""The installable web app as the server hands it out: manifest, icons, service worker."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

from fastapi.testclient import TestClient

from panal.server.http.pages import WEB_DIR
from panal.server.http.webapp import service_worker_script, static_assets, static_version


def test_manifest_and_service_worker_are_served_for_the_whole_site(client: TestClient) -> None:
    manifest = client.get("/manifest.webmanifest")
    assert manifest.status_code == 200
    assert manifest.headers["content-type"] == "application/manifest+json"
    assert manifest.json()["scope"] == "/"
    for icon in manifest.json()["icons"]:
        image = client.get(icon["src"])
        assert image.status_code == 200 and image.headers["content-type"].startswith(icon["type"])

    worker = client.get("/sw.js")
    assert worker.status_code == 200
    assert worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["service-worker-allowed"] == "/"
    assert worker.headers["cache-control"] == "no-cache"
    assert "__PANAL_" not in worker.text
    assert f'const VERSION = "{static_version(WEB_DIR)}";' in worker.text
    # Every file the worker caches is there; the API and the websockets are never cached.
    assets = static_assets(WEB_DIR)
    assert {"/", "/static/js/main.js", "/static/style.css", "/manifest.webmanifest"} <= set(assets)
    assert not [url for url in assets if url.startswith(("/api/", "/ws/")) or url.endswith("sw.js")]
    for url in assets:
        assert client.get(url).status_code == 200, url


def test_a_changed_static_file_is_a_new_worker(tmp_path: Path) -> None:
    web = tmp_path / "web"
    shutil.copytree(WEB_DIR, web, ignore=shutil.ignore_patterns("__pycache__"))
    before = service_worker_script(web)
    assert static_version(web) == static_version(WEB_DIR)
    style = web / "style.css"
    style.write_text(style.read_text() + "\n/* a new release */\n")
    after = service_worker_script(web)
    version = re.compile(r'const VERSION = "([0-9a-f]{16})";')
    old, new = version.search(before), version.search(after)
    assert old and new and old.group(1) != new.group(1)
    (web / "js" / "extra.js").write_text("export {};\n")
    assert "/static/js/extra.js" in static_assets(web)
