// The replay page: the left and right arrow keys follow the Previous and Next
// links (plain links, so the page works without this script). A step button
// followed from the keyboard (Enter) has the focus again on the next page, so
// stepping on by Enter needs no Tab back from the top.
(function () {
  "use strict";
  var FOCUS = "smoki-replay-focus";
  document.addEventListener("click", function (event) {
    var link = event.target && event.target.closest && event.target.closest(".replay-nav a[id]");
    // detail 0: a click made by the keyboard, not the pointer.
    if (!link || event.detail !== 0) return;
    try { window.sessionStorage.setItem(FOCUS, link.id); } catch (e) { return; }
  });
  document.addEventListener("DOMContentLoaded", function () {
    var id = null;
    try {
      id = window.sessionStorage.getItem(FOCUS);
      window.sessionStorage.removeItem(FOCUS);
    } catch (e) { return; }
    if (!id) return;
    // At either end its button is gone: the other step button takes the focus.
    var target = document.getElementById(id) ||
      document.getElementById(id === "replay-next" ? "replay-previous" : "replay-next");
    if (target) target.focus();
  });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    var link = null;
    if (event.key === "ArrowLeft") link = document.getElementById("replay-previous");
    if (event.key === "ArrowRight") link = document.getElementById("replay-next");
    if (event.key === "Home") link = document.getElementById("replay-first");
    if (event.key === "End") link = document.getElementById("replay-last");
    if (!link) return;
    event.preventDefault();
    window.location.assign(link.href);
  });
})();
