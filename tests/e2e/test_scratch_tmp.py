import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from playwright.sync_api import sync_playwright, expect
from games import services

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"]

@pytest.mark.django_db(transaction=True)
def test_scratch(live_server, monkeypatch):
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    U = get_user_model()
    a = U.objects.create_user("alda", "a@example.com", "x")
    b = U.objects.create_user("bruno", "b@example.com", "x")
    m = services.create_match(user=a, game_key="nogi", n_seats=2)
    c = Client(); c.force_login(a)
    sid = c.cookies["sessionid"].value
    with sync_playwright() as p:
        br = p.chromium.launch(executable_path="/usr/bin/chromium", headless=True, args=ARGS)
        ctx = br.new_context(device_scale_factor=3)
        ctx.add_cookies([{"name": "sessionid", "value": sid, "url": live_server.url}])
        pg = ctx.new_page()
        pg.goto(f"{live_server.url}/m/{m.pk}/")
        print(pg.locator(".status").inner_text())
        services.join_match(user=b, match=m)
        try:
            expect(pg.locator(".status")).to_contain_text("In play", timeout=16000)
            print("UPDATED by poll")
        except AssertionError as e:
            print("NOT UPDATED by poll:", pg.locator(".status").inner_text())
        pg.reload()
        print(pg.locator(".status").inner_text())
        pg.locator("g.mountain").screenshot(path="/tmp/mountain.png")
        pg.locator("g.field[data-field='17']").screenshot(path="/tmp/f17.png")
        pg.locator("g.dice").screenshot(path="/tmp/dice.png")
        br.close()
