// The replay page: the left and right arrow keys follow the Previous and Next
// links (plain links, so the page works without this script).
(function () {
  "use strict";
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
