/* The partnership Canastas' table (templates/tables/live/canasta/): choosing cards (or tiles) in my hand, then a
 * button says what to do with them. Everything is a move the server checks and stages (engine/games/_canasta.py):
 *  - « Déposer »: the chosen cards as a new meld of their rank (staged, seen by me only until my discard);
 *  - « Ajouter »: the chosen cards onto our team's meld of their rank (a wild alone: touch the meld it goes to;
 *    touching one of our melds with cards chosen does the same);
 *  - « Prendre la pile »: ONE move, the top of the pile melded with the chosen cards (and, before our team's first
 *    meld, the other melds chosen, one per rank: the wilds go where a meld lacks a third card);
 *  - « Défausser »: the one chosen card (touching the pile with one card chosen does the same).
 * « Annuler », « Piocher », the go-out question and its answer are plain ws-send buttons. Moves leave through the
 * hidden ws-send button of the actions piece (static/js/table.js adds the HTTP fallback and the version);
 * a refusal comes back in French in #table-error. The choice is kept across pushes while its cards are in hand.
 */
(function () {
  "use strict";

  var chosen = [];  // ids of the cards (tiles) chosen, in click order

  function $(sel, ctx) { return (ctx || document).querySelector(sel); }
  function $all(sel, ctx) { return Array.prototype.slice.call((ctx || document).querySelectorAll(sel)); }

  function zone() { return $("#table-hand[data-cn]"); }
  function pieceOf(id) { return $('#table-hand [data-card="' + id + '"]'); }

  function version() {
    var status = $("#table-status");
    return status ? parseInt(status.getAttribute("data-version"), 10) : null;
  }

  function send(payload) {
    var button = $("[data-cn-send]");
    if (!button) return;
    payload.kind = "move";
    payload.version = version();
    button.setAttribute("hx-vals", JSON.stringify(payload));
    button.click();
  }

  function hint(text) {
    var box = $("[data-mode-hint]");
    if (!box) return;
    box.textContent = text || "";
    box.hidden = !text;
  }

  function rankOf(id) { var el = pieceOf(id); return el ? el.getAttribute("data-rank") : null; }
  function isWild(id) { var el = pieceOf(id); return !!(el && el.hasAttribute("data-wild")); }
  function nameOf(id) {
    var el = pieceOf(id);
    if (!el) return id;
    var hidden = $(".visually-hidden", el);
    return (el.getAttribute("aria-label") || (hidden && hidden.textContent) || id).trim();
  }

  /** The natural rank of the chosen cards when they share one (wilds aside), else null. */
  function chosenRank(ids) {
    var ranks = ids.filter(function (id) { return !isWild(id); }).map(rankOf);
    var first = ranks[0];
    if (!first || ranks.some(function (r) { return r !== first; })) return null;
    return first;
  }

  function ourMeld(rank) { return rank ? $('#table-centre [data-cn-meld][data-rank="' + rank + '"]') : null; }

  function refresh() {
    var hand = zone();
    if (!hand) { chosen = []; return; }
    chosen = chosen.filter(function (id) { return pieceOf(id); });
    $all("[data-card]", hand).forEach(function (el) {
      var on = chosen.indexOf(el.getAttribute("data-card")) >= 0;
      el.classList.toggle("selected", on);
      el.setAttribute("aria-pressed", on ? "true" : "false");
    });
    var line = $("[data-cn-selection]");
    if (line) {
      line.hidden = !chosen.length;
      line.textContent = chosen.length
        ? (chosen.length === 1 ? "Carte choisie : " : chosen.length + " cartes choisies : ") + chosen.map(nameOf).join(", ") + "."
        : "";
    }
    var rank = chosenRank(chosen);
    $all("#table-centre [data-cn-meld]").forEach(function (el) {
      var fits = chosen.length > 0 && (rank ? el.getAttribute("data-rank") === rank : chosen.every(isWild));
      el.classList.toggle("fits", fits);
    });
  }

  /** « Prendre la pile »: the melds of the pick-up, one per natural rank chosen; the top card's rank first. */
  function pickUpMelds(top) {
    var groups = {}, order = [], wilds = [];
    chosen.forEach(function (id) {
      if (isWild(id)) { wilds.push(id); return; }
      var rank = rankOf(id);
      if (!groups[rank]) { groups[rank] = []; order.push(rank); }
      groups[rank].push(id);
    });
    order.sort(function (a, b) { return (a === top ? 0 : 1) - (b === top ? 0 : 1); });
    // a wild completes a further meld of two naturals first; the others go with the top card
    order.forEach(function (rank) {
      if (rank !== top && groups[rank].length < 3 && wilds.length) groups[rank].push(wilds.shift());
    });
    if (!groups[top]) { groups[top] = []; order.unshift(top); }
    groups[top] = groups[top].concat(wilds);
    return order.map(function (rank) { return { cards: groups[rank] }; });
  }

  function act(button) {
    var what = button.getAttribute("data-cn-act");
    var cards = chosen.slice();
    if (what === "discard") {
      if (cards.length !== 1) { hint("Choisis une seule carte à défausser."); return; }
      send({ action: "discard", card: cards[0] });
    } else if (what === "meld") {
      if (cards.length < 3) { hint("Choisis au moins trois cartes de même rang (jokers compris) à déposer."); return; }
      send({ action: "meld", cards: cards });
    } else if (what === "lay_off") {
      if (!cards.length) { hint("Choisis les cartes à ajouter à une combinaison de ton équipe."); return; }
      var target = ourMeld(chosenRank(cards));
      if (!target) { hint("Touche la combinaison de ton équipe où les ajouter."); return; }
      layOff(target, cards);
      return;
    } else if (what === "take_pile") {
      var top = button.getAttribute("data-cn-top");
      var melds = pickUpMelds(top);
      var layOn = button.getAttribute("data-cn-lay-on");
      if (!cards.length && layOn) melds = [{ cards: [], meld_id: layOn }];
      send({ action: "take_pile", melds: melds });
    }
    chosen = [];
    refresh();
  }

  function layOff(meld, cards) {
    send({ action: "lay_off", cards: cards, meld_id: meld.getAttribute("data-cn-meld") });
    chosen = [];
    refresh();
  }

  document.addEventListener("click", function (event) {
    if (!zone()) return;
    var piece = event.target.closest("#table-hand [data-card]");
    if (piece) {
      var id = piece.getAttribute("data-card");
      var at = chosen.indexOf(id);
      if (at >= 0) chosen.splice(at, 1); else chosen.push(id);
      hint("");
      refresh();
      return;
    }
    var button = event.target.closest("button");
    if (!button || button.getAttribute("aria-disabled") === "true") return;
    if (button.hasAttribute("data-cn-act")) act(button);
    else if (button.hasAttribute("data-cn-meld") && chosen.length) layOff(button, chosen.slice());
    else if (button.hasAttribute("data-cn-pile") && chosen.length === 1) {
      send({ action: "discard", card: chosen[0] });
      chosen = [];
      refresh();
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && zone() && chosen.length) { chosen = []; refresh(); }
  });

  document.addEventListener("htmx:afterSettle", function () { window.requestAnimationFrame(refresh); });
  document.addEventListener("htmx:wsAfterMessage", function () { window.requestAnimationFrame(refresh); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", refresh);
  else refresh();
})();
