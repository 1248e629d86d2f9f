/* The bell (templates/accounts/bell.html): it comes again whenever the player's notifications change, and a new
 * one is read out to screen readers (#bell-news). On a table page it comes through the table's socket (htmx's ws
 * extension swaps it in by its id, tables/consumers.py): the page holds one socket. On any other page this script
 * keeps a small socket of its own for it (accounts/consumers.py). */
(function () {
  "use strict";
  var delay = 1000;
  var shown = null;

  function count(bell) {
    return bell ? parseInt(bell.getAttribute("data-count") || "0", 10) : 0;
  }

  // A bell just drawn: a higher count is news; a phone's table page folds the links behind « Menu », whose
  // button then carries the unread mark.
  function seen(bell) {
    var unread = count(bell);
    var news = document.getElementById("bell-news");
    if (shown !== null && unread > shown && news) {
      news.textContent = "Nouvelle notification : " + (bell.getAttribute("data-latest") || "");
    }
    shown = unread;
    var toggle = document.querySelector("[data-nav-toggle]");
    if (!toggle) return;
    toggle.classList.toggle("has-unread", unread > 0);
    toggle.setAttribute("aria-label", unread > 0 ? "Menu (" + unread + " notification" + (unread > 1 ? "s" : "") +
      " non lue" + (unread > 1 ? "s" : "") + ")" : "Menu");
  }

  function show(html) {
    var current = document.getElementById("bell");
    if (!current) return;
    var holder = document.createElement("template");
    holder.innerHTML = html.trim();
    var next = holder.content.firstElementChild;
    if (!next || next.id !== "bell") return;
    current.replaceWith(next);
    seen(next);
  }

  function connect() {
    var scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    var socket = new WebSocket(scheme + window.location.host + "/ws/notifications/");
    socket.addEventListener("open", function () { delay = 1000; });
    socket.addEventListener("message", function (event) { show(String(event.data)); });
    socket.addEventListener("close", function (event) {
      if (event.code === 4401) return; // logged out
      window.setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    });
  }

  var bell = document.getElementById("bell");
  if (!bell) return;
  seen(bell);
  if (document.querySelector("[ws-connect]")) {
    new MutationObserver(function () {
      var now = document.getElementById("bell");
      if (now && count(now) !== shown) seen(now);
    }).observe(bell.parentNode, {childList: true});
  } else {
    connect();
  }
})();
