// The history page: the arrow keys, Home, End and the slider move through the branch's events.
// Each position is an address of its own (campaign, branch, event), so any is linkable.
"use strict";
(function () {
  function go(url) { if (url) { window.location.assign(url); } }
  document.addEventListener("keydown", function (e) {
    if (e.key === "ArrowLeft") { go(document.body.getAttribute("data-previous")); }
    if (e.key === "ArrowRight") { go(document.body.getAttribute("data-next")); }
    if (e.key === "Home") { go(document.body.getAttribute("data-first")); }
    if (e.key === "End") { go(document.body.getAttribute("data-last")); }
  });
  var slider = document.getElementById("at");
  if (slider && slider.form) {
    slider.addEventListener("change", function () { slider.form.submit(); });
  }
}());
