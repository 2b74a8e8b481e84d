/* Smoki's service worker: it makes the site installable and keeps the
   static files (styles, scripts, icons) at hand. It caches nothing else:
   pages, moves and polls always go to the server (no offline play). */
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
