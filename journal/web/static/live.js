// The live page follows the journal: each server-sent "state" event is the page's
// changing part, drawn (and escaped) by the server; it replaces the part in place.
// No reload, nothing fetched from elsewhere; the browser reconnects by itself.
"use strict";
(function () {
  var live = document.getElementById("live");
  var link = document.getElementById("link");
  var url = document.body.getAttribute("data-events");
  if (!live || !url || !window.EventSource) { return; }
  var source = new EventSource(url);
  source.addEventListener("open", function () { link.textContent = "live"; });
  source.addEventListener("error", function () { link.textContent = "reconnecting…"; });
  source.addEventListener("state", function (message) {
    live.innerHTML = message.data;
    document.body.setAttribute("data-updated", String(Date.now()));
  });
}());
