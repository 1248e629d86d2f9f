/* The replay page (templates/tables/replay.html): the arrow keys (and Home, End) step through the round.
   The buttons are links that htmx follows in place (one step: the `replay_step` partial). Keys pressed while a
   step is on its way add up: the page then asks for the step they lead to, once the current one is shown. */
(function () {
  "use strict";
  var wanted = null;
  var busy = false;

  function current() {
    var el = document.getElementById("replay-step");
    return el ? { step: Number(el.dataset.step), last: Number(el.dataset.last) } : null;
  }

  function show(step) {
    wanted = step;
    var now = current();
    if (busy || !now || wanted === now.step) return;
    var url = "?etape=" + wanted;
    busy = true;
    window.htmx.ajax("GET", url, { target: "#replay-step", swap: "outerHTML" }).then(function () {
      busy = false;
      window.history.pushState(null, "", url);
      show(wanted);
    }, function () {
      window.location.search = "etape=" + wanted;  // no answer in place: load the page of that step
    });
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    var now = current();
    if (!now) return;
    var from = busy && wanted !== null ? wanted : now.step;
    var to = { ArrowRight: from + 1, ArrowLeft: from - 1, Home: 0, End: now.last }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    show(Math.min(Math.max(to, 0), now.last));
  });

  var root = document.getElementById("replay-root");
  if (root) root.setAttribute("data-replay-keys", "on");  // the keys work from now on (the browser tests wait for it)
})();
