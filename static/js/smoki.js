/* Smoki's small script: everything works without it; it only helps.
 * - tells the site whether this is a touch screen (moves then ask to confirm, by default);
 * - keeps the keyboard focus where the play is: after each step of a move on the next
 *   choice (on the board when the click was on the board, with the board's choices
 *   brought into view together), after a move on the board;
 *   when the poll brings the turn back, on the first choice, unless the player is typing
 *   (chat, notes, any field); an answer to a step or a move that comes in while the
 *   player types elsewhere leaves the focus there too;
 * - shows "your turn" in the tab title and the icon, and says it in a live region;
 * - guesses the browser's time zone on the profile form when it is still UTC;
 * - on a phone, folds the sticky "Your move" box to its one-line summary while the board
 *   offers every choice, so the whole board can be seen; the player's own choice lasts
 *   for the tab (sessionStorage);
 * - a board's choices are links (Enter follows them): Space follows them too, as on a button;
 * - "The board in words" stays open or folded as the player last left it (localStorage);
 * - a late answer for a replaced match panel goes into the one on the page (below).
 */

// A late answer for a replaced match panel. Two answers on their way at once
// (the panel's poll and a move, a step or a chat line) each target the panel
// that was on the page when they left; the first one swapped replaces it, and
// htmx would swap the second into the replaced panel, off the page, carrying
// with it the chat form it keeps across swaps (hx-preserve). The panel names
// this extension (hx-ext), so htmx asks it even about the replaced panel: a
// late answer of the poll is dropped (the next poll brings anything newer), and
// so is a late answer bringing a change the page already shows (a move the
// poll drew first: swapped, it would draw the match as it was before what
// came since, and the move's log lines twice); any other answer (a refusal,
// a chat line) goes into the panel on the page.
document.addEventListener("DOMContentLoaded", function () {
  "use strict";
  if (!window.htmx) { return; }
  function answerVersion(html) {
    var found = /id="match-panel"[^>]*data-version="(\d+)"/.exec(html || "");
    return found ? Number(found[1]) : null;
  }
  function alreadyShown(detail, sent, current) {
    var answer = answerVersion(detail.serverResponse);
    var refused = !!(detail.xhr && detail.xhr.status >= 400);
    return !refused && answer !== null && answer > Number(sent.dataset.version) &&
      answer <= Number(current.dataset.version);
  }
  window.htmx.defineExtension("smoki-panel", {
    onEvent: function (name, event) {
      if (name !== "htmx:beforeSwap") { return true; }
      var detail = event.detail || {};
      var target = detail.target;
      if (!target || !target.id || document.body.contains(target)) { return true; }
      var current = document.getElementById(target.id);
      var elt = detail.requestConfig && detail.requestConfig.elt;
      var fromPoll = !!(elt && elt.classList && elt.classList.contains("poller"));
      if (current && !fromPoll && !alreadyShown(detail, target, current)) {
        detail.target = current;
      } else {
        detail.shouldSwap = false;
      }
      return true;
    }
  });
});

(function () {
  "use strict";
  var touch = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  document.cookie = "smoki_touch=" + (touch ? "1" : "0") + "; path=/; SameSite=Lax";

  var baseTitle = document.title.replace(/^● /, "");
  var plainIcon = null;
  function dot(colour) {
    return "data:image/svg+xml," + encodeURIComponent(
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><circle cx="8" cy="8" r="7" fill="' + colour + '"/></svg>');
  }
  function showTurn(announce) {
    var panel = document.getElementById("match-panel");
    var icon = document.querySelector("link[rel=icon]");
    if (plainIcon === null && icon) { plainIcon = icon.getAttribute("href"); }
    var mine = !!(panel && panel.dataset.myTurn === "1");
    document.title = (mine ? "● " : "") + baseTitle;
    if (icon) { icon.setAttribute("href", mine ? dot("#2f7d32") : plainIcon); }
    var live = document.getElementById("live-region");
    if (live && announce && mine && live.dataset.said !== panel.dataset.version) {
      live.textContent = live.dataset.yourTurn || "";
      live.dataset.said = panel.dataset.version;
    }
  }

  // The "Your move" box is a <details>, drawn open. On a phone it folds to its one-line
  // summary while every choice in it is also on the board (and no move waits to be
  // confirmed), so the board stays in view; a tap on the summary opens it, and what the
  // player last chose on a phone lasts for the tab (sessionStorage), across swaps and reloads.
  var FOLDED = "smoki-choices-folded";
  var phone = window.matchMedia ? window.matchMedia("(max-width: 600px)") : { matches: false };
  function remembered() {
    try { return window.sessionStorage.getItem(FOLDED); } catch (e) { return null; }
  }
  function allOnBoard(box) {
    var panel = document.getElementById("match-panel");
    return Array.prototype.every.call(box.querySelectorAll(".choice[data-path]"), function (choice) {
      var path = choice.getAttribute("data-path");
      return Array.prototype.some.call(panel.querySelectorAll(".board-choice[data-path]"), function (target) {
        return target.getAttribute("data-path") === path && !box.contains(target);
      });
    });
  }
  function showChoices() {
    var box = document.getElementById("choices");
    if (!box || box.tagName !== "DETAILS") { return; }
    var said = remembered();
    var fold = phone.matches && !box.dataset.confirm && (said === "1" || (said === null && allOnBoard(box)));
    box.open = !fold;
  }
  document.addEventListener("click", function (event) {
    var summary = event.target.closest && event.target.closest("#choices > summary");
    if (!summary || !phone.matches) { return; }
    // The click opens or folds the box after this handler: remember the new state.
    try { window.sessionStorage.setItem(FOLDED, summary.parentNode.open ? "1" : "0"); } catch (e) { return; }
  });
  if (phone.addEventListener) { phone.addEventListener("change", showChoices); }

  document.addEventListener("keydown", function (event) {
    if (event.key !== " " || event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) { return; }
    var link = event.target;
    if (!link.matches || !link.matches("a.board-choice")) { return; }
    event.preventDefault();
    link.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true, view: window }));
  });

  // "The board in words" (a <details>, folded as drawn) stays as the player last left it,
  // on every board of the site, across the panel's swaps, reloads and visits.
  var WORDS = "smoki-board-words";
  function showWords() {
    var words = document.getElementById("board-text");
    var said = null;
    try { said = window.localStorage.getItem(WORDS); } catch (e) { return; }
    if (words && words.tagName === "DETAILS" && said !== null) { words.open = said === "1"; }
  }
  document.addEventListener("toggle", function (event) {
    if (!event.target || event.target.id !== "board-text") { return; }
    try { window.localStorage.setItem(WORDS, event.target.open ? "1" : "0"); } catch (e) { return; }
  }, true);
  document.addEventListener("htmx:afterSwap", showWords);

  document.addEventListener("DOMContentLoaded", function () {
    showTurn(false);
    showChoices();
    showWords();
    // At the player's turn, the place to act is on the first screen (unless the page
    // first tells what happened since the last visit, or a refusal or the end).
    var panel = document.getElementById("match-panel");
    if (panel && panel.dataset.myTurn === "1" && !document.getElementById("catch-up") &&
        !panel.querySelector(".error, .final-banner") && !window.location.hash) {
      showBoardChoices(panel);
    }
    var zone = document.querySelector("select[name=timezone]");
    if (zone && zone.value === "UTC" && window.Intl) {
      var guess = Intl.DateTimeFormat().resolvedOptions().timeZone;
      if (guess && zone.querySelector('option[value="' + guess + '"]')) { zone.value = guess; }
    }
  });

  // Folded before the swapped panel is first painted.
  document.addEventListener("htmx:afterSwap", showChoices);

  // Where the play is, in the fresh panel: a click on the board continues on the board.
  function visible(el) { return !!(el && el.getClientRects().length); }
  function firstVisible(panel, selector) {
    return Array.prototype.filter.call(panel.querySelectorAll(selector), visible)[0] || null;
  }
  function nextChoice(panel, onBoard) {
    var board = "#match-panel .board .board-choice, #match-panel #my-secrets .board-choice";
    return (onBoard && firstVisible(panel, board)) ||
      firstVisible(panel, "#choices .choice-buttons .choice:not(.back)") ||
      firstVisible(panel, board);
  }
  function focusOn(target) {
    if (!target) { return false; }
    if (!target.matches("a[href], button, input, select, textarea, [tabindex]")) {
      target.setAttribute("tabindex", "-1");
    }
    target.focus();
    return document.activeElement === target;
  }
  // After a step, the choices the board highlights are brought into view together (on a
  // phone above the sticky "Your move" box) when they fit, else the first of them: a tile
  // chosen under a Drakon lair leaves the page where the lair's places show.
  var BOARD_CHOICES = "#match-panel .board .board-choice[data-path], #match-panel #my-secrets .board-choice[data-path]";
  function showBoardChoices(panel) {
    var shown = Array.prototype.filter.call(panel.querySelectorAll(BOARD_CHOICES), visible);
    if (!shown.length) { return; }
    shown[0].scrollIntoView({ block: "nearest", inline: "nearest" });
    var top = 0, bottom = window.innerHeight, margin = 8;
    var box = document.getElementById("choices");
    if (box && window.getComputedStyle(box).position === "sticky") {
      bottom = Math.min(bottom, window.innerHeight - box.getBoundingClientRect().height);
    }
    var union = { top: Infinity, bottom: -Infinity };
    shown.forEach(function (el) {
      var r = el.getBoundingClientRect();
      union.top = Math.min(union.top, r.top);
      union.bottom = Math.max(union.bottom, r.bottom);
    });
    if (union.bottom - union.top > bottom - top - 2 * margin) {
      // Too many to show at once: the first at the top of the window.
      var first = shown[0].getBoundingClientRect();
      if (first.top < top || first.bottom > bottom) { window.scrollBy(0, first.top - top - margin); }
      return;
    }
    if (union.top < top) {
      window.scrollBy(0, union.top - top - margin);
    } else if (union.bottom > bottom) {
      window.scrollBy(0, union.bottom - bottom + margin);
    }
  }
  function typing() {
    var active = document.activeElement;
    return !!(active && active.matches && (active.isContentEditable ||
      active.matches("input:not([type=hidden]):not([type=submit]):not([type=button]), textarea, select")));
  }

  var before = { mine: false, focusInPanel: false };
  document.addEventListener("htmx:beforeSwap", function (event) {
    var panel = document.getElementById("match-panel");
    if (!panel || event.detail.target !== panel) { return; }
    before.mine = panel.dataset.myTurn === "1";
    before.focusInPanel = panel.contains(document.activeElement);
  });

  // A move's answer adds its log lines on top of the list the page keeps
  // (selectors.log_answer); keep the list as long as a panel drawn whole,
  // LOG_TAIL lines, so a page open for a long match does not grow without end.
  var LOG_TAIL = 30;
  function trimLog() {
    var list = document.getElementById("move-log-list");
    while (list && list.children.length > LOG_TAIL) { list.lastElementChild.remove(); }
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    trimLog();
    var panel = document.getElementById("match-panel");
    if (!panel) { return; }
    var elt = event.detail && event.detail.requestConfig && event.detail.requestConfig.elt;
    var fromPoll = !!(elt && elt.classList && elt.classList.contains("poller"));
    var mine = panel.dataset.myTurn === "1";
    showTurn(true);
    if (fromPoll) {
      // The turn came back: to the first choice, unless the player is typing somewhere.
      if (mine && !before.mine && !typing()) {
        focusOn(nextChoice(panel, false));
      } else if (before.focusInPanel && !panel.contains(document.activeElement) && !typing()) {
        // The swap took the focused element away: keep the focus in the panel, not the body.
        focusOn(nextChoice(panel, false) || panel.querySelector(".board") || panel);
      }
      return;
    }
    // A step's or a move's answer that comes in after the player went on to type
    // somewhere else (the notes, the chat) leaves the focus there, as a poll's does.
    if (typing() && !(elt && elt.contains && elt.contains(document.activeElement))) { return; }
    // A step or a move: a refusal first, then the next choice, the end, or the board.
    var onBoard = !!(elt && elt.closest && elt.closest(".board, #my-secrets"));
    focusOn(panel.querySelector(".error")) ||
      focusOn(nextChoice(panel, onBoard)) ||
      focusOn(panel.querySelector(".final-banner h2")) ||
      focusOn(panel.querySelector(".board")) ||
      focusOn(panel);
    if (onBoard && !panel.querySelector(".error")) { showBoardChoices(panel); }
  });
})();

// Installable: register the service worker (static files only) where the
// page asks for it (production; see games/context_processors.py).
(function () {
  "use strict";
  var url = document.body && document.body.dataset.serviceWorker;
  if (url && "serviceWorker" in navigator) {
    navigator.serviceWorker.register(url, { scope: "/" }).catch(function () {});
  }
})();

// Live mode (docs/community.md): a match page hears of each change from its events
// stream and asks its panel at once, through the poll's own request (the seat's view);
// while the stream is open the regular poll asks only every data-poll seconds (the
// fallback stays). "Live" shows while every seated player has the page open.
document.addEventListener("DOMContentLoaded", function () {
  "use strict";
  var mark = document.getElementById("live-mark");
  if (!mark || !window.EventSource || !window.htmx) { return; }
  var source = new EventSource(mark.dataset.events);
  var slow = (parseInt(mark.dataset.poll, 10) || 30) * 1000;
  var lastAsked = Date.now();
  // A change heard while a request of this page is in flight (the player's
  // own move or chat line, whose answer brings the new panel) is asked for
  // once that answer is in: two panels swapped at once lose the kept chat.
  var busy = 0, heardWhileBusy = false;
  function askForPanel() {
    var poller = document.querySelector("#match-panel .poller");
    if (poller) { window.htmx.trigger(poller, "smoki:live"); }
  }
  document.addEventListener("htmx:beforeRequest", function () { busy += 1; });
  document.addEventListener("htmx:afterRequest", function () {
    busy = Math.max(0, busy - 1);
    if (!busy && heardWhileBusy) { heardWhileBusy = false; setTimeout(askForPanel, 150); }
  });
  source.addEventListener("version", function () {
    if (busy) { heardWhileBusy = true; return; }
    askForPanel();
  });
  source.addEventListener("live", function (event) { mark.hidden = event.data !== "1"; });
  // EventSource reconnects by itself; meanwhile the page is not live and polls as usual.
  source.addEventListener("error", function () { mark.hidden = true; });
  document.addEventListener("htmx:confirm", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || !elt.classList || !elt.classList.contains("poller")) { return; }
    var heard = event.detail.triggeringEvent && event.detail.triggeringEvent.type === "smoki:live";
    if (!heard && source.readyState === EventSource.OPEN && Date.now() - lastAsked < slow) {
      event.preventDefault();  // the stream is open: the regular poll waits longer
      return;
    }
    lastAsked = Date.now();
  });
});
