"""Smoki on a phone's home screen: the manifest and the service worker."""

import json

import pytest
from django.test import Client, override_settings

pytestmark = pytest.mark.django_db


def test_the_manifest_is_valid_and_served_with_its_type():
    response = Client().get("/manifest.webmanifest")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/manifest+json"
    data = json.loads(response.content)
    assert data["name"] == "Smoki" and data["display"] == "standalone"
    assert data["start_url"] == "/" and data["theme_color"].startswith("#")
    sizes = {icon["sizes"] for icon in data["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in data["icons"]:
        if icon["type"] == "image/png":
            assert icon["src"].endswith(f"icon-{icon['sizes'].split('x')[0]}.png")
    page = Client().get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in page


def test_the_service_worker_caches_static_files_only():
    response = Client().get("/sw.js")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    body = response.content.decode()
    assert 'url.pathname.indexOf("/static/") !== 0' in body
    assert 'request.method !== "GET"' in body


@override_settings(DEBUG=False)
def test_pages_register_it_in_production_only():
    assert 'data-service-worker="/sw.js"' in Client().get("/about/").content.decode()


@override_settings(DEBUG=True)
def test_pages_do_not_register_it_in_development():
    assert "data-service-worker" not in Client().get("/about/").content.decode()
