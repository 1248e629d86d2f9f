/* The partnership Canastas' table (templates/tables/live/team_meld/): choosing cards (or tiles) in my hand, then a
 * button says what to do with them. Everything is a move the server checks and stages (engine/games/_canasta_staging.py):
 *  - « Déposer »: the chosen cards as a new meld of their rank (staged, seen by me only until my discard);
 *  - « Ajouter »: the chosen cards onto our team's meld of their rank (a wild alone: touch the meld it goes to;
 *    touching one of our melds with cards chosen does the same);
 *  - « Prendre la pile »: ONE move, the top of the pile melded with the chosen cards (and, before our team's first
 *    meld, the other melds chosen, one per rank: the wilds go where a meld lacks a third card);
 *  - « Défausser »: the one chosen card (touching the pile with one card chosen does the same).
 * « Annuler », « Piocher », the go-out question and its answer are plain ws-send buttons. Moves leave through the
 * hidden ws-send button of the actions piece (static/js/table.js adds the HTTP fallback and the version);
 * a refusal comes back in French in #table-error. The choice is kept across pushes while its cards are in hand.
 * A card dragged from the hand (table.js's SortableJS drag) and dropped on one of our melds is added to it (with
 * the other chosen cards when it is one of them); dropped on the pile, it is discarded. A canasta that closes
 * while the page is open is greeted « Canasta ! » for a moment.
 */
(function () {
  "use strict";

  var chosen = [];  // ids of the cards (tiles) chosen, in click order
  var draggedAt = 0;  // a drag ends with a click on the card: not a choice

  var $ = window.CartesTable.$, $all = window.CartesTable.$all;  // the table page's helpers (static/js/table.js)

  function zone() { return $("#table-hand[data-cn]"); }
  function pieceOf(id) { return $('#table-hand [data-card="' + id + '"]'); }

  var version = window.CartesTable.version;

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

  /** « Prendre la pile »: the melds of the pick-up as lists of ids, one per natural rank chosen; the first holds
   * the top piece with the chosen cards of its rank. A wild completes a further meld of two naturals first (a
   * team's first meld), the others go with the top piece. */
  function pickUpMelds(top, topRank) {
    var groups = {}, order = [], wilds = [];
    chosen.forEach(function (id) {
      if (isWild(id)) { wilds.push(id); return; }
      var rank = rankOf(id);
      if (!groups[rank]) { groups[rank] = []; order.push(rank); }
      groups[rank].push(id);
    });
    order = order.filter(function (r) { return r !== topRank; });
    order.forEach(function (rank) {
      if (groups[rank].length < 3 && wilds.length) groups[rank].push(wilds.shift());
    });
    var first = [top].concat(groups[topRank] || [], wilds);
    return [first].concat(order.map(function (rank) { return groups[rank]; }));
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
      var melds = null;
      if (cards.length) melds = pickUpMelds(button.getAttribute("data-cn-top"), button.getAttribute("data-cn-top-rank"));
      else {
        // nothing chosen: the way the server offers (the top piece with the first pair it finds)
        try { melds = JSON.parse(button.getAttribute("data-cn-default") || "null"); } catch (e) { melds = null; }
      }
      if (!melds) { hint("Choisis les cartes à poser avec celle du dessus de la pile."); return; }
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
      if (Date.now() - draggedAt < 400) return;
      var id = piece.getAttribute("data-card");
      var at = chosen.indexOf(id);
      if (at >= 0) chosen.splice(at, 1); else chosen.push(id);
      hint("");
      refresh();
      return;
    }
    var button = event.target.closest("button");
    if (!button) return;
    if (button.getAttribute("aria-disabled") === "true") {  // « Prendre la pile » when the pile cannot be taken
      if (button.hasAttribute("data-reason")) hint(button.getAttribute("data-reason"));
      return;
    }
    if (button.hasAttribute("data-cn-act")) act(button);
    else if (button.hasAttribute("data-cn-meld") && chosen.length) layOff(button, chosen.slice());
    else if (button.hasAttribute("data-cn-pile") && chosen.length === 1) {
      send({ action: "discard", card: chosen[0] });
      chosen = [];
      refresh();
    }
  });

  // ------------------------------------------------------------------ drag a card onto a meld or the pile

  var pointer = { x: -1, y: -1 };

  function track(event) {
    var point = event.touches && event.touches[0] ? event.touches[0] : event;
    if (point.clientX !== undefined) { pointer.x = point.clientX; pointer.y = point.clientY; }
  }

  /** The meld of ours (or the pile) under the point, as the player sees it, else null. */
  function dropTarget(point) {
    var el = point && point.x >= 0 ? document.elementFromPoint(point.x, point.y) : null;
    return el && el.closest ? el.closest("#table-centre [data-cn-meld], #table-centre [data-cn-pile]") : null;
  }

  /** Where the finger (or the mouse) let go: the release event's own point, the last one seen before it else. */
  function releasePoint(event) {
    var touch = event.changedTouches && event.changedTouches[0];
    if (touch) return { x: touch.clientX, y: touch.clientY };
    if (typeof event.clientX === "number" && (event.clientX || event.clientY)) return { x: event.clientX, y: event.clientY };
    return pointer;
  }

  ["pointermove", "mousemove", "touchmove"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      track(event);
      if (!document.body.classList.contains("hand-dragging")) return;
      var target = dropTarget(pointer);
      $all(".cn-drop-hover").forEach(function (el) { if (el !== target) el.classList.remove("cn-drop-hover"); });
      if (target) target.classList.add("cn-drop-hover");
    }, { passive: true, capture: true });
  });

  /* Before SortableJS ends the drag (its handlers listen to pointerup / touchend): the meld under the release point
   * takes the card (with the other chosen cards when it is one of them), the pile under it takes it as a discard;
   * anywhere else nothing is sent and the card stays in my hand. A finger lets go with a pointerup and a touchend:
   * one drop. */
  var releasedAt = 0;
  ["pointerup", "touchend"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (!zone() || !document.body.classList.contains("hand-dragging")) return;
      if (Date.now() - releasedAt < 300) return;
      releasedAt = draggedAt = Date.now();
      $all(".cn-drop-hover").forEach(function (el) { el.classList.remove("cn-drop-hover"); });
      var dragged = $("#table-hand .card-chosen[data-card], #table-hand .sortable-chosen[data-card]");
      var target = dropTarget(releasePoint(event));
      if (!dragged || !target) return;
      var id = dragged.getAttribute("data-card");
      var cards = chosen.indexOf(id) >= 0 ? chosen.slice() : [id];
      window.setTimeout(function () {  // once the drag is over (the hand keeps its order: the push redraws it)
        // SortableJS swallows the first click after a drag it began (a drop away from the hand is followed by no
        // click of the browser's): the move's click on the hidden send button was that click, and the drop did
        // nothing. A harmless click goes first.
        document.body.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
        draggedAt = Date.now();
        if (target.hasAttribute("data-cn-pile")) {
          if (cards.length !== 1) { hint("Choisis une seule carte à défausser."); return; }
          send({ action: "discard", card: cards[0] });
          chosen = [];
          refresh();
        } else {
          layOff(target, cards);
        }
      }, 0);
    }, true);
  });

  // ------------------------------------------------------------------ « Canasta ! »

  var canastas = null;  // ids of the closed canastas this page has shown

  function greet() {
    var now = {};
    $all("#table-centre .cn-meld.is-canasta[data-meld]").forEach(function (el) { now[el.getAttribute("data-meld")] = el; });
    if (canastas !== null) {
      Object.keys(now).forEach(function (id) {
        if (canastas[id]) return;
        var badge = document.createElement("span");
        badge.className = "cn-hurray";
        badge.setAttribute("aria-hidden", "true");
        badge.textContent = "Canasta !";
        now[id].appendChild(badge);
        window.setTimeout(function () { if (badge.parentNode) badge.parentNode.removeChild(badge); }, 2200);
      });
    }
    canastas = now;
  }

  function afterPush() { refresh(); greet(); }

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape" && zone() && chosen.length) { chosen = []; refresh(); }
  });

  document.addEventListener("htmx:afterSettle", function () { window.requestAnimationFrame(afterPush); });
  document.addEventListener("htmx:wsAfterMessage", function () { window.requestAnimationFrame(afterPush); });
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", afterPush);
  else afterPush();
})();
