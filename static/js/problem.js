/* A problem's page (templates/problems/problem.html): a card of my hand touched is the answer that plays it, when
   one of the proposed answers does (a best-discard problem is then answered as at the table). The answers stay
   the buttons below the position; without JavaScript they are all there is. */
(function () {
  "use strict";
  document.addEventListener("click", function (event) {
    var card = event.target.closest("#table-hand [data-card]");
    if (!card) return;
    var answer = document.querySelector('#problem-answer button[data-card="' + card.dataset.card + '"]');
    event.preventDefault();
    if (answer) answer.click();
  });
})();
