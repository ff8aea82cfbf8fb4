// Live pages: on every change notice from /events, fetch this page's live part again.
(function () {
  var main = document.getElementById("live");
  if (!main || !window.EventSource) return;
  var busy = false, again = false;
  function refresh() {
    if (busy) { again = true; return; }
    busy = true;
    fetch(location.href, {headers: {"X-Fragment": "1"}, cache: "no-store"})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html !== null) {
          main.innerHTML = html;
          document.dispatchEvent(new CustomEvent("club:updated"));
        }
      })
      .catch(function () {})
      .finally(function () { busy = false; if (again) { again = false; refresh(); } });
  }
  var source = new EventSource("/events");
  source.addEventListener("changed", refresh);
  // after a lost connection the server may have moved on: catch up once reconnected; and on
  // the first connection too if something changed between rendering this page and listening
  var first = true;
  source.addEventListener("hello", function (e) {
    var seen = main.getAttribute("data-version"), now = null;
    try { now = String(JSON.parse(e.data).version); } catch (err) {}
    if (!first || (seen !== null && now !== null && now !== seen)) refresh();
    first = false;
  });
  // projector mode: page through a long ranking, a screenful at a time
  if (document.body.classList.contains("projector")) {
    var page = 0;
    setInterval(function () {
      var rows = document.querySelectorAll("#ranking tbody tr");
      var per = Math.max(5, Math.floor((window.innerHeight - 160) / 56));
      var pages = Math.max(1, Math.ceil(rows.length / per));
      page = (page + 1) % pages;
      rows.forEach(function (tr, i) { tr.style.display = Math.floor(i / per) === page ? "" : "none"; });
    }, 10000);
  }
})();
