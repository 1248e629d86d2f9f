/* Lobby: the « Nouvelle table » form. Places beyond the chosen number of players are hidden, and
   changing the game reloads the form for that game (its player counts, options and stakes). */
(function () {
  "use strict";

  function form() { return document.querySelector(".create-form"); }

  function syncSeats() {
    var f = form();
    if (!f || !f.elements.seats_count) return;
    var count = parseInt(f.elements.seats_count.value, 10) || 2;
    f.querySelectorAll("[data-seat-field]").forEach(function (box) {
      var position = parseInt(box.getAttribute("data-seat-field"), 10);
      var shown = position < count;
      box.hidden = !shown;
      var select = box.querySelector("select");
      if (select) select.disabled = !shown;
    });
  }

  document.addEventListener("change", function (event) {
    var f = form();
    if (!f || !f.contains(event.target)) return;
    if (event.target.name === "seats_count") syncSeats();
    if (event.target.name === "game" && window.htmx) {
      var slug = event.target.value;
      var url = f.getAttribute("data-lobby-url") + "?fragment=form&jeu=" + encodeURIComponent(slug);
      htmx.ajax("GET", url, { target: "#lobby-create", swap: "outerHTML" }).then(function () {
        var select = document.querySelector(".create-form select[name=game]");
        if (select) select.focus();
      });
      if (window.history && history.replaceState) {
        history.replaceState(null, "", "?jeu=" + encodeURIComponent(slug));
      }
    }
  });

  document.addEventListener("htmx:afterSettle", syncSeats);
  document.addEventListener("DOMContentLoaded", syncSeats);
})();
