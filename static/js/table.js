/* The live table: small, no framework.
 *
 * htmx + its ws extension do the heavy lifting: the page holds ONE socket (ws-connect on #table-root),
 * clicks leave as JSON frames (ws-send + hx-vals) and every push is swapped by id. This file adds:
 *  - the HTTP fallback (POST to tables:action) when the socket is closed;
 *  - « Je ferme ! » / « Frapper » mode: only closable cards light up, a click sends close/knock;
 *  - drag and drop of the hand with SortableJS (static/vendor/sortablejs), new group in the gaps;
 *  - the turn countdown and timer rings, focus kept across pushes, the refused card shaking;
 *  - invite link copy, the side drawer on phones, confirm() before leaving;
 *  - `window.CartesTable`: what a family's own script (static/js/<family>.js, named by its presenter) uses of
 *    this page: the helpers, sending a move, the hand, and hooks it registers (after a push, drag, Escape).
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
  var lastRematchText = null; // the match-end panel's rematch news (« alice propose une revanche ») read out last
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

  /** The table's version this page shows (every move is made on it). */
  function shownVersion() {
    var status = $("#table-status");
    return status ? parseInt(status.getAttribute("data-version"), 10) : null;
  }

  // A family's script (its presenter's `scripts`, loaded after this one) registers hooks: `refresh` after every
  // push, `settled` once the push is announced, `dragStart(card)` and `dragEnd(card)` (true: the drop was its
  // own, the hand keeps its order), `escape()` (true: it closed something of its own).
  var families = [];

  function each(hook, arg) {
    var handled = false;
    families.forEach(function (f) { if (f[hook] && f[hook](arg)) handled = true; });
    return handled;
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
    var shown = shownVersion();
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
    if ((params.kind === "move" || params.kind === "coach") && params.version === undefined) params.version = shownVersion();
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
      version: shownVersion()
    };
  }

  /** A push that changes nothing in the game (someone connected, say) keeps the refusal shown. */
  function keepError() {
    if (!before || !before.error || before.version === null || shownVersion() !== before.version) return;
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
    each("refresh");
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
    var news = $("[data-rematch-news]");
    var newsText = news ? news.textContent.trim() : "";
    if (newsText && newsText !== lastRematchText && lastRematchText !== null) said.push(newsText);
    lastRematchText = newsText;
    if (said.length) announce(said.join(" "));  // « Dernier coup : Robot Expert a pioché, … » then whose turn
    each("settled");
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
          each("dragStart", evt.item);
          document.body.classList.add("hand-dragging");
          fitHand();                  // the gaps open up: make room for them
        },
        onEnd: function (evt) {
          dragging = false;
          draggedAt = Date.now();
          document.body.classList.remove("hand-dragging");
          if (!each("dragEnd", evt.item)) saveOrder();
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
      if (each("escape")) return;
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
    if (String(shownVersion()) !== version) { coachHide(); return; }
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

  // What a family's script uses of this page (static/js/table_meld.js, tiles.js, team_meld.js).
  window.CartesTable = {
    $: $,
    $all: $all,
    hint: hint,
    csrfToken: csrfToken,
    version: shownVersion,
    /** Send a move on the table this page shows; `card`: the card to shake if the server refuses it. */
    sendMove: function (payload, card) {
      lastCard = card || null;
      sendFrame(Object.assign({ kind: "move" }, payload, { version: shownVersion() }));
    },
    hand: { box: handBox, groups: groupsOf, order: orderString, rebuild: rebuild, init: initHand },
    /** Whether a hand card was dropped a moment ago (the click that ends a drag is not a choice). */
    justDragged: function () { return Date.now() - draggedAt < 400; },
    forgetDrag: function () { draggedAt = 0; },
    register: function (hooks) { families.push(hooks); }
  };

  function init() {
    root = $("#table-root");
    if (!root) return;
    lastStatusText = statusText($("#table-status"));
    lastMoveText = lastMoveLine();
    var shownNews = $("[data-rematch-news]");
    lastRematchText = shownNews ? shownNews.textContent.trim() : "";
    afterUpdate();
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
