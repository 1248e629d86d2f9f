/* « À toi ! » in the tab's title and icon while the tab is in the background and it is my move (the live table
   page only: templates/tables/table.html). The status piece says whose move it is (data-my-turn); a push
   swaps it, so the page is watched for that attribute; coming back to the tab restores the title. */
(function () {
  "use strict";
  var PREFIX = "À toi ! · ";
  var script = document.currentScript;
  var turnIcon = script && script.getAttribute("data-turn-icon");
  var icon = document.querySelector('link[rel="icon"]');
  var plainIcon = icon && icon.getAttribute("href");
  var plainTitle = document.title;

  function myMove() {
    var status = document.getElementById("table-status");
    return !!status && status.getAttribute("data-my-turn") === "1";
  }

  function update() {
    var alerting = document.hidden && myMove();
    var title = alerting ? PREFIX + plainTitle : plainTitle;
    if (document.title !== title) document.title = title;
    if (icon && turnIcon) {
      var href = alerting ? turnIcon : plainIcon;
      if (icon.getAttribute("href") !== href) icon.setAttribute("href", href);
    }
  }

  document.addEventListener("visibilitychange", update);
  new MutationObserver(update).observe(document.body, {
    subtree: true, childList: true, attributes: true, attributeFilter: ["data-my-turn"]
  });
  update();
})();
