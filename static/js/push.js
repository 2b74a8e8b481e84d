/* The push page: asks the browser for a push subscription with the site's
   VAPID key and hands it to the page's form, which the server checks
   (games/correspondence/push.py). Without the Push API, or without the
   script, the button stays hidden. */
"use strict";
(function () {
  var form = document.getElementById("push-subscribe");
  if (!form) return;
  var status = form.querySelector("[role=status]");
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    form.hidden = false;
    form.querySelector("button").disabled = true;
    status.textContent = form.dataset.unsupported;
    return;
  }
  form.hidden = false;
  function bytes(base64url) {
    var text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/") + "===".slice((base64url.length + 3) % 4));
    var out = new Uint8Array(text.length);
    for (var i = 0; i < text.length; i++) out[i] = text.charCodeAt(i);
    return out;
  }
  function text(buffer) {
    return btoa(String.fromCharCode.apply(null, new Uint8Array(buffer)))
      .replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  form.addEventListener("submit", function (event) {
    if (form.elements.endpoint.value) return;
    event.preventDefault();
    Notification.requestPermission().then(function (answer) {
      if (answer !== "granted") throw new Error(form.dataset.denied);
      return navigator.serviceWorker.register(document.body.dataset.serviceWorker || "/sw.js", { scope: "/" }).then(function () {
        return navigator.serviceWorker.ready;
      });
    }).then(function (registration) {
      return registration.pushManager.subscribe({
        userVisibleOnly: true,
        applicationServerKey: bytes(form.dataset.key)
      });
    }).then(function (subscription) {
      form.elements.endpoint.value = subscription.endpoint;
      form.elements.p256dh.value = text(subscription.getKey("p256dh"));
      form.elements.auth.value = text(subscription.getKey("auth"));
      form.submit();
    }).catch(function (error) {
      status.textContent = error.message || form.dataset.unsupported;
    });
  });
})();
