/* Smoki's service worker: it makes the site installable and keeps the
   static files (styles, scripts, icons) at hand. It caches nothing else:
   pages, moves and polls always go to the server (no offline play).
   It also shows push notifications (games/correspondence/push.py): the
   payload is the title, the sentences, the page to open and up to two
   choices, each opening its signed one-move confirmation page. */
"use strict";
var CACHE = "smoki-static-{{ version }}";

self.addEventListener("install", function (event) {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(
    caches.keys().then(function (names) {
      return Promise.all(
        names.filter(function (name) { return name.indexOf("smoki-static-") === 0 && name !== CACHE; })
          .map(function (name) { return caches.delete(name); })
      );
    }).then(function () { return self.clients.claim(); })
  );
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.indexOf("{{ static_prefix }}") !== 0) return;
  event.respondWith(
    caches.open(CACHE).then(function (cache) {
      return cache.match(request).then(function (found) {
        return found || fetch(request).then(function (response) {
          if (response.ok) cache.put(request, response.clone());
          return response;
        });
      });
    })
  );
});

self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch (error) { return; }
  var actions = (data.actions || []).map(function (choice) {
    return { action: choice.action, title: choice.title };
  });
  var urls = {};
  (data.actions || []).forEach(function (choice) { urls[choice.action] = choice.url; });
  event.waitUntil(self.registration.showNotification(data.title || "Smoki", {
    body: data.body || "",
    tag: data.tag,
    renotify: false,
    icon: "{{ icon }}",
    actions: actions,
    data: { url: data.url || "/", actions: urls }
  }));
});

self.addEventListener("notificationclick", function (event) {
  var data = event.notification.data || {};
  var url = (event.action && data.actions && data.actions[event.action]) || data.url || "/";
  event.notification.close();
  if (new URL(url, self.location.origin).origin !== self.location.origin) return;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(function (windows) {
      for (var i = 0; i < windows.length; i++) {
        if (windows[i].url === url && "focus" in windows[i]) return windows[i].focus();
      }
      return self.clients.openWindow(url);
    })
  );
});
