/* The table-meld rummies' table (Rami, Rami 40, Kalooki, Rami traditionnel: templates/tables/live/cards/ with the
 * hand carrying data-tm): choosing cards, « Déposer » (with a joker chooser), laying off / swapping a joker by drag
 * and drop or by tapping a blue arrow / a joker, « Défausser ». Loaded on this family's tables only (its
 * presenter's `scripts`), after static/js/table.js, whose `window.CartesTable` it uses and registers hooks with.
 */
(function () {
  "use strict";

  var T = window.CartesTable;
  var $ = T.$, $all = T.$all, hint = T.hint;

  /* Rami, Rami 40, Kalooki, Rami traditionnel (the hand carries data-tm): a click on a card chooses it
   * (aria-pressed), the choice survives pushes. « Déposer » sends {"action": "meld", "cards": [...]} and,
   * when the cards read several ways, first asks what each joker stands for ("wilds"). A chosen card
   * dropped or tapped on a blue arrow lays it off (lay_off, meld_id, end), on a joker swaps it
   * (swap_joker), on the discard pile discards it. The server judges every move: its French refusal
   * lands in #table-error with « Pourquoi ? ». */

  var TM_RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
  var TM_SUITS = "SHDC";
  var TM_SYMBOLS = { S: "♠", H: "♥", D: "♦", C: "♣" };
  var TM_LETTERS = { J: "V", Q: "D", K: "R" };
  var tmSelected = [];        // chosen card ids, in click order
  var tmChip = null;          // {key, wilds}: the suggestion picked last (its wild statement is kept)
  var tmDrag = null;          // {card, order} while a hand card is dragged
  var tmProposal = null;      // the opening « Déposer » proposed with nothing chosen (data-tm-plan), while chosen
  var tmQueue = null;         // {melds, version, error}: the rest of a proposed opening, one meld per push

  function tmHand() { return $("#table-hand[data-tm]"); }

  function tmRules() {
    var hand = tmHand();
    try { return JSON.parse(hand.getAttribute("data-tm-rules") || "{}"); } catch (e) { return {}; }
  }

  function tmParse(id) {
    if (id.indexOf("JK") === 0) return { id: id, joker: true, n: parseInt(id.slice(2), 10) };
    return { id: id, joker: false, suit: TM_SUITS.indexOf(id.charAt(id.length - 2)), rank: TM_RANKS.indexOf(id.slice(0, -2)) + 1 };
  }

  function tmFace(suit, position) { return TM_RANKS[(position === 14 ? 1 : position) - 1] + TM_SUITS.charAt(suit); }

  function tmFaceLabel(face) {
    var rank = face.slice(0, -1);
    return (TM_LETTERS[rank] || rank) + TM_SYMBOLS[face.slice(-1)];
  }

  function tmCardLabel(id) { return id.indexOf("JK") === 0 ? "Joker" : tmFaceLabel(id.slice(0, -1)); }

  /** Every reading of the cards as one meld (the engine's engine/melds/table.read_meld, for the preview):
   *  [{kind, wilds: {JK1: "7C"}, points, faces}]. The server stays the judge. */
  function tmRead(ids, rules) {
    var parsed = ids.map(tmParse);
    var jokers = parsed.filter(function (c) { return c.joker; }).sort(function (a, b) { return a.n - b.n; })
      .map(function (c) { return c.id; });
    var nats = parsed.filter(function (c) { return !c.joker; });
    var n = ids.length, out = [];
    if (n < 3 || nats.length < Math.max(1, rules.min_naturals || 0)) return out;
    var ranks = nats.map(function (c) { return c.rank; });
    var suits = nats.map(function (c) { return c.suit; });
    var distinct = function (list) { return list.filter(function (v, i) { return list.indexOf(v) === i; }); };
    if (distinct(ranks).length === 1 && n <= 4 && distinct(suits).length === suits.length) {
      var free = [0, 1, 2, 3].filter(function (s) { return suits.indexOf(s) < 0; });
      var setWilds = {};
      jokers.forEach(function (w, i) { setWilds[w] = tmFace(free[i], ranks[0]); });
      out.push({ kind: "set", wilds: setWilds, points: n * (ranks[0] === 1 ? 11 : Math.min(ranks[0], 10)),
                 faces: [] });
    }
    var minPos = rules.ace_low ? 1 : 2, maxPos = rules.ace_high ? 14 : 13;
    if (distinct(suits).length === 1 && distinct(ranks).length === ranks.length && n <= Math.min(13, maxPos - minPos + 1)) {
      var suit = suits[0];
      var aces = ranks.indexOf(1) >= 0 ? [rules.ace_low ? 1 : 0, rules.ace_high ? 14 : 0].filter(Boolean) : [0];
      aces.forEach(function (ace) {
        var pos = ranks.map(function (r) { return r === 1 ? ace : r; }).sort(function (a, b) { return a - b; });
        for (var lo = Math.max(minPos, pos[pos.length - 1] - n + 1); lo <= Math.min(pos[0], maxPos - n + 1); lo++) {
          var holes = [], points = 0, faces = [];
          for (var p = lo; p < lo + n; p++) {
            if (pos.indexOf(p) < 0) holes.push(p);
            points += p === 1 ? 1 : p === 14 ? 11 : Math.min(p, 10);
            faces.push(tmFace(suit, p));
          }
          var wilds = {};
          jokers.forEach(function (w, i) { wilds[w] = tmFace(suit, holes[i]); });
          out.push({ kind: "run", wilds: wilds, points: points, faces: faces });
        }
      });
    }
    return out;
  }

  var TM_PLURALS = { A: "as", J: "valets", Q: "dames", K: "rois" };

  function tmDescribe(reading, count) {
    var jokers = Object.keys(reading.wilds).sort();
    var text;
    if (reading.kind === "set") {
      var rank = jokers.length ? reading.wilds[jokers[0]].slice(0, -1) : "";
      text = (count === 4 ? "Carré" : "Brelan") + (rank ? " de " + (TM_PLURALS[rank] || rank) : "");
    } else {
      text = "Suite " + reading.faces.map(tmFaceLabel).join(" ");
    }
    if (jokers.length) {
      text += " — joker" + (jokers.length > 1 ? "s" : "") + " = " + jokers.map(function (w) { return tmFaceLabel(reading.wilds[w]); }).join(", ");
    }
    return text + " · " + reading.points + " pts";
  }

  function tmKey(ids) { return ids.slice().sort().join(","); }

  function tmSend(payload, firstCard) { T.sendMove(payload, firstCard); }

  /** After every push: keep my choice on the cards still in hand, refresh the line and the buttons. */
  function tmRefresh() {
    var hand = tmHand();
    if (!hand) { tmSelected = []; return; }
    var present = {};
    $all("[data-card]", hand).forEach(function (c) { present[c.getAttribute("data-card")] = c; });
    tmSelected = tmSelected.filter(function (id) { return present[id]; });
    Object.keys(present).forEach(function (id) {
      var on = tmSelected.indexOf(id) >= 0;
      present[id].classList.toggle("selected", on);
      present[id].setAttribute("aria-pressed", String(on));
    });
    if (!$("[data-tm-chooser]:not([hidden])")) tmChooserHide();
    tmUpdate();
  }

  function tmTargets(ids) {
    /** The table spots every chosen card fits: {layoffs: ["M3:high", …], swaps: ["M2:JK1", …]}. */
    var lists = { layoffs: null, swaps: null };
    ids.forEach(function (id) {
      var card = $('#table-hand [data-card="' + id + '"]');
      ["layoffs", "swaps"].forEach(function (kind) {
        var attr = card ? (card.getAttribute(kind === "layoffs" ? "data-fits" : "data-swaps") || "") : "";
        var mine = attr.split(" ").filter(Boolean);
        lists[kind] = lists[kind] === null ? mine : lists[kind].filter(function (t) { return mine.indexOf(t) >= 0; });
      });
    });
    return { layoffs: lists.layoffs || [], swaps: lists.swaps || [] };
  }

  function tmUpdate() {
    var hand = tmHand();
    if (!hand) return;
    var rules = tmRules();
    var line = $("[data-tm-selection]");
    var readings = tmSelected.length >= 3 ? tmRead(tmSelected, rules) : [];
    var best = readings.reduce(function (m, r) { return !m || r.points > m.points ? r : m; }, null);
    var text = "";
    if (tmProposing()) {
      readings = [];
      best = null;
      text = tmProposal.text + " Touche encore « Déposer » pour " + (tmProposal.melds.length > 1 ? "tout poser." : "la poser.");
    } else if (tmSelected.length === 1) {
      text = "Carte choisie : " + tmCardLabel(tmSelected[0]) + ". ";
      if (rules.acting) {
        text += tmTargets(tmSelected).layoffs.length || tmTargets(tmSelected).swaps.length
          ? "Elle va sur la table : touche une flèche bleue (ou un joker), ou « Défausser »."
          : "Choisis-en d'autres pour une combinaison, ou « Défausser ».";
      }
    } else if (tmSelected.length === 2) {
      text = "2 cartes choisies : il en faut au moins 3 pour une combinaison.";
    } else if (tmSelected.length >= 3 && !readings.length) {
      text = tmSelected.length + " cartes choisies : elles ne forment pas une combinaison.";
    } else if (best) {
      text = tmSelected.length + " cartes : " + (readings.length > 1 ? "combinaison valable, jusqu'à " : tmDescribe(best, tmSelected.length).split(" · ")[0] + ", ") + best.points + " points.";
      if (rules.threshold && !rules.opened) {
        var total = (rules.staged_points || 0) + best.points;
        text += " Première pose : " + total + " / " + rules.threshold + (total >= rules.threshold ? " ✓" : " — il en manque " + (rules.threshold - total)) + ".";
      }
    }
    if (line) {
      line.textContent = text;
      line.hidden = !text;
      line.classList.toggle("is-short", !!(best && rules.threshold && !rules.opened && (rules.staged_points || 0) + best.points < rules.threshold));
    }
    $all("[data-tm-act]").forEach(function (button) {
      var act = button.getAttribute("data-tm-act");
      var extra = $("[data-tm-extra]", button);
      if (act === "meld" && button.hasAttribute("data-tm-acting")) {
        if (!button.hasAttribute("data-server-state")) {
          button.setAttribute("data-server-state", button.getAttribute("aria-disabled") === "true" ? "off" : "on");
        }
        var on = button.getAttribute("data-server-state") === "on" || readings.length > 0;
        if (on) { button.removeAttribute("aria-disabled"); button.removeAttribute("title"); }
        else { button.setAttribute("aria-disabled", "true"); button.setAttribute("title", button.getAttribute("data-reason") || ""); }
        button.classList.toggle("is-ready", readings.length > 0);
        if (extra) extra.textContent = best ? "\u00a0(" + best.points + "\u00a0pts)" : "";
      } else if (act === "discard" && extra) {
        extra.textContent = tmSelected.length === 1 && button.getAttribute("aria-disabled") !== "true" ? "\u00a0" + tmCardLabel(tmSelected[0]) : "";
      }
    });
    // Light the table spots the chosen cards fit.
    var targets = tmTargets(tmSelected);
    $all("#table-centre [data-drop]").forEach(function (el) { el.classList.remove("fits"); });
    if (tmSelected.length) {
      targets.layoffs.forEach(function (t) {
        var parts = t.split(":");
        $all('#table-centre .tm-end[data-meld-id="' + parts[0] + '"]').forEach(function (end) {
          if (!parts[1] || end.getAttribute("data-end") === parts[1] || end.getAttribute("data-end") === "") end.classList.add("fits");
        });
      });
      targets.swaps.forEach(function (t) {
        var parts = t.split(":");
        var joker = $('#table-centre [data-meld-id="' + parts[0] + '"][data-joker="' + parts[1] + '"]');
        if (joker) joker.classList.add("fits");
      });
      if (tmSelected.length === 1) $all("#table-centre [data-drop=discard]").forEach(function (el) { el.classList.add("fits"); });
    }
    hand.classList.toggle("tm-choosing", tmSelected.length > 0);
  }

  function tmToggle(card) {
    var id = card.getAttribute("data-card");
    var at = tmSelected.indexOf(id);
    if (at >= 0) tmSelected.splice(at, 1); else tmSelected.push(id);
    tmChooserHide();
    tmRefresh();
  }

  function tmSelect(ids, wilds) {
    tmSelected = ids.filter(function (id) { return $('#table-hand [data-card="' + id + '"]'); });
    tmChip = wilds ? { key: tmKey(tmSelected), wilds: wilds } : null;
    tmRefresh();
  }

  /** The server's proposed opening on « Déposer » (tables.presenters._opening_plan), or null. */
  function tmPlan() {
    var button = $('[data-tm-act="meld"][data-tm-plan]');
    if (!button) return null;
    try { return JSON.parse(button.getAttribute("data-tm-plan")); } catch (e) { return null; }
  }

  function tmPlanCards(plan) {
    return plan.melds.reduce(function (all, m) { return all.concat(m.cards); }, []);
  }

  function tmProposing() {
    return !!(tmProposal && tmSelected.length && tmKey(tmSelected) === tmKey(tmPlanCards(tmProposal)));
  }

  /** Stage the first of `melds` now, the others one by one as each push shows the previous one staged. */
  function tmSendQueued(melds) {
    var first = melds[0];
    var error = $("#table-error");
    tmQueue = melds.length > 1 ? { melds: melds.slice(1), version: T.version(), error: error ? error.textContent.trim() : "" } : null;
    tmSend(Object.assign({ action: "meld", cards: first.cards.slice() }, first.wilds ? { wilds: first.wilds } : {}), first.cards[0]);
  }

  function tmFlushQueue() {
    if (!tmQueue) return;
    if (T.version() === tmQueue.version) return;  // the push of the meld just sent has not come yet
    var error = $("#table-error");
    var refusedNow = error && error.textContent.trim() && error.textContent.trim() !== tmQueue.error;
    var next = tmQueue.melds;
    var inHand = next[0].cards.every(function (id) { return $('#table-hand [data-card="' + id + '"]'); });
    tmQueue = null;
    if (refusedNow || !tmRules().acting || !inHand) return;
    tmSendQueued(next);
  }

  function tmMeld() {
    var plan = tmPlan();
    if (!tmSelected.length && plan && plan.melds && plan.melds.length) {
      // Before the first lay-down: propose the whole opening the solver found (it reaches the threshold),
      // never one meld of it that would fall short; a second « Déposer » lays it all.
      tmProposal = plan;
      tmSelect(tmPlanCards(plan), null);
      return;
    }
    if (tmProposing()) {
      var melds = tmProposal.melds.slice();
      tmProposal = null;
      tmSendQueued(melds);
      return;
    }
    if (!tmSelected.length) {
      var chip = $("[data-tm-pick]");
      if (chip) { tmPick(chip); hint("Voici ta meilleure combinaison : touche encore « Déposer » pour la poser."); }
      else hint("Choisis d'abord les cartes à poser (au moins 3).");
      return;
    }
    if (tmChip && tmChip.key === tmKey(tmSelected)) {
      tmSend({ action: "meld", cards: tmSelected.slice(), wilds: tmChip.wilds }, tmSelected[0]);
      return;
    }
    var readings = tmRead(tmSelected, tmRules());
    var withJokers = readings.filter(function (r) { return Object.keys(r.wilds).length; });
    if (readings.length > 1 && withJokers.length) {
      tmChooserShow(readings);
      return;
    }
    tmSend({ action: "meld", cards: tmSelected.slice() }, tmSelected[0]);
  }

  function tmChooserShow(readings) {
    var box = $("[data-tm-chooser]");
    var options = $("[data-tm-options]");
    if (!box || !options) return;
    options.innerHTML = "";
    readings.slice().sort(function (a, b) { return b.points - a.points; }).forEach(function (reading) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "button tm-option";
      b.textContent = tmDescribe(reading, tmSelected.length);
      b.addEventListener("click", function () {
        tmChooserHide();
        tmSend({ action: "meld", cards: tmSelected.slice(), wilds: reading.wilds }, tmSelected[0]);
      });
      options.appendChild(b);
    });
    box.hidden = false;
    var first = $("button", options);
    if (first) first.focus();
  }

  function tmChooserHide() {
    var box = $("[data-tm-chooser]");
    if (box && !box.hidden) box.hidden = true;
  }

  function tmPick(chip) {
    var ids = [], wilds = null;
    try { ids = JSON.parse(chip.getAttribute("data-tm-pick") || "[]"); } catch (e) { ids = []; }
    try { wilds = chip.getAttribute("data-tm-wilds") ? JSON.parse(chip.getAttribute("data-tm-wilds")) : null; } catch (e) { wilds = null; }
    tmSelect(ids, wilds);
  }

  /** A chosen card (or the choice) put on a table spot: lay_off, swap_joker or discard. */
  function tmDropOn(target, ids) {
    var kind = target.getAttribute("data-drop");
    if (!ids.length) {
      hint(kind === "discard" ? "Choisis d'abord la carte à défausser." : "Choisis d'abord une carte de ta main, puis touche cet endroit.");
      return;
    }
    if (kind === "discard") {
      if (ids.length !== 1) { hint("Choisis une seule carte à défausser."); return; }
      tmSend({ action: "discard", card: ids[0] }, ids[0]);
    } else if (kind === "swap_joker") {
      tmSend({ action: "swap_joker", cards: ids, meld_id: target.getAttribute("data-meld-id"), joker: target.getAttribute("data-joker") }, ids[0]);
    } else if (kind === "lay_off") {
      var move = { action: "lay_off", cards: ids, meld_id: target.getAttribute("data-meld-id") };
      var end = target.getAttribute("data-end");
      if (end) {
        move.end = end;
      } else if (target.classList.contains("tm-meld") && ids.length === 1) {
        // Dropped on the meld itself: the end the card fits, when there is only one.
        var ends = tmTargets(ids).layoffs.filter(function (t) { return t.split(":")[0] === move.meld_id; })
          .map(function (t) { return t.split(":")[1]; }).filter(Boolean);
        if (ends.length === 1) move.end = ends[0];
      }
      tmSend(move, ids[0]);
    }
  }

  function tmAct(button) {
    var act = button.getAttribute("data-tm-act");
    if (act === "meld") { tmMeld(); return; }
    if (act === "discard") {
      if (tmSelected.length !== 1) { hint(tmSelected.length ? "Choisis une seule carte à défausser." : "Touche la carte à défausser, puis « Défausser »."); return; }
      tmSend({ action: "discard", card: tmSelected[0] }, tmSelected[0]);
      return;
    }
    if (!tmSelected.length) {
      hint(act === "swap_joker" ? "Choisis la carte que remplace le joker, puis touche le joker sur la table."
        : "Choisis d'abord la carte à ajouter, puis touche une flèche bleue sur la table.");
      return;
    }
    var targets = tmTargets(tmSelected)[act === "swap_joker" ? "swaps" : "layoffs"];
    if (targets.length === 1) {
      var parts = targets[0].split(":");
      if (act === "swap_joker") tmSend({ action: "swap_joker", cards: tmSelected.slice(), meld_id: parts[0], joker: parts[1] }, tmSelected[0]);
      else tmSend(Object.assign({ action: "lay_off", cards: tmSelected.slice(), meld_id: parts[0] }, parts[1] ? { end: parts[1] } : {}), tmSelected[0]);
      return;
    }
    hint(targets.length ? (act === "swap_joker" ? "Touche le joker à reprendre (en surbrillance)." : "Touche la flèche bleue où ajouter (en surbrillance).")
      : (act === "swap_joker" ? "Ces cartes ne remplacent aucun joker de la table : touche quand même un joker pour essayer."
        : "Ces cartes ne complètent aucune combinaison : touche quand même une flèche pour essayer."));
  }

  function tmEscape() {
    var box = $("[data-tm-chooser]:not([hidden])");
    if (box) { tmChooserHide(); return true; }
    if (tmHand() && tmSelected.length) { tmSelected = []; tmChip = null; tmRefresh(); return true; }
    return false;
  }

  // Drag a hand card onto a table spot (an arrow, a joker, a meld, the discard pile).
  function tmDropAt(x, y) {
    var el = document.elementFromPoint(x, y);
    var target = el && el.closest && el.closest("#table-centre [data-drop]");
    return target && !target.closest(".tm-table:not(.is-actionable)") ? target : null;
  }

  function tmDragStart(card) {
    var hand = tmHand();
    if (!hand || !card) { tmDrag = null; return; }
    tmDrag = { card: card.getAttribute("data-card"), order: T.hand.order(T.hand.groups(hand)) };
    document.body.classList.add("tm-dragging");
    var ids = tmSelected.indexOf(tmDrag.card) >= 0 ? tmSelected : [tmDrag.card];
    var saved = tmSelected;
    tmSelected = ids;
    tmUpdate();
    tmSelected = saved;
  }

  var tmPointer = { x: -1, y: -1 };

  function tmTrack(event) {
    var point = event.touches && event.touches[0] ? event.touches[0] : event;
    if (point.clientX === undefined) return;
    tmPointer.x = point.clientX;
    tmPointer.y = point.clientY;
    if (!tmDrag) return;
    var target = tmDropAt(tmPointer.x, tmPointer.y);
    $all(".drop-hover").forEach(function (el) { if (el !== target) el.classList.remove("drop-hover"); });
    if (target) target.classList.add("drop-hover");
  }

  /** True when the drop was on a table spot (the move is sent and the hand keeps its order). */
  function tmDragEnd() {
    var drag = tmDrag;
    tmDrag = null;
    document.body.classList.remove("tm-dragging");
    $all(".drop-hover").forEach(function (el) { el.classList.remove("drop-hover"); });
    if (!drag || tmPointer.x < 0) { tmUpdate(); return false; }
    var target = tmDropAt(tmPointer.x, tmPointer.y);
    if (!target) { tmUpdate(); return false; }
    var hand = T.hand.box();
    if (hand) tmRestoreOrder(hand, drag.order);
    var ids = tmSelected.indexOf(drag.card) >= 0 ? tmSelected.slice() : [drag.card];
    tmDropOn(target, ids);
    T.hand.init();
    tmRefresh();
    // Dropped outside the hand, the browser sends no click after the mouseup, and SortableJS would
    // swallow the player's next real click instead: hand it a harmless one now (and take the next one).
    T.forgetDrag();
    window.setTimeout(function () {
      document.body.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    }, 0);
    return true;
  }

  function tmRestoreOrder(hand, order) {
    var byId = {};
    $all("[data-card]", hand).forEach(function (c) { byId[c.getAttribute("data-card")] = c; });
    var groups = [], current = [];
    order.split(",").forEach(function (item) {
      if (item === "|") { if (current.length) groups.push(current); current = []; }
      else if (byId[item]) current.push(byId[item]);
    });
    if (current.length) groups.push(current);
    T.hand.rebuild(hand, groups);
  }

  ["pointermove", "mousemove", "touchmove"].forEach(function (name) {
    document.addEventListener(name, tmTrack, { passive: true, capture: true });
  });

  document.addEventListener("click", function (event) {
    if (!tmHand()) return;
    var card = event.target.closest("#table-hand [data-card]");
    if (card) {
      if (T.justDragged()) return;
      tmToggle(card);
      return;
    }
    var el = event.target.closest("button");
    if (!el) return;
    if (el.getAttribute("aria-disabled") === "true") {
      if (el.hasAttribute("data-tm-act")) hint(el.getAttribute("data-reason") || "");  // « Aucune combinaison … »
      return;
    }
    if (el.hasAttribute("data-tm-act")) tmAct(el);
    else if (el.hasAttribute("data-tm-pick")) tmPick(el);
    else if (el.hasAttribute("data-tm-chooser-cancel")) tmChooserHide();
    else if (el.hasAttribute("data-drop")) tmDropOn(el, tmSelected.slice());
  });

  T.register({ refresh: tmRefresh, settled: tmFlushQueue, dragStart: tmDragStart, dragEnd: tmDragEnd,
               escape: tmEscape });
})();
