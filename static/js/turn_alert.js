/* « À toi ! » in the tab's title and icon while the tab is in the background and it is my move, and a short
   sound when the move becomes mine if the player switched « Son à mon tour » on (the live table page only:
   templates/tables/table.html; the switch is kept on the account, accounts.views.turn_sound). The status piece
   says whose move it is (data-my-turn); a push swaps it, so the page is watched for that attribute. */
(function () {
  "use strict";
  var PREFIX = "À toi ! · ";
  var script = document.currentScript;
  var turnIcon = script && script.getAttribute("data-turn-icon");
  var icon = document.querySelector('link[rel="icon"]');
  var plainIcon = icon && icon.getAttribute("href");
  var plainTitle = document.title;
  var soundSwitch = document.querySelector("[data-turn-sound]");
  var audio = null;

  function myMove() {
    var status = document.getElementById("table-status");
    return !!status && status.getAttribute("data-my-turn") === "1";
  }

  var wasMine = myMove();

  function soundOn() {
    return !!soundSwitch && soundSwitch.getAttribute("aria-pressed") === "true";
  }

  function beep() {
    var Context = window.AudioContext || window.webkitAudioContext;
    if (!Context) return;
    audio = audio || new Context();
    if (audio.state === "suspended") audio.resume();  // the browser lets it play once the page was touched
    var now = audio.currentTime;
    var tone = audio.createOscillator();
    var gain = audio.createGain();
    tone.type = "sine";
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.0001, now);
    gain.gain.exponentialRampToValueAtTime(0.15, now + 0.02);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + 0.25);
    tone.connect(gain);
    gain.connect(audio.destination);
    tone.start(now);
    tone.stop(now + 0.26);
  }

  function update() {
    var mine = myMove();
    if (mine && !wasMine && soundOn()) beep();
    wasMine = mine;
    var alerting = document.hidden && mine;
    var title = alerting ? PREFIX + plainTitle : plainTitle;
    if (document.title !== title) document.title = title;
    if (icon && turnIcon) {
      var href = alerting ? turnIcon : plainIcon;
      if (icon.getAttribute("href") !== href) icon.setAttribute("href", href);
    }
  }

  if (soundSwitch) {
    soundSwitch.addEventListener("click", function () {
      var on = !soundOn();
      soundSwitch.setAttribute("aria-pressed", on ? "true" : "false");
      if (on) beep();  // what it will sound like (and, a click being a gesture, the browser allows it from now on)
      var body = new URLSearchParams({ on: on ? "1" : "0" });
      fetch(soundSwitch.getAttribute("data-url"), {
        method: "POST", body: body, credentials: "same-origin",
        headers: { "X-CSRFToken": window.CartesTable.csrfToken() }
      }).then(function (response) { return response.ok ? response.json() : null; }).then(function (data) {
        if (data) soundSwitch.setAttribute("aria-pressed", data.turn_sound ? "true" : "false");
      }).catch(function () { /* offline: the switch stays as clicked for this page */ });
    });
  }

  document.addEventListener("visibilitychange", update);
  new MutationObserver(update).observe(document.body, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["data-my-turn"]
  });
  update();
})();
