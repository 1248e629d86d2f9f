/* The live table: small, no framework.
 *
 * htmx + its ws extension do the heavy lifting: the page holds ONE socket (ws-connect on #table-root),
 * clicks leave as JSON frames (ws-send + hx-vals) and every push is swapped by id. This file adds:
 *  - the HTTP fallback (POST to tables:action) when the socket is closed;
 *  - « Je ferme ! » / « Frapper » mode: only closable cards light up, a click sends close/knock;
 *  - drag and drop of the hand with SortableJS (static/vendor/sortablejs), new group in the gaps;
 *  - the turn countdown and timer rings, focus kept across pushes, the refused card shaking;
 *  - invite link copy, the side drawer on phones, confirm() before leaving;
 *  - table-meld rummies (#table-hand[data-tm]): choosing cards, « Déposer » (with a joker chooser),
 *    laying off / swapping a joker by drag and drop or by tapping a blue arrow / a joker, « Défausser ».
 */
(function () {
  "use strict";

  var reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  var root = null;
  var sock = null;            // the ws extension's public socket wrapper (send, reconnect)
  var sockState = "connecting";
  var reconnectTries = 0;
  var mode = null;            // null | "close" | "knock"
  var lastCard = null;        // id of the last card clicked (shakes if the server refuses it)
  var dragging = false;
  var draggedAt = 0;
  var deferred = [];          // pushes that arrived during a drag, applied after the drop
  var localOrder = null;      // the hand order I sent last (kept across pushes until the server has it)
  var sortables = [];
  var lastStatusText = "";
  var lastMoveText = null;    // the last-move line (#table-last-move) read out last
  var focusKey = null;
  var before = null;          // what the table showed before a push (to animate what changed)
  var errorTimer = null;

  function $(sel, ctx) { return (ctx || document).querySelector(sel); }
  function $all(sel, ctx) { return Array.prototype.slice.call((ctx || document).querySelectorAll(sel)); }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || "";
    } catch (e) { return ""; }
  }

  function announce(text) {
    var live = $("#table-live");
    if (!live || !text) return;
    live.textContent = "";
    window.setTimeout(function () { live.textContent = text; }, 60);
  }

  // ------------------------------------------------------------------ sending

  function sendFrame(payload) {
    if (sock && sockState === "open") {
      sock.send(JSON.stringify(payload));
    } else {
      postFrame(payload);
    }
  }

  /** HTTP fallback: the same fields, POSTed to tables:action; the reply holds the same partial roots. */
  function postFrame(params) {
    if (!root) return Promise.resolve();
    var body = new URLSearchParams();
    Object.keys(params).forEach(function (key) {
      if (key === "HEADERS") return;
      var value = params[key];
      body.append(key, value !== null && typeof value === "object" ? JSON.stringify(value) : String(value));
    });
    return fetch(root.getAttribute("data-action-url"), {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrfToken(), "HX-Request": "true" },
      body: body
    }).then(function (response) {
      return response.text();
    }).then(function (html) {
      applyHtml(html, true);
    }).catch(function () {
      showConn("Le serveur ne répond pas. Vérifie ta connexion.", true);
    });
  }

  /** Swap every top-level element of `html` by its id, like the ws extension does for a push. */
  function applyHtml(html, settle) {
    rememberBefore();
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    Array.prototype.slice.call(tpl.content.children).forEach(function (el) {
      if (!el.id || !document.getElementById(el.id)) return;
      if (settle && window.htmx && htmx.swap) {
        htmx.swap("#" + el.id, el.outerHTML, { swapStyle: "outerHTML" });
      } else {
        var old = document.getElementById(el.id);
        old.replaceWith(el);
        if (window.htmx) htmx.process(el);
      }
    });
    window.setTimeout(afterUpdate, settle ? 60 : 0);
  }

  // ------------------------------------------------------------------ socket life

  function showConn(text, bad) {
    var banner = $("#table-conn");
    if (!banner) return;
    banner.textContent = text || "";
    banner.hidden = !text;
    banner.classList.toggle("bad", !!bad);
  }

  document.addEventListener("htmx:wsOpen", function (event) {
    sock = event.detail.socketWrapper;
    sockState = "open";
    reconnectTries = 0;
    showConn("");
  });

  document.addEventListener("htmx:wsClose", function (event) {
    sock = event.detail.socketWrapper;
    sockState = "closed";
    var code = event.detail.event && event.detail.event.code;
    if (code === 4401 || code === 4403) {
      showConn("Tu n'es plus connecté à cette table. Recharge la page.", true);
      return;
    }
    showConn("Connexion perdue… nouvelle tentative. Tes coups passent quand même.", true);
    // The extension retries by itself on 1006/1011/1012/1013; retry the other closures too.
    if ([1006, 1011, 1012, 1013].indexOf(code) < 0 && reconnectTries < 8 && sock && sock.reconnect) {
      reconnectTries += 1;
      window.setTimeout(function () { if (sockState === "closed") sock.reconnect(); }, 1500 * reconnectTries);
    }
  });

  var VERSION_RE = /id="table-status"[^>]*?data-version="(\d+)"/;

  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    // Pushes may overtake each other (each move is pushed by whoever committed it): never go back.
    var pushed = VERSION_RE.exec(event.detail.message || "");
    var shown = tmVersion();
    if (pushed && shown !== null && parseInt(pushed[1], 10) < shown) {
      event.preventDefault();
      return;
    }
    if (dragging) {
      deferred.push(event.detail.message);
      event.preventDefault();
      return;
    }
    rememberBefore();
  });

  document.addEventListener("htmx:wsAfterMessage", function (event) {
    var message = event.detail.message || "";
    afterUpdate();
    if (message.indexOf('id="table-error"') >= 0 && message.indexOf('id="table-status"') < 0) {
      refused();
    }
  });

  document.addEventListener("htmx:wsConfigSend", function (event) {
    var elt = event.target;
    var params = event.detail.parameters;
    var trigger = event.detail.triggeringEvent;
    // The buttons carry no version (a piece that did not change is not drawn again): the move is made on
    // the table this page shows.
    if ((params.kind === "move" || params.kind === "coach") && params.version === undefined) params.version = tmVersion();
    if (elt.matches && elt.matches("[data-card]")) {
      if (Date.now() - draggedAt < 400) { event.preventDefault(); return; }
      if (mode) {
        if (!elt.hasAttribute("data-closable")) {
          event.preventDefault();
          hint(mode === "close"
            ? "Cette carte ne permet pas de fermer : choisis une carte en surbrillance."
            : "Avec cette carte, tu ne peux pas frapper : choisis une carte en surbrillance.");
          shake(elt);
          return;
        }
        params.action = mode;
      }
      lastCard = elt.getAttribute("data-card");
    } else {
      lastCard = null;
    }
    if (sockState !== "open") {
      // The socket is down: same fields over HTTP, and no native form submission.
      event.preventDefault();
      if (trigger) trigger.preventDefault();
      postFrame(Object.assign({}, params)).then(function () {
        if (elt.matches && elt.matches("[data-chat-form]")) elt.reset();
      });
    }
  });

  document.addEventListener("htmx:wsAfterSend", function (event) {
    var elt = event.target;
    if (elt.matches && elt.matches("[data-chat-form]")) {
      elt.reset();
      var input = $("#chat-text");
      if (input) input.focus();
    }
  });

  // ------------------------------------------------------------------ after every push

  function focusSelector(el) {
    if (!el || el === document.body) return null;
    if (el.getAttribute("data-card")) return '[data-card="' + el.getAttribute("data-card") + '"]';
    if (el.id) return "#" + el.id;
    if (el.getAttribute("data-mode")) return '[data-mode="' + el.getAttribute("data-mode") + '"]';
    if (el.hasAttribute("data-sort-hand")) return "[data-sort-hand]";
    var part = el.closest("[id]");
    if (part && (el.tagName === "BUTTON" || el.tagName === "A")) {
      var list = $all("button, a", part);
      return { part: part.id, index: list.indexOf(el), text: el.textContent.trim() };
    }
    return null;
  }

  function rememberBefore() {
    focusKey = focusSelector(document.activeElement);
    var top = $("#table-centre .discard .card");
    var error = $("#table-error");
    before = {
      hand: $all("#table-hand [data-card]").map(function (c) { return c.getAttribute("data-card"); }),
      discard: top ? top.getAttribute("aria-label") : null,
      roundOpen: !!$("#table-round-end.is-open"),
      error: error && error.textContent.trim() ? error.innerHTML : null,
      version: tmVersion()
    };
  }

  /** A push that changes nothing in the game (someone connected, say) keeps the refusal shown. */
  function keepError() {
    if (!before || !before.error || before.version === null || tmVersion() !== before.version) return;
    var error = $("#table-error");
    if (error && !error.textContent.trim()) error.innerHTML = before.error;
  }

  function restoreFocus() {
    if (!focusKey || (document.activeElement && document.activeElement !== document.body)) return;
    var target = null;
    if (typeof focusKey === "string") {
      target = $(focusKey);
    } else {
      var part = document.getElementById(focusKey.part);
      if (part) {
        var list = $all("button, a", part);
        target = list.filter(function (b) { return b.textContent.trim() === focusKey.text; })[0] || list[focusKey.index];
      }
    }
    if (!target && typeof focusKey === "string" && focusKey.indexOf("data-card") >= 0) {
      target = $("#table-hand [data-card]");  // the focused card left the hand: stay in the hand
    }
    if (target) target.focus({ preventScroll: true });
    focusKey = null;
  }

  function animateChanges() {
    if (reducedMotion || !before) return;
    var known = {};
    before.hand.forEach(function (id) { known[id] = true; });
    if (before.hand.length) {
      $all("#table-hand [data-card]").forEach(function (card) {
        if (!known[card.getAttribute("data-card")]) animateOnce(card, "arrive");
      });
    }
    var top = $("#table-centre .discard .card");
    if (top && before.discard !== null && top.getAttribute("aria-label") !== before.discard) animateOnce(top, "land");
    before = null;
  }

  /** The class goes once its animation is over: the piece is again what the server sent, and an unchanged
   *  piece is not swapped again (below). */
  function animateOnce(el, name) {
    el.classList.add(name);
    el.addEventListener("animationend", function () { el.classList.remove(name); }, { once: true });
  }

  // A piece that arrives unchanged is left in place: no DOM work, and a tap under way on it (the stock, a
  // card) is not lost to a copy swapped in under the finger. Every push carries every piece.
  document.addEventListener("htmx:oobBeforeSwap", function (event) {
    var incoming = event.detail.fragment && event.detail.fragment.firstElementChild;
    if (incoming && event.detail.target && event.detail.target.isEqualNode(incoming)) event.detail.shouldSwap = false;
  });

  function afterUpdate() {
    root = $("#table-root");
    if (!root) return;
    // The match is settled: the header's tokens follow the ledger without a reload.
    var balance = $("[data-my-balance]"), tokens = $("#my-tokens");
    if (balance && tokens) tokens.textContent = balance.getAttribute("data-my-balance") + " jetons";
    var status = $("#table-status");
    if (status) root.setAttribute("data-status", status.getAttribute("data-status"));
    var roundEnd = $("#table-round-end");
    var wasOpen = before && before.roundOpen;
    keepError();
    applyLocalOrder();
    animateChanges();
    initHand();
    initTimers();
    syncMode();
    tmRefresh();
    fitHand();
    restoreFocus();
    fillInviteUrl();
    coachSync();
    var said = [];
    var moveText = lastMoveLine();
    if (moveText && moveText !== lastMoveText && lastMoveText !== null) said.push(moveText);
    lastMoveText = moveText;
    if (status) {
      var text = statusText(status);
      if (text && text !== lastStatusText) {
        if (lastStatusText) said.push(text);
        lastStatusText = text;
      }
    }
    if (said.length) announce(said.join(" "));  // « Dernier coup : Robot Expert a pioché, … » then whose turn
    tmFlushQueue();
    if (roundEnd && roundEnd.classList.contains("is-open") && wasOpen === false) {
      var title = $("#round-end-title");
      if (title) title.focus({ preventScroll: true });
    }
    var error = $("#table-error");
    if (error && error.textContent.trim()) {
      window.clearTimeout(errorTimer);
      errorTimer = window.setTimeout(function () {
        var current = $("#table-error");
        if (current) current.innerHTML = "";
      }, 9000);
    }
  }

  /** The status line's main sentence (« À toi de jouer ! »), without the « Conseil (n) » button in it. */
  function statusText(status) {
    var main = status && $(".status-main", status);
    if (!main) return "";
    var copy = main.cloneNode(true);
    $all(".coach-button", copy).forEach(function (b) { b.remove(); });
    return copy.textContent.replace(/\s+/g, " ").trim();
  }

  /** What #table-last-move says (the last turn, public moves only: templates/tables/live/status.jinja). */
  function lastMoveLine() {
    var line = $("#table-last-move");
    return line ? line.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function refused() {
    if (!lastCard) return;
    var card = $('#table-hand [data-card="' + lastCard + '"]');
    if (card) shake(card);
    lastCard = null;
  }

  function shake(el) {
    el.classList.remove("shake");
    void el.offsetWidth;  // restart the animation
    el.classList.add("shake");
    el.addEventListener("animationend", function () { el.classList.remove("shake"); }, { once: true });
  }

  // ------------------------------------------------------------------ close / knock mode

  function hint(text) {
    var box = $("[data-mode-hint]");
    if (!box) return;
    box.textContent = text || "";
    box.hidden = !text;
  }

  function setMode(next) {
    mode = next;
    var hand = $("#table-hand");
    if (hand) hand.classList.toggle("closing", !!mode);
    $all("[data-mode]").forEach(function (b) {
      b.setAttribute("aria-pressed", String(b.getAttribute("data-mode") === mode));
    });
    if (mode === "close") hint("Touche la carte à défausser pour fermer : elles sont en surbrillance. Échap pour annuler.");
    else if (mode === "knock") hint("Touche la carte à défausser pour frapper : elles sont en surbrillance. Échap pour annuler.");
    else hint("");
  }

  function syncMode() {
    if (mode && !$('[data-mode="' + mode + '"]')) mode = null;
    setMode(mode);
  }

  // ------------------------------------------------------------------ the hand: order, drag and drop, fit

  function handBox() { return $("#table-hand [data-hand]"); }

  function groupsOf(hand) {
    return $all(":scope > .hand-group, :scope > .hand-gap", hand).map(function (box) {
      return $all("[data-card]", box);
    }).filter(function (cards) { return cards.length; });
  }

  function orderString(groups) {
    return groups.map(function (cards) {
      return cards.map(function (c) { return c.getAttribute("data-card"); }).join(",");
    }).join(",|,");
  }

  /** Rebuild the hand's DOM from groups of card elements: gap, group, gap, group, …, gap. */
  function rebuild(hand, groups) {
    destroySortables();
    while (hand.firstChild) hand.removeChild(hand.firstChild);
    groups.forEach(function (cards) {
      hand.appendChild(gap());
      var box = document.createElement("div");
      box.className = "hand-group";
      box.setAttribute("data-group", "");
      box.setAttribute("role", "group");
      var meld = cards.every(function (c) { return c.hasAttribute("data-meld"); });
      var points = cards.reduce(function (sum, c) { return sum + (parseInt(c.getAttribute("data-points"), 10) || 0); }, 0);
      box.classList.toggle("is-meld", meld);
      box.setAttribute("aria-label", meld ? "Combinaison" : "Cartes hors combinaison, " + points + " points");
      cards.forEach(function (c) { box.appendChild(c); });
      hand.appendChild(box);
    });
    hand.appendChild(gap());
  }

  function gap() {
    var g = document.createElement("div");
    g.className = "hand-gap";
    g.setAttribute("data-gap", "");
    g.setAttribute("aria-hidden", "true");
    return g;
  }

  /** The server renders my saved order; until it has the last one I sent, re-apply it locally. */
  function applyLocalOrder() {
    var hand = handBox();
    if (!hand || !localOrder) return;
    var byId = {};
    $all("[data-card]", hand).forEach(function (c) { byId[c.getAttribute("data-card")] = c; });
    var groups = [], current = [], placed = {};
    localOrder.split(",").forEach(function (item) {
      if (item === "|") {
        if (current.length) groups.push(current);
        current = [];
      } else if (byId[item] && !placed[item]) {
        current.push(byId[item]);
        placed[item] = true;
      }
    });
    if (current.length) groups.push(current);
    var rest = $all("[data-card]", hand).filter(function (c) { return !placed[c.getAttribute("data-card")]; });
    if (rest.length) groups.push(rest);
    if (orderString(groups) !== orderString(groupsOf(hand))) rebuild(hand, groups);
  }

  function saveOrder() {
    var hand = handBox();
    if (!hand) return;
    var groups = groupsOf(hand);
    rebuild(hand, groups);
    localOrder = orderString(groups);
    sendFrame({ kind: "order", order: localOrder });
    initHand();
    fitHand();
  }

  function destroySortables() {
    sortables.forEach(function (s) { try { s.destroy(); } catch (e) { /* already gone */ } });
    sortables = [];
  }

  function initHand() {
    var hand = handBox();
    destroySortables();
    if (!hand || !window.Sortable) return;
    $all(":scope > .hand-group, :scope > .hand-gap", hand).forEach(function (box) {
      sortables.push(Sortable.create(box, {
        group: "hand",
        draggable: "[data-card]",
        animation: reducedMotion ? 0 : 150,
        forceFallback: true,          // buttons drag the same way everywhere, mouse and touch
        fallbackOnBody: true,
        fallbackTolerance: 4,
        delay: 160,
        delayOnTouchOnly: true,
        touchStartThreshold: 4,
        emptyInsertThreshold: 18,
        ghostClass: "card-ghost",
        chosenClass: "card-chosen",
        fallbackClass: "card-drag",
        onStart: function (evt) {
          dragging = true;
          tmDragStart(evt.item);
          document.body.classList.add("hand-dragging");
          fitHand();                  // the gaps open up: make room for them
        },
        onEnd: function (evt) {
          dragging = false;
          draggedAt = Date.now();
          document.body.classList.remove("hand-dragging");
          if (!tmDragEnd(evt.item)) saveOrder();
          var queued = deferred;
          deferred = [];
          queued.forEach(function (html) { applyHtml(html, false); });
        }
      }));
    });
  }

  /**
   * Overlap the cards just enough for the whole hand to fit its row (14 cards at 360 px). Cards overlap
   * inside a group first; when that is not enough (many small groups), the groups overlap too, with a
   * narrower gap left between them.
   */
  function fitHand() {
    var hand = handBox();
    if (!hand) return;
    var cards = $all("[data-card]", hand);
    var groups = $all(":scope > .hand-group", hand).length;
    if (!cards.length) return;
    hand.classList.remove("is-wrapped");
    hand.style.setProperty("--step", "4px");
    hand.style.removeProperty("--join");
    hand.style.removeProperty("--group-gap");
    var width = hand.clientWidth - 8;
    var cardW = cards[0].offsetWidth;   // layout width: a card arriving is scaled down by its animation
    var maxOverlap = cardW * 0.7;
    // Tiles print a number at their left edge, wider than a card's corner: the next tile leaves it whole.
    var tiles = cards[0].classList.contains("tile");
    if (tiles) maxOverlap = Math.max(0, Math.min(maxOverlap, cardW - tileNumberWidth(cards)));
    var inner = cards.length - groups;
    var natural = cards.length * cardW + inner * 4 + gapsWidth(hand);
    if (natural <= width) return;
    var overlap = inner > 0 ? (cards.length * cardW + gapsWidth(hand) - width) / inner : Infinity;
    if (overlap <= maxOverlap) {
      hand.style.setProperty("--step", (-overlap).toFixed(1) + "px");
      return;
    }
    hand.style.setProperty("--group-gap", "6px");
    // the gaps' width eases in: while not dragging, count what they will be
    var gaps = dragging ? gapsWidth(hand) : Math.max(groups - 1, 0) * 6;
    overlap = (cards.length * cardW + gaps - width) / (cards.length - 1);
    if (tiles && overlap > maxOverlap) {
      wrapHand(hand, cards.length, inner, cardW, maxOverlap, width, gaps);
      return;
    }
    overlap = Math.min(overlap, maxOverlap);
    hand.style.setProperty("--step", (-overlap).toFixed(1) + "px");
    hand.style.setProperty("--join", (-overlap).toFixed(1) + "px");
  }

  // How much of a tile the next one must leave uncovered: its widest number, and a pixel either side.
  function tileNumberWidth(tiles) {
    return tiles.reduce(function (widest, tile) {
      var n = $(".tile-n", tile);
      return n ? Math.max(widest, n.offsetLeft + n.offsetWidth + 2) : widest;
    }, 0);
  }

  // Too many tiles for one row even at the tightest overlap: the hand takes as few rows as it can, each group
  // kept whole on its row (groups side by side, no longer overlapping), the tiles of a group as loose as the
  // rows allow.
  function wrapHand(hand, count, inner, cardW, maxOverlap, width, gaps) {
    hand.classList.add("is-wrapped");
    hand.style.removeProperty("--join");
    for (var rows = 2; rows <= 8; rows++) {
      var overlap = inner > 0 ? (count * cardW + gaps - rows * width * 0.9) / inner : 0;
      overlap = Math.min(Math.max(overlap, 0), maxOverlap);
      hand.style.setProperty("--step", (-overlap).toFixed(1) + "px");
      if (rowsOf(hand) <= rows || overlap >= maxOverlap) return;
    }
  }

  function rowsOf(hand) {
    var tops = {};
    $all(":scope > .hand-group", hand).forEach(function (g) { tops[g.offsetTop] = true; });
    return Object.keys(tops).length;
  }

  function gapsWidth(hand) {
    return $all(":scope > .hand-gap", hand).reduce(function (sum, g) { return sum + g.offsetWidth; }, 0);
  }

  function moveCard(card, delta) {
    var hand = handBox();
    if (!hand) return;
    var groups = groupsOf(hand).map(function (g) { return g.slice(); });
    var gi = -1, ci = -1;
    groups.forEach(function (g, i) { var j = g.indexOf(card); if (j >= 0) { gi = i; ci = j; } });
    if (gi < 0) return;
    groups[gi].splice(ci, 1);
    var target = ci + delta;
    if (target < 0) {
      if (gi > 0) groups[gi - 1].push(card); else groups[gi].splice(0, 0, card);
    } else if (target > groups[gi].length) {
      if (gi < groups.length - 1) groups[gi + 1].unshift(card); else groups[gi].push(card);
    } else {
      groups[gi].splice(target, 0, card);
    }
    groups = groups.filter(function (g) { return g.length; });
    rebuild(hand, groups);
    localOrder = orderString(groups);
    sendFrame({ kind: "order", order: localOrder });
    initHand();
    fitHand();
    card.focus();
  }

  // ------------------------------------------------------------------ timers

  function initTimers() {
    var now = Date.now();
    $all("[data-remaining]:not([data-end])").forEach(function (el) {
      el.setAttribute("data-end", String(now + (parseInt(el.getAttribute("data-remaining"), 10) || 0) * 1000));
    });
    tick();
  }

  function tick() {
    var now = Date.now();
    $all("[data-end]").forEach(function (el) {
      var left = Math.max(0, (parseInt(el.getAttribute("data-end"), 10) - now) / 1000);
      var total = parseInt(el.getAttribute("data-total"), 10) || 30;
      el.style.setProperty("--frac", Math.min(1, left / total).toFixed(3));
      el.classList.toggle("urgent", left <= 5);
      var num = $(".countdown-num", el);
      if (num) num.textContent = String(Math.ceil(left));
      if (left <= 5 && left > 0 && !el.hasAttribute("data-warned") && el.closest("#table-status.my-turn")) {
        el.setAttribute("data-warned", "");
        announce("Plus que 5 secondes !");
      }
    });
  }

  // ------------------------------------------------------------------ table-meld rummies

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

  function tmVersion() {
    var status = $("#table-status");
    return status ? parseInt(status.getAttribute("data-version"), 10) : null;
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

  function tmSend(payload, firstCard) {
    var frame = Object.assign({ kind: "move" }, payload, { version: tmVersion() });
    lastCard = firstCard || null;
    sendFrame(frame);
  }

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
    tmQueue = melds.length > 1 ? { melds: melds.slice(1), version: tmVersion(), error: error ? error.textContent.trim() : "" } : null;
    tmSend(Object.assign({ action: "meld", cards: first.cards.slice() }, first.wilds ? { wilds: first.wilds } : {}), first.cards[0]);
  }

  function tmFlushQueue() {
    if (!tmQueue) return;
    if (tmVersion() === tmQueue.version) return;  // the push of the meld just sent has not come yet
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
    tmDrag = { card: card.getAttribute("data-card"), order: orderString(groupsOf(hand)) };
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
    var hand = handBox();
    if (hand) tmRestoreOrder(hand, drag.order);
    var ids = tmSelected.indexOf(drag.card) >= 0 ? tmSelected.slice() : [drag.card];
    tmDropOn(target, ids);
    initHand();
    tmRefresh();
    // Dropped outside the hand, the browser sends no click after the mouseup, and SortableJS would
    // swallow the player's next real click instead: hand it a harmless one now (and take the next one).
    draggedAt = 0;
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
    rebuild(hand, groups);
  }

  ["pointermove", "mousemove", "touchmove"].forEach(function (name) {
    document.addEventListener(name, tmTrack, { passive: true, capture: true });
  });

  document.addEventListener("click", function (event) {
    if (!tmHand()) return;
    var card = event.target.closest("#table-hand [data-card]");
    if (card) {
      if (Date.now() - draggedAt < 400) return;
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

  // ------------------------------------------------------------------ small things

  function fillInviteUrl() {
    var input = $("#invite-url");
    if (input && !input.value) input.value = location.origin + input.getAttribute("data-invite-path");
  }

  function copyInvite(button) {
    var input = $(button.getAttribute("data-copy"));
    var done = $("[data-copy-done]");
    if (!input) return;
    fillInviteUrl();
    var ok = function () { if (done) done.textContent = "Lien copié : envoie-le à ton ami."; };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(ok, function () { input.select(); });
    } else {
      input.focus();
      input.select();
      try { if (document.execCommand("copy")) ok(); } catch (e) { /* selected: the player copies by hand */ }
    }
  }

  function toggleDrawer(open) {
    var panel = $("#side-panel");
    if (!panel) return;
    var show = typeof open === "boolean" ? open : !panel.classList.contains("open");
    panel.classList.toggle("open", show);
    document.body.classList.toggle("drawer-open", show);
    $all("[data-drawer-toggle]").forEach(function (b) { b.setAttribute("aria-expanded", String(show)); });
    if (show) { var first = $(".drawer-close", panel); if (first) first.focus(); }
    else { var t = $(".drawer-toggle"); if (t) t.focus(); }
  }

  document.addEventListener("click", function (event) {
    var el = event.target.closest("button, a");
    if (!el) return;
    if (el.getAttribute("aria-disabled") === "true") {
      event.preventDefault();
      var reason = el.getAttribute("title");
      if (reason) hint(reason);
      return;
    }
    if (el.hasAttribute("data-mode")) {
      setMode(mode === el.getAttribute("data-mode") ? null : el.getAttribute("data-mode"));
      var first = $("#table-hand [data-closable]");
      if (mode && first) first.focus();
    } else if (el.hasAttribute("data-sort-hand")) {
      localOrder = null;
      postFrame({ kind: "order", order: "" });
    } else if (el.hasAttribute("data-copy")) {
      copyInvite(el);
    } else if (el.hasAttribute("data-drawer-toggle")) {
      toggleDrawer();
    } else if (el.hasAttribute("data-nav-toggle")) {
      // the site's links, folded behind « ☰ Menu » on a phone's table page (static/css/site.css)
      var open = el.getAttribute("aria-expanded") !== "true";
      el.setAttribute("aria-expanded", String(open));
      el.closest(".site-header").classList.toggle("nav-open", open);
    } else if (el.hasAttribute("data-round-end-hide")) {
      var panel = $("#table-round-end");
      if (panel) panel.classList.add("is-hidden");
      var show = $("[data-round-end-show]");
      if (show) show.focus();
    } else if (el.hasAttribute("data-round-end-show")) {
      var results = $("#table-round-end");
      if (results) {
        results.classList.remove("is-hidden");
        var title = $("#round-end-title");
        if (title) title.focus();
      }
    }
  });

  document.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      if (mode) { setMode(null); return; }
      if (tmEscape()) return;
      var panel = $("#side-panel.open");
      if (panel) toggleDrawer(false);
      return;
    }
    if (shortcut(event)) return;
    var card = event.target.closest && event.target.closest("#table-hand [data-card]");
    if (card && (event.key === "Home" || event.key === "End")) {
      event.preventDefault();
      var all = $all("#table-hand button[data-card]");
      var edge = event.key === "Home" ? all[0] : all[all.length - 1];
      if (edge) edge.focus();
      return;
    }
    if (!card || (event.key !== "ArrowLeft" && event.key !== "ArrowRight")) return;
    event.preventDefault();
    var delta = event.key === "ArrowLeft" ? -1 : 1;
    if (event.shiftKey || event.altKey) {
      moveCard(card, delta);  // Maj + flèche : déplacer la carte dans la main
    } else {
      var cards = $all("#table-hand button[data-card]");
      var next = cards[cards.indexOf(card) + delta];
      if (next) next.focus();
    }
  });

  // ------------------------------------------------------------------ keyboard: shortcuts, help, coach

  /** A one-letter key of the table (templates/tables/keys_help.html): the button carrying data-key="<key>"
   * is pressed; a disabled one says why (its title) in the hint line and the live region. */
  function shortcut(event) {
    if (!root || event.ctrlKey || event.metaKey || event.altKey || event.defaultPrevented) return false;
    var t = event.target;
    // An open dialog keeps its keys; a closed one may still hold the focus for a moment (see the "close" listener).
    if (t && t.closest && t.closest("input, textarea, select, [contenteditable], dialog[open]")) return false;
    var key = event.key;
    if (key === "?") { event.preventDefault(); openHelp(); return true; }
    if (!key || key.length !== 1) return false;
    key = key.toLowerCase();
    if (key === "h") {
      var first = $("#table-hand button[data-card]") || $("#table-hand [data-tile][tabindex]")
        || $("#table-hand [data-card]") || $("#table-hand button:not(.coach-button)");
      if (first) { event.preventDefault(); first.focus(); return true; }
      return false;
    }
    if (key === "l") {
      var log = $(".move-log-list");
      if (log) {
        event.preventDefault();
        var panel = $("#side-panel");
        if (panel && window.getComputedStyle(panel).position === "fixed" && !panel.classList.contains("open")) toggleDrawer(true);
        log.focus();
        var latest = $(".move-log-list li");
        if (latest) announce(latest.textContent.trim());
        return true;
      }
      return false;
    }
    var targets = $all('[data-key="' + key + '"]').filter(function (el) {
      return el.offsetParent !== null || el.getClientRects().length;  // shown
    });
    if (!targets.length) return false;
    event.preventDefault();
    var button = targets.filter(function (el) { return el.getAttribute("aria-disabled") !== "true"; })[0];
    if (!button) {
      var reason = targets[0].getAttribute("title") || targets[0].getAttribute("data-reason") || "";
      if (reason) { hint(reason); announce(reason); }
      return true;
    }
    button.focus({ preventScroll: true });
    button.click();
    return true;
  }

  function openHelp() {
    var dialog = $("#keys-help");
    if (!dialog || dialog.open) return;
    helpOpener = document.activeElement;
    if (dialog.showModal) dialog.showModal(); else dialog.setAttribute("open", "");
    var close = $("[data-keys-help-close]", dialog);
    if (close) close.focus();
  }

  var helpOpener = null;
  document.addEventListener("close", function (event) {
    var dialog = event.target;
    if (!dialog || dialog.id !== "keys-help") return;
    if (helpOpener && helpOpener.isConnected && helpOpener.focus) helpOpener.focus();
    // Opened with nothing focused, or from a button a push has since replaced: the focus would stay on the
    // closed dialog's button until the browser's next rendering step moves it, and a key pressed meanwhile
    // would go nowhere.
    if (dialog.contains(document.activeElement)) document.activeElement.blur();
  }, true);

  var lastCoach = "";

  /** The advice box (#table-coach, templates/tables/live/coach.jinja) stays while the table is at the version
   * it was given for: read out once, the card or pile it names outlined. */
  function coachSync() {
    var box = $("#table-coach");
    $all(".coach-pick").forEach(function (el) { el.classList.remove("coach-pick"); });
    if (!box) return;
    var version = box.getAttribute("data-version");
    if (!version) return;
    if (String(tmVersion()) !== version) { coachHide(); return; }
    box.hidden = false;
    var reason = $("[data-coach-reason]", box);
    var text = reason ? reason.textContent.trim() : "";
    if (text && version + text !== lastCoach) {
      lastCoach = version + text;
      announce("Conseil : " + text);
    }
    var move = {};
    try { move = JSON.parse(box.getAttribute("data-coach-move") || "{}"); } catch (e) { move = {}; }
    var ids = move.card ? [move.card] : (Array.isArray(move.cards) ? move.cards : []);
    ids.forEach(function (id) {
      var el = $('#table-hand [data-card="' + id + '"]');
      if (el) el.classList.add("coach-pick");
    });
    var pile = move.action === "draw_stock" ? $("#table-centre .pile.stock")
      : move.action === "take_discard" ? $("#table-centre .pile.discard") : null;
    if (pile) pile.classList.add("coach-pick");
  }

  function coachHide() {
    var box = $("#table-coach");
    if (!box) return;
    box.removeAttribute("data-version");
    box.innerHTML = "";
    box.hidden = true;
    $all(".coach-pick").forEach(function (el) { el.classList.remove("coach-pick"); });
  }

  document.addEventListener("click", function (event) {
    var el = event.target.closest && event.target.closest("button");
    if (!el) return;
    if (el.hasAttribute("data-keys-help")) openHelp();
    else if (el.hasAttribute("data-coach-close")) {
      coachHide();
      var button = $(".coach-button");
      if (button) button.focus();
    }
  });

  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form.getAttribute("data-confirm");
    if (question && !window.confirm(question)) { event.preventDefault(); return; }
    if ((form.method || "").toLowerCase() === "post" && !form.querySelector("[name=csrfmiddlewaretoken]")) {
      // Forms rendered inside a push have no {% csrf_token %}: add it from the page.
      var input = document.createElement("input");
      input.type = "hidden";
      input.name = "csrfmiddlewaretoken";
      input.value = csrfToken();
      form.appendChild(input);
    }
  }, true);

  document.addEventListener("htmx:afterSettle", function () { window.requestAnimationFrame(afterUpdate); });
  window.addEventListener("resize", function () { window.requestAnimationFrame(fitHand); });
  // The page's scrollbar comes or goes (no resize event): the hand is laid out again for its new width.
  if (window.ResizeObserver) {
    var pageWidth = document.documentElement.clientWidth;
    new ResizeObserver(function () {
      var w = document.documentElement.clientWidth;
      if (w === pageWidth) return;
      pageWidth = w;
      window.requestAnimationFrame(fitHand);
    }).observe(document.documentElement);
  }
  window.setInterval(tick, 250);

  function init() {
    root = $("#table-root");
    if (!root) return;
    lastStatusText = statusText($("#table-status"));
    lastMoveText = lastMoveLine();
    afterUpdate();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
