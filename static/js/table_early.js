/* The table page's clicks made before its scripts have run.
 *
 * The page is drawn as soon as its HTML is parsed, but htmx, its ws extension and table.js are deferred: they
 * run a moment later (longer on a slow phone or network), and only then do the piles and cards get their
 * handlers. A tap in that moment (the upcard, right after « Commencer » reloaded the page) used to fall on a
 * button that did nothing, and was lost. This script is loaded without `defer` in the page's head
 * (templates/tables/table.html), so it runs before anything of the table is drawn: it holds such clicks and
 * plays them again, in order, once every deferred script has run and htmx has wired the page (the move then
 * leaves with the version the page shows, over the HTTP fallback while the socket opens: static/js/table.js).
 */
(function () {
  "use strict";

  var held = [];

  /** What needs a script to act: every button and card of the table, except a form's plain submit button
   *  (« Commencer »), which works without one. A form asking for confirmation (« Quitter ») waits: its
   *  confirm() is table.js's. */
  function needsScript(el) {
    if (!el.closest("#table-root")) return false;
    var form = el.form || null;
    if (form && el.type === "submit" && !form.hasAttribute("ws-send") && !form.hasAttribute("data-confirm")) {
      return false;
    }
    return true;
  }

  function hold(event) {
    var el = event.target && event.target.closest
      && event.target.closest("button, [data-card], [data-tile], [data-drop]");
    if (!el || !needsScript(el)) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    held.push(el);
  }

  function release() {
    document.removeEventListener("click", hold, true);
    var clicks = held;
    held = [];
    clicks.forEach(function (el) {
      if (el.isConnected) el.click();
    });
  }

  document.addEventListener("click", hold, true);
  // The deferred scripts all run before DOMContentLoaded, and htmx wires the page in its own listener of it
  // (registered after this one): play the held clicks in the task after.
  document.addEventListener("DOMContentLoaded", function () { window.setTimeout(release, 0); });
})();
