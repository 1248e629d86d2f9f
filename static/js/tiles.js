/* The tile table (Rummikub): the rack at the bottom, the table sets in the middle.
 *
 * The pieces (templates/tables/live/tiles/) draw the committed table and my rack. While it is my turn the
 * staging is here, in this page only: tiles are dragged (SortableJS, mouse and touch) from the rack or from
 * any set onto another set or onto « + Nouvelle combinaison »; every set is checked as the engine does
 * (engine/games/_tiles.py: groups of 3–4 distinct colours of one number, runs of 3+ consecutive numbers of
 * one colour, jokers filling in) and outlined in red with its reason when it is not valid. « Valider » sends
 * the whole table as one {"action": "end_turn", "table": [[ids]…]} through the hidden ws-send button of the
 * actions piece (static/js/table.js adds the HTTP fallback); the server is the judge and its refusal shows in
 * #table-error with « Pourquoi ? ». « Annuler le tour » puts the committed table back. Pushes redraw the
 * pieces: the staging is kept in memory and laid out again while the table's version is unchanged.
 */
(function () {
  "use strict";

  var COLOURS = "RYBK";
  var NAME = { R: "rouge", Y: "jaune", B: "bleu", K: "noir" };
  var NAME_F = { R: "rouge", Y: "jaune", B: "bleue", K: "noire" };
  var reducedMotion = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  var stage = null;      // {version, sets: [[ids]], rack: [ids]} while I move tiles on my turn
  var committed = null;  // {version, sets, rack}: what the server drew
  var rackOrder = null;  // my rack's order (kept across pushes and turns, in this page)
  var sortables = [];
  var dragging = false;
  var deferred = [];

  var $ = window.CartesTable.$, $all = window.CartesTable.$all;  // the table page's helpers (static/js/table.js)
  function ids(box) { return $all("[data-tile]", box).map(function (t) { return t.getAttribute("data-tile"); }); }

  function version() {
    var status = $("#table-status");
    return status ? status.getAttribute("data-version") : null;
  }

  // ------------------------------------------------------------------ the rules of a set (as _tiles.py)

  function parse(id) {
    if (id.charAt(0) === "J") return { id: id, joker: true };
    return { id: id, c: id.charAt(0), n: parseInt(id.slice(1, -1), 10) };
  }

  function distinct(list) { return list.filter(function (v, i) { return list.indexOf(v) === i; }); }

  /** The best first-meld value of the set, or null when it has no valid reading. */
  function setValue(tiles) {
    if (distinct(tiles).length !== tiles.length) return null;
    var all = tiles.map(parse);
    var nat = all.filter(function (t) { return !t.joker; });
    var n = all.length;
    if (!nat.length || n < 3) return null;
    var best = null;
    var colours = distinct(nat.map(function (t) { return t.c; }));
    var numbers = nat.map(function (t) { return t.n; });
    if (colours.length === 1 && distinct(numbers).length === numbers.length && n <= 13) {
      var lo = Math.min.apply(null, numbers), hi = Math.max.apply(null, numbers);
      for (var start = Math.min(lo, 14 - n); start >= 1; start--) {
        var end = start + n - 1;
        if (end < hi) break;
        best = (start + end) * n / 2;
        break;
      }
    }
    if (distinct(numbers).length === 1 && n <= 4 && distinct(colours).length === nat.length) {
      var group = numbers[0] * n;
      if (best === null || group > best) best = group;
    }
    return best;
  }

  function label(t) { return t.joker ? "joker" : t.n + " " + NAME[t.c]; }

  function describe(tiles) {
    var all = tiles.map(parse);
    var nat = all.filter(function (t) { return !t.joker; });
    var jokers = all.filter(function (t) { return t.joker; }).map(function () { return "joker"; });
    var colours = distinct(nat.map(function (t) { return t.c; }));
    var numbers = nat.map(function (t) { return t.n; }).sort(function (a, b) { return a - b; });
    if (nat.length >= 2 && colours.length === 1 && distinct(numbers).length > 1) {
      return "La suite " + numbers.concat(jokers).join("-") + " " + NAME_F[nat[0].c];
    }
    if (nat.length >= 2 && distinct(numbers).length === 1) {
      var ordered = nat.slice().sort(function (a, b) { return COLOURS.indexOf(a.c) - COLOURS.indexOf(b.c); });
      return "Le groupe de " + numbers[0] + " " + ordered.map(function (t) { return NAME[t.c]; }).concat(jokers).join(", ");
    }
    var sorted = all.slice().sort(function (a, b) {
      if (a.joker || b.joker) return (a.joker ? 1 : 0) - (b.joker ? 1 : 0);
      return COLOURS.indexOf(a.c) - COLOURS.indexOf(b.c) || a.n - b.n;
    });
    return "La combinaison " + sorted.map(label).join(", ");
  }

  /** null when the set is valid, else the engine's French sentence for it. */
  function whyInvalid(tiles) {
    if (setValue(tiles) !== null) return null;
    var reason;
    var all = tiles.map(parse);
    var nat = all.filter(function (t) { return !t.joker; });
    var colours = distinct(nat.map(function (t) { return t.c; }));
    var numbers = nat.map(function (t) { return t.n; });
    if (tiles.length < 3) reason = "il faut au moins 3 tuiles";
    else if (distinct(numbers).length === 1 && nat.length > 1) {
      reason = tiles.length > 4 ? "un groupe a au plus 4 tuiles" : "deux tuiles y ont la même couleur";
    } else if (colours.length === 1) {
      if (distinct(numbers).length !== numbers.length) reason = "un même numéro y est deux fois";
      else if (tiles.length > 13) reason = "une suite a au plus 13 tuiles";
      else {
        var wrapped = numbers.map(function (n) { return n < 7 ? n + 13 : n; }).sort(function (a, b) { return a - b; });
        reason = numbers.indexOf(1) >= 0 && numbers.indexOf(13) >= 0 && wrapped[wrapped.length - 1] - wrapped[0] + 1 <= tiles.length
          ? "une suite ne passe pas de 13 à 1 (le 1 est toujours en bas)" : "les numéros ne se suivent pas";
      }
    } else reason = "ce n'est ni une suite (une seule couleur) ni un groupe (un seul numéro)";
    return describe(tiles) + " n'est pas valide : " + reason + ".";
  }

  // ------------------------------------------------------------------ reading and laying out the pieces

  function board() { return $("#table-centre [data-tl-board]"); }
  function rack() { return $("#table-hand [data-tl-rack]"); }
  function acting() { return !!$("#table-centre[data-tl-acting]"); }

  /** What the server drew: read off a piece just swapped in (one this file has laid out is marked). */
  function readCommitted() {
    var b = board(), r = rack();
    var prev = committed || { sets: [], rack: [] };
    return {
      version: version(),
      sets: b && !b.hasAttribute("data-tl-laid") ? $all("[data-tl-set]", b).map(ids) : prev.sets,
      rack: r && !r.hasAttribute("data-tl-laid") ? ids(r) : (r ? prev.rack : [])
    };
  }

  function sameStage(a, b) { return JSON.stringify(a.sets) === JSON.stringify(b.sets); }

  function placedTiles() {
    if (!stage || !committed) return [];
    var onTable = {};
    committed.sets.forEach(function (s) { s.forEach(function (t) { onTable[t] = true; }); });
    var out = [];
    stage.sets.forEach(function (s) { s.forEach(function (t) { if (!onTable[t]) out.push(t); }); });
    return out;
  }

  function orderRack(list) {
    if (!rackOrder) return list;
    var at = {};
    rackOrder.forEach(function (id, i) { at[id] = i; });
    return list.slice().sort(function (a, b) {
      var x = at[a] === undefined ? 1e6 + list.indexOf(a) : at[a];
      var y = at[b] === undefined ? 1e6 + list.indexOf(b) : at[b];
      return x - y;
    });
  }

  /** Lay the tiles out as `stage` says (or my rack's order alone), then make everything draggable again. */
  function layout() {
    var b = board(), r = rack();
    var byId = {};
    $all("[data-tile]", b || document.createElement("div")).concat(r ? $all("[data-tile]", r) : [])
      .forEach(function (t) { byId[t.getAttribute("data-tile")] = t; });
    if (stage && b) {
      $all("[data-tl-set], [data-tl-new], .tl-empty", b).forEach(function (el) { el.remove(); });
      b.appendChild(newSlot());  // first: it stays in place while the sets after it grow and shrink
      stage.sets.forEach(function (s) {
        var box = document.createElement("div");
        box.className = "tl-set";
        box.setAttribute("role", "listitem");
        box.setAttribute("data-tl-set", "");
        s.forEach(function (id) { if (byId[id]) box.appendChild(byId[id]); });
        b.appendChild(box);
      });
    }
    if (r) {
      var rackIds = stage ? stage.rack : orderRack(ids(r));
      rackIds.forEach(function (id) { if (byId[id]) r.appendChild(byId[id]); });
      r.setAttribute("data-tl-laid", "");
    }
    if (b) b.setAttribute("data-tl-laid", "");
    check();
    makeSortable();
  }

  function newSlot() {
    var slot = document.createElement("div");
    slot.className = "tl-set tl-new";
    slot.setAttribute("role", "listitem");
    slot.setAttribute("data-tl-new", "");
    slot.setAttribute("aria-label", "Nouvelle combinaison : dépose une tuile ici");
    return slot;
  }

  /** Read the staging back from the page after a drop. */
  function readStage() {
    var b = board(), r = rack();
    var sets = b ? $all("[data-tl-set], [data-tl-new]", b).map(ids).filter(function (s) { return s.length; }) : [];
    return { version: version(), sets: sets, rack: r ? ids(r) : [] };
  }

  /** Outline the invalid sets, mark the tiles I placed, say where my turn stands, enable the buttons. */
  function check() {
    var b = board();
    if (!b) return;
    var mine = {};
    placedTiles().forEach(function (t) { mine[t] = true; });
    $all("[data-tl-set]", b).forEach(function (box) {
      var tiles = ids(box);
      var reason = whyInvalid(tiles);
      box.classList.toggle("is-invalid", !!reason);
      box.classList.toggle("is-new", tiles.some(function (t) { return mine[t]; }));
      if (reason) {
        box.setAttribute("data-reason", reason);
        box.setAttribute("title", reason);
        box.setAttribute("tabindex", "0");
        box.setAttribute("aria-label", reason);
      } else {
        box.removeAttribute("data-reason");
        box.removeAttribute("title");
        box.removeAttribute("tabindex");
        box.setAttribute("aria-label", describe(tiles).replace(/^(La|Le) /, ""));
      }
    });
    showReason();
    // a tile back on my rack loses its mark too
    $all("[data-tile]", b).concat(rack() ? $all("[data-tile]", rack()) : [])
      .forEach(function (t) { t.classList.toggle("is-placed", !!mine[t.getAttribute("data-tile")]); });
    var placed = placedTiles().length;
    var changed = !!(stage && committed && !sameStage(stage, committed));
    var commit = $("[data-tl-commit]");
    if (commit) {
      var ok = placed > 0;
      commit.setAttribute("aria-disabled", ok ? "false" : "true");
      if (ok) commit.removeAttribute("title"); else commit.setAttribute("title", "Pose d'abord une tuile de ton chevalet.");
    }
    var reset = $("[data-tl-reset]");
    if (reset) reset.setAttribute("aria-disabled", changed || reset.hasAttribute("data-tl-undo-all") ? "false" : "true");
    $all("[data-tl-draw]").forEach(function (button) { button.hidden = placed > 0; });
    var line = $("[data-tl-turn]");
    if (line) {
      var bad = $all("[data-tl-set].is-invalid", b).length;
      var text = "";
      if (placed) {
        text = placed + " tuile" + (placed > 1 ? "s" : "") + " posée" + (placed > 1 ? "s" : "");
        var opening = $("#table-centre[data-tl-opening]");
        if (opening) {
          var points = 0;
          stage.sets.forEach(function (s) {
            if (s.every(function (t) { return mine[t]; })) points += setValue(s) || 0;
          });
          text += " · première pose : " + points + " / " + opening.getAttribute("data-tl-opening") + " pts";
        }
        if (bad) text += " · " + bad + " combinaison" + (bad > 1 ? "s" : "") + " à corriger (en rouge)";
        text += ". Rien n'est montré aux autres avant « Valider ».";
      }
      line.textContent = text;
      line.hidden = !text;
    }
    keyboardable();
  }

  // ------------------------------------------------------------------ the keyboard (no drag needed)

  var picked = null;  // the tile taken with Entrée / Espace, placed by Entrée on a set, « + » for a new set

  /** While it is my turn every tile I may move, every set and the new-set slot take the focus. */
  function keyboardable() {
    var play = acting();
    var r = rack(), b = board();
    if (picked && !$('[data-tile="' + picked + '"]')) picked = null;
    var tiles = (r ? $all("[data-tile]", r) : []).concat(b ? $all("[data-tile]", b) : []);
    tiles.forEach(function (t) {
      if (!play) { t.removeAttribute("tabindex"); return; }
      t.setAttribute("tabindex", "0");
      t.setAttribute("role", "button");
      t.setAttribute("aria-pressed", String(t.getAttribute("data-tile") === picked));
      t.classList.toggle("is-picked", t.getAttribute("data-tile") === picked);
    });
    if (play && b) $all("[data-tl-set], [data-tl-new]", b).forEach(function (box) { box.setAttribute("tabindex", "0"); });
    // a push redrew the tiles under the focus: it comes back to the same tile
    var active = document.activeElement;
    if (play && focusedTile && (!active || active === document.body)) {
      var again = $('[data-tile="' + focusedTile + '"]');
      if (again) again.focus({ preventScroll: true });
    }
  }

  var focusedTile = null;
  document.addEventListener("focusin", function (event) {
    var t = event.target.closest && event.target.closest("[data-tile]");
    focusedTile = t ? t.getAttribute("data-tile") : null;
  });

  function say(text) {
    var live = $("#table-live");
    if (!live || !text) return;
    live.textContent = "";
    window.setTimeout(function () { live.textContent = text; }, 60);
  }

  function tileName(id) {
    var el = $('[data-tile="' + id + '"]');
    return el ? (el.getAttribute("aria-label") || id) : id;
  }

  /** The picked tile goes into `dest` (a set, the new-set slot, or back to my rack). */
  function placePicked(dest) {
    var el = picked && $('[data-tile="' + picked + '"]');
    if (!el || !dest) return;
    if (dest.hasAttribute("data-tl-rack") && !fromRack(picked)) {
      say("Une tuile de la table ne revient pas sur ton chevalet.");
      return;
    }
    var moved = picked;
    picked = null;
    dest.appendChild(el);
    var r = rack();
    if (r) rackOrder = ids(r);
    stage = readStage();
    $all("#table-error p").forEach(function (p) { p.remove(); });
    layout();
    var again = $('[data-tile="' + moved + '"]');
    if (again) again.focus();
    var box = again && again.closest("[data-tl-set]");
    say(tileName(moved) + (box ? " posée : " + (box.getAttribute("aria-label") || "") : " remise sur ton chevalet."));
  }

  document.addEventListener("keydown", function (event) {
    if (!acting() || event.ctrlKey || event.metaKey || event.altKey) return;
    var t = event.target;
    if (!t.closest || t.closest("input, textarea, dialog")) return;
    if (event.key === "+" && picked) {
      event.preventDefault();
      placePicked($("#table-centre [data-tl-new]"));
      return;
    }
    if (event.key !== "Enter" && event.key !== " ") return;
    var tile = t.closest("[data-tile]");
    var box = t.closest("#table-centre [data-tl-set], #table-centre [data-tl-new], #table-hand [data-tl-rack]");
    if (!tile && !box) return;
    event.preventDefault();
    choose(tile, box, false);
  });

  /** Entrée / Espace, or a tap, on a tile or a box: choose the tile (another one, or none when it is the chosen
   * one), or put the chosen tile into the box. A tap on another tile of the chosen tile's set chooses that one
   * (the order in a set does not count); Entrée there puts the chosen tile at the set's end. */
  function choose(tile, box, tap) {
    var id = tile && tile.getAttribute("data-tile");
    var sameBox = picked && box && box.contains($('[data-tile="' + picked + '"]'));
    if (tile && (!picked || picked === id || (sameBox && (tap || box.hasAttribute("data-tl-rack"))))) {
      picked = picked === id ? null : id;
      keyboardable();
      if (!picked) say(tileName(id) + " reposée.");
      else if (tap) say(tileName(id) + " choisie : touche une combinaison pour l'y poser, ou « + Nouvelle combinaison ».");
      else say(tileName(id) + " prise : Entrée sur une combinaison pour l'y poser, « + » pour une nouvelle.");
      return;
    }
    if (picked) placePicked(box);
  }

  /** On a phone, without a keyboard: a tap chooses a tile, a tap on a set, on « + Nouvelle combinaison » or on my
   * rack puts it there (a drag is not a tap: SortableJS starts one only when the finger moves, after 120 ms). */
  var justDropped = false;  // a mouse drag ends with a click under the pointer (before the drop is laid out): not a tap
  document.addEventListener("click", function (event) {
    if (!acting() || justDropped) return;
    var t = event.target;
    if (!t.closest || t.closest("button, a, input, textarea, dialog")) return;
    var box = t.closest("#table-centre [data-tl-set], #table-centre [data-tl-new], #table-hand [data-tl-rack]");
    if (!box) return;
    choose(t.closest("[data-tile]"), box, true);
  });

  /** Under the sets: the reason the hovered or focused red set breaks the rules, else the first red set's. */
  var pointed = null;
  function showReason() {
    var line = $("[data-tl-reason]");
    var b = board();
    if (!line || !b) return;
    var set = pointed && b.contains(pointed) && pointed.classList.contains("is-invalid") ? pointed
      : $("[data-tl-set].is-invalid", b);
    var text = set ? set.getAttribute("data-reason") : "";
    if (line.textContent !== text) line.textContent = text;
    line.hidden = !text;
  }

  function point(event) {
    var set = event.target.closest && event.target.closest("#table-centre [data-tl-set]");
    if (set === pointed) return;
    pointed = set;
    showReason();
  }
  document.addEventListener("mouseover", point);
  document.addEventListener("focusin", point);

  // ------------------------------------------------------------------ drag and drop

  function destroySortables() {
    sortables.forEach(function (s) { try { s.destroy(); } catch (e) { /* already gone */ } });
    sortables = [];
  }

  function fromRack(id) { return committed && committed.rack.indexOf(id) >= 0; }

  function makeSortable() {
    destroySortables();
    if (!window.Sortable) return;
    var play = acting();
    var boxes = [];
    var r = rack();
    if (r) boxes.push(r);
    if (play && board()) boxes = boxes.concat($all("[data-tl-set], [data-tl-new]", board()));
    boxes.forEach(function (box) {
      var isRack = box.hasAttribute("data-tl-rack");
      sortables.push(Sortable.create(box, {
        group: {
          name: play ? "tiles" : "rack",
          pull: true,
          // a table tile never goes back to a rack (the engine refuses it): only my own tiles may
          put: isRack ? function (to, from, el) { return fromRack(el.getAttribute("data-tile")); } : true
        },
        draggable: "[data-tile]",
        animation: reducedMotion ? 0 : 120,
        forceFallback: true,
        fallbackOnBody: true,
        fallbackTolerance: 4,
        delay: 120,
        delayOnTouchOnly: true,
        touchStartThreshold: 4,
        // the tile goes into the box under the pointer, never into an empty one nearby: a wider reach made the
        // empty slot take the tile while the pointer was still over the set beside it
        emptyInsertThreshold: 0,
        ghostClass: "tile-ghost",
        chosenClass: "tile-chosen",
        fallbackClass: "tile-drag",
        onStart: function () {
          dragging = true;
          hold(true);
          document.body.classList.add("tiles-dragging");
        },
        onEnd: function (evt) {
          dragging = false;
          document.body.classList.remove("tiles-dragging");
          var e = evt.originalEvent || {};
          var touch = e.changedTouches && e.changedTouches[0];
          var point = touch ? { x: touch.clientX, y: touch.clientY }
            : (typeof e.clientX === "number" ? { x: e.clientX, y: e.clientY } : null);
          var item = evt.item, from = evt.from, oldIndex = evt.oldDraggableIndex;
          justDropped = true;
          window.setTimeout(function () { dropped(item, point, from, oldIndex); }, 0);
        }
      }));
    });
  }

  /** While a tile travels, every box keeps at least the size it had when the drag began (`on` false lets go).
   * Without this the boxes changed size under the pointer: the new-set slot loses its words when a tile enters
   * it (it shrank from 89 to 38 px on a phone) and the set beside it slid left under the pointer; SortableJS
   * (which looks at the element under the pointer every 50 ms) then moved the tile into that set, the slot
   * grew back under the pointer and took the tile again, and so on while the finger rested: the tile ended
   * where that back-and-forth stood at the release, often in the set beside the slot, and a new drag to the
   * same place did the same. Now a box only grows by the tile it holds (a set emptied of it keeps its place),
   * so the box under the pointer stays under it once it has taken the tile. */
  function hold(on) {
    var b = board(), r = rack();
    var boxes = b ? $all("[data-tl-set], [data-tl-new]", b) : [];
    if (r) boxes.push(r);
    if (!on) {
      boxes.forEach(function (box) { box.style.minWidth = ""; box.style.minHeight = ""; });
      return;
    }
    var sizes = boxes.map(function (box) { return box.getBoundingClientRect(); });  // all read, then all written
    boxes.forEach(function (box, i) {
      if (box !== r) box.style.minWidth = sizes[i].width + "px";  // the rack is as wide as the page
      box.style.minHeight = sizes[i].height + "px";
    });
  }

  /** The boxes a tile may be dropped into: the sets, the new-set slot, and my rack for a tile of my rack. */
  function dropBoxes(item) {
    var b = board(), r = rack();
    var boxes = b && acting() ? $all("[data-tl-new], [data-tl-set]", b) : [];
    if (r && (!acting() || fromRack(item.getAttribute("data-tile")))) boxes.push(r);
    return boxes;
  }

  /** The box under the point, as the player sees it: one that contains the point and is not hidden there (a set
   * scrolled out of the board's view, or under the hand, does not count), else null. */
  function boxAt(boxes, point) {
    var top = document.elementFromPoint(point.x, point.y);
    var under = null;
    boxes.forEach(function (box) { if (top && box.contains(top)) under = box; });
    if (!under) return null;
    var rect = under.getBoundingClientRect();
    var inside = point.x >= rect.left && point.x <= rect.right && point.y >= rect.top && point.y <= rect.bottom;
    return inside ? under : null;
  }

  /** The tile (or null) the item goes before in `box`, nearest the point in reading order: the first other tile
   * whose row is below the point, or on the point's row and whose middle is right of it. */
  function before(box, item, point) {
    var others = $all("[data-tile]", box).filter(function (t) { return t !== item; });
    if (!others.length) return null;
    // above the first row or below the last one (a box's padding, its edges): the pointer's x on that row decides
    var first = others[0].getBoundingClientRect(), last = others[others.length - 1].getBoundingClientRect();
    point = { x: point.x, y: Math.min(Math.max(point.y, first.top + first.height / 2), last.top + last.height / 2) };
    for (var i = 0; i < others.length; i++) {
      var rect = others[i].getBoundingClientRect();
      if (rect.top > point.y) return others[i];
      if (rect.bottom >= point.y && point.x < rect.left + rect.width / 2) return others[i];
    }
    return null;
  }

  /** The tile goes where the finger (or the mouse) let it go, wherever SortableJS left it (its looks under the
   * pointer are 50 ms apart and lag behind a row that reflows, so it left tiles in a neighbour of the box under
   * the pointer, or in a set scrolled out of view): the box under the release point takes it, at the place
   * nearest the point; with no box under the point the tile goes back where it came from. The boxes still have
   * their sizes of the drag (hold), the layout the player saw when letting go. */
  function follow(item, point, from, oldIndex) {
    if (!point || !item) return;
    // SortableJS's slide of the tiles it just moved (a CSS transform) ends now: measure where they are laid out
    $all("[data-tile]").forEach(function (t) { t.style.transition = ""; t.style.transform = ""; });
    var box = boxAt(dropBoxes(item), point);
    if (box) {
      box.insertBefore(item, before(box, item, point));
      return;
    }
    if (!from || !document.contains(from)) return;
    var rest = $all("[data-tile]", from).filter(function (t) { return t !== item; });
    from.insertBefore(item, rest[oldIndex] || null);
  }

  function dropped(item, point, from, oldIndex) {
    justDropped = false;
    // SortableJS swallows the first click after a drag it began, and a drop is often followed by none of the
    // browser's (a finger that moved, a release away from the tile): the player's next tap would be lost. A
    // harmless click takes its place.
    document.body.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }));
    follow(item, point, from, oldIndex);
    hold(false);
    var r = rack();
    if (r) rackOrder = ids(r);
    if (acting()) {
      stage = readStage();
      $all("#table-error p").forEach(function (p) { p.remove(); });
    }
    layout();
    var queued = deferred;
    deferred = [];
    queued.forEach(applyLater);
  }

  function applyLater(html) {
    var tpl = document.createElement("template");
    tpl.innerHTML = html;
    Array.prototype.slice.call(tpl.content.children).forEach(function (el) {
      var old = el.id && document.getElementById(el.id);
      if (!old) return;
      old.replaceWith(el);
      if (window.htmx) htmx.process(el);
    });
    refresh();
  }

  // ------------------------------------------------------------------ buttons

  function send(payload) {
    var button = $("[data-tl-send]");
    if (!button) return;
    payload.kind = "move";
    payload.version = parseInt(version(), 10);
    button.setAttribute("hx-vals", JSON.stringify(payload));
    button.click();
  }

  function sortRack(how) {
    var r = rack();
    if (!r) return;
    var list = ids(r).map(parse);
    list.sort(function (a, b) {
      if (a.joker || b.joker) return (a.joker ? 1 : 0) - (b.joker ? 1 : 0) || (a.id < b.id ? -1 : 1);
      var colour = COLOURS.indexOf(a.c) - COLOURS.indexOf(b.c);
      return how === "colour" ? colour || a.n - b.n || (a.id < b.id ? -1 : 1)
        : a.n - b.n || colour || (a.id < b.id ? -1 : 1);
    });
    rackOrder = list.map(function (t) { return t.id; });
    if (stage) stage.rack = rackOrder.slice();
    layout();
  }

  document.addEventListener("click", function (event) {
    var target = event.target.closest && event.target.closest("[data-tl-commit], [data-tl-reset], [data-tl-sort]");
    if (!target) return;
    if (target.hasAttribute("data-tl-sort")) { sortRack(target.getAttribute("data-tl-sort")); return; }
    if (target.getAttribute("aria-disabled") === "true") return;
    if (target.hasAttribute("data-tl-commit")) {
      if (!stage) return;
      send({ action: "end_turn", table: stage.sets.map(function (s) { return s.slice(); }), placed: placedTiles() });
    } else if (target.hasAttribute("data-tl-reset")) {
      if (target.hasAttribute("data-tl-undo-all")) send({ action: "undo", all: true });
      $all("#table-error p").forEach(function (p) { p.remove(); });
      if (committed) {
        stage = { version: version(), sets: committed.sets.map(function (x) { return x.slice(); }),
                  rack: orderRack(committed.rack) };
        layout();
      }
      stage = null;
      check();
    }
  });

  // ------------------------------------------------------------------ after every push

  function refresh() {
    if (dragging) return;
    if (!board() && !rack()) { destroySortables(); return; }
    var drawn = readCommitted();
    committed = drawn;
    if (!acting()) stage = null;
    else if (stage && stage.version !== drawn.version) stage = null;
    if (!stage && acting()) {
      var held = $("#table-centre[data-tl-staged]");
      if (held) {
        try {
          var sets = JSON.parse(held.getAttribute("data-tl-staged"));
          var used = {};
          sets.forEach(function (s) { s.forEach(function (t) { used[t] = true; }); });
          stage = { version: drawn.version, sets: sets, rack: orderRack(drawn.rack.filter(function (t) { return !used[t]; })) };
        } catch (e) { stage = null; }
      }
    }
    if (stage) {
      // a tile that left my rack some other way (never, in principle) drops the staging
      var known = {};
      drawn.rack.forEach(function (t) { known[t] = true; });
      drawn.sets.forEach(function (s) { s.forEach(function (t) { known[t] = true; }); });
      var all = stage.rack.concat.apply(stage.rack, stage.sets);
      if (all.length !== Object.keys(known).length || !all.every(function (t) { return known[t]; })) stage = null;
    }
    if (stage) stage.rack = orderRack(stage.rack);
    layout();
  }

  document.addEventListener("htmx:wsBeforeMessage", function (event) {
    if (dragging && board()) {
      deferred.push(event.detail.message);
      event.preventDefault();
    }
  });
  document.addEventListener("htmx:wsAfterMessage", function () { refresh(); });
  document.addEventListener("htmx:afterSettle", function () { window.requestAnimationFrame(function () { refresh(); }); });
  document.addEventListener("DOMContentLoaded", function () { refresh(); });
})();
