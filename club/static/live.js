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
})();

// Projector mode: the ranking a screenful at a time. A page holds the rows that fit below the
// heading, as the browser lays them out (measured, not guessed: the heading and each row's
// height depend on the screen, the names and the font); the page shown is kept when the rows
// are refreshed by a live update, so a steady stream of games does not pin the top rows.
(function () {
  var body = document.body;
  if (!body.classList.contains("projector")) return;
  var seconds = Math.max(2, Number(body.getAttribute("data-page-seconds")) || 10);
  var GAP = 4;              // px kept free at the bottom edge
  var page = 0, starts = [0], timer = null;

  function rows() {
    return Array.prototype.slice.call(document.querySelectorAll("#ranking tbody tr"));
  }

  // where each page starts: every row shown once, its bottom measured as it would sit on a
  // page beginning right under the table's head
  function measure(all) {
    all.forEach(function (tr) { tr.hidden = false; });
    var limit = window.innerHeight - GAP;
    var out = [0];
    if (!all.length) return out;
    var origin = all[0].getBoundingClientRect().top, start = origin;
    all.forEach(function (tr, i) {
      var box = tr.getBoundingClientRect();
      if (i > out[out.length - 1] && origin + box.bottom - start > limit) {
        out.push(i);
        start = box.top;
      }
    });
    return out;
  }

  function show() {
    var all = rows();
    starts = measure(all);
    page = Math.min(page, starts.length - 1);
    var from = starts[page], to = page + 1 < starts.length ? starts[page + 1] : all.length;
    all.forEach(function (tr, i) { tr.hidden = i < from || i >= to; });
    // a row that grew once the others were hidden and no longer fits opens the next page
    var limit = window.innerHeight - GAP, fits = to;
    while (fits - 1 > from && all[fits - 1].getBoundingClientRect().bottom > limit) {
      fits -= 1;
      all[fits].hidden = true;
    }
    if (fits < to) starts.splice(page + 1, 0, fits);
    var pager = document.getElementById("pager");
    if (pager) pager.textContent = starts.length > 1 ? (page + 1) + "/" + starts.length : "";
    body.setAttribute("data-page", String(page + 1));
    body.setAttribute("data-pages", String(starts.length));
  }

  function turn(step) {
    page = (page + step + starts.length) % starts.length;
    show();
  }

  function restart() {
    if (timer !== null) clearInterval(timer);
    timer = setInterval(function () { turn(1); }, seconds * 1000);
  }

  // the director at the projector's keyboard: the next or the previous page at once
  document.addEventListener("keydown", function (e) {
    var step = {ArrowRight: 1, PageDown: 1, " ": 1, ArrowLeft: -1, PageUp: -1}[e.key];
    if (!step) return;
    e.preventDefault();
    turn(step);
    restart();
  });
  document.addEventListener("club:updated", show);
  window.addEventListener("resize", show);
  show();
  restart();
})();
