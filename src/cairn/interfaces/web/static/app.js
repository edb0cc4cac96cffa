/* Cairn web page: the small script layer. Written for this project; no third-party code.
   Every page works without it (forms post, links navigate); it adds keyboard shortcuts,
   the streamed answer, drag-and-drop upload with live progress, and confirmations. */
(function () {
  "use strict";

  function typing(el) {
    return el && (el.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(el.tagName));
  }

  /* --- keyboard: "/" focuses search; "g" then a/n/m/i/s/h goes to a section --- */
  var pendingG = 0;
  var GO = { c: "/chat", r: "/reminders", a: "/ask", n: "/notes", m: "/memories", i: "/ingest", s: "/status", h: "/" };
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey || typing(document.activeElement)) return;
    if (e.key === "/") {
      var box = document.querySelector("main input[type=search]") || document.querySelector("[data-slash-focus]");
      if (box) { e.preventDefault(); box.focus(); box.select(); }
      return;
    }
    if (e.key === "g") { pendingG = Date.now(); return; }
    if (pendingG && Date.now() - pendingG < 1500 && GO[e.key]) { window.location.href = GO[e.key]; }
    pendingG = 0;
  });

  /* --- forms that ask first (forget a memory) --- */
  document.addEventListener("submit", function (e) {
    var form = e.target;
    var q = form.getAttribute && form.getAttribute("data-confirm");
    if (q && !window.confirm(q)) e.preventDefault();
  });

  /* --- a cited passage: scroll it into view and focus it --- */
  function showCite() {
    var mark = document.getElementById("cite");
    if (!mark) return;
    mark.scrollIntoView({ block: "center" });
    mark.focus({ preventScroll: true });
  }

  /* A string as HTML's own form submission sends it: each lone UTF-16 surrogate (half of a
     pasted emoji) as U+FFFD. encodeURIComponent throws URIError on one, and the Ask button
     did nothing, without a word. */
  function wellFormed(s) {
    if (s.toWellFormed) return s.toWellFormed();
    var out = "";
    for (var i = 0; i < s.length; i++) {
      var c = s.charCodeAt(i);
      if (c >= 0xD800 && c <= 0xDBFF && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xFC00) === 0xDC00) {
        out += s.charAt(i) + s.charAt(i + 1);
        i++;
      } else {
        out += (c >= 0xD800 && c <= 0xDFFF) ? "\uFFFD" : s.charAt(i);
      }
    }
    return out;
  }

  /* --- ask: stream the answer over server-sent events --- */
  function setupAsk() {
    var form = document.querySelector("form[data-stream]");
    var box = document.getElementById("answer");
    if (!form || !box || !window.EventSource) return;
    var source = null;
    form.addEventListener("submit", function (e) {
      var q = wellFormed(form.elements.q.value.trim());
      if (!q) return;
      e.preventDefault();
      if (source) source.close();
      history.replaceState(null, "", "/ask?q=" + encodeURIComponent(q));
      box.classList.remove("empty");
      box.classList.add("streaming");
      box.setAttribute("aria-busy", "true");
      box.innerHTML = '<p class="phase"></p><p class="answer-text"></p>';
      var phase = box.querySelector(".phase");
      var text = box.querySelector(".answer-text");
      source = new EventSource(form.getAttribute("data-stream") + "?q=" + encodeURIComponent(q));
      source.addEventListener("phase", function (ev) { phase.textContent = ev.data; });
      source.addEventListener("text", function (ev) {
        phase.textContent = "";
        text.textContent += JSON.parse(ev.data);
      });
      source.addEventListener("done", function (ev) {
        source.close();
        box.innerHTML = ev.data;
        box.classList.remove("streaming");
        box.setAttribute("aria-busy", "false");
      });
      source.addEventListener("failed", function (ev) {
        source.close();
        box.classList.remove("streaming");
        box.setAttribute("aria-busy", "false");
        box.innerHTML = "";
        var p = document.createElement("p");
        p.className = "msg msg-error";
        p.setAttribute("role", "alert");
        p.textContent = ev.data;
        box.appendChild(p);
      });
      source.onerror = function () {
        if (source.readyState === EventSource.CLOSED) return;
        source.close();
        box.classList.remove("streaming");
        box.setAttribute("aria-busy", "false");
        phase.textContent = "The connection was lost. Press Ask to try again.";
      };
    });
  }

  /* --- ingest: drag and drop, upload, live progress --- */
  var watching = {};
  var finished = {};  /* runs shown as done or failed: a late, older reply must not undo that */

  function runItem(task) {
    var list = document.getElementById("runs");
    var li = list.querySelector('[data-task="' + task.id + '"]');
    var empty = list.querySelector(".empty-runs");
    if (empty) empty.remove();
    if (!li) {
      li = document.createElement("li");
      li.setAttribute("data-task", task.id);
      li.innerHTML = '<div class="run-head"><span class="run-name"></span> <span class="run-state"></span></div>' +
        '<progress max="100" value="0"></progress><p class="run-detail"></p>';
      list.insertBefore(li, list.firstChild);
    }
    return li;
  }

  function base(name) { return String(name || "").split(/[\\/]/).pop(); }  /* the file, not the upload folder */

  /* The job queue below, as the server has it now (a run that failed added a dead letter). */
  function refreshQueue() {
    var here = document.querySelector("section[aria-labelledby=jobs-h]");
    if (!here || !window.DOMParser) return;
    fetch("/ingest", { headers: { Accept: "text/html" }, credentials: "same-origin" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (!html) return;
        var fresh = new DOMParser().parseFromString(html, "text/html").querySelector("section[aria-labelledby=jobs-h]");
        if (fresh) here.innerHTML = fresh.innerHTML;
      }).catch(function () { /* the queue stays as it was; a reload shows it */ });
  }

  function describe(t) {
    if (t.error) return t.error;
    if (t.report) {
      var r = t.report;
      var s = r.added + " added · " + r.updated + " updated · " + r.unchanged + " unchanged";
      (r.failed || []).forEach(function (f) { s += " · failed " + base(f.name) + ": " + f.reason; });
      (r.skipped || []).forEach(function (f) { s += " · skipped " + base(f.name) + ": " + f.reason; });
      /* what was added, but not quite as given (a frontmatter left out, a note found by meaning only in part) */
      (r.warnings || []).forEach(function (f) { s += " · " + base(f.name) + ": " + f.warning; });
      return s;
    }
    if (t.phase) return t.phase + " " + t.done + "/" + t.total;
    return "waiting…";
  }

  function paint(t) {
    if (finished[t.id]) return;
    var li = runItem(t);
    li.className = "run run-" + t.state;
    li.querySelector(".run-name").textContent = t.sources.join(", ");
    li.querySelector(".run-state").textContent = t.state;
    var bar = li.querySelector("progress");
    bar.value = t.percent;
    bar.setAttribute("aria-label", "progress of " + t.sources.join(", "));
    bar.textContent = t.percent + "%";
    li.querySelector(".run-detail").textContent = describe(t);
    if (t.state === "done" || t.state === "failed") {
      finished[t.id] = true;
      delete watching[t.id];
      li.removeAttribute("data-live");
      refreshQueue();
    }
  }

  function poll(id) {
    if (watching[id]) return;
    watching[id] = true;
    (function tick() {
      if (!watching[id]) return;
      fetch("/ingest/tasks/" + id, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(function (t) { if (t) paint(t); if (watching[id]) setTimeout(tick, 400); })
        .catch(function () { setTimeout(tick, 2000); });
    })();
  }

  function listenEvents() {
    if (!window.EventSource) return;
    var es;
    try { es = new EventSource("/events"); } catch (err) { return; }
    function onEvent(ev) {
      try {
        var d = JSON.parse(ev.data);
        d = d.data || d;  /* the server's envelope {id, type, time, data} */
        if (d.web_task && watching[d.web_task]) paint(d);
      } catch (err) { /* polling covers it */ }
    }
    ["ingest.started", "ingest.progress", "ingest.done", "ingest.failed"].forEach(function (n) {
      es.addEventListener(n, onEvent);
    });
    es.onerror = function () { es.close(); };  /* no event stream: polling alone */
  }

  /* Enrichment shown as it is produced: the items arrive on /events (enrich.item) while the
     model writes them; the page reloads with the stored block at enrich.done. */
  function setupEnrich() {
    var form = document.getElementById("enrich-form");
    var list = document.getElementById("enrich-live");
    if (!form || !list || !window.EventSource || !window.fetch) return;
    var note = form.getAttribute("data-note");
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var es = new EventSource("/events");
      var button = form.querySelector("button");
      button.disabled = true;
      list.textContent = "";
      function mine(ev) {
        try { var d = JSON.parse(ev.data); d = d.data || d; return d.note_id === note ? d : null; }
        catch (err) { return null; }
      }
      es.addEventListener("enrich.item", function (ev) {
        var d = mine(ev);
        if (!d) return;
        var li = document.createElement("li");
        li.className = "enrich-item" + (d.kept ? "" : " dropped");
        li.setAttribute("data-field", d.field);
        li.textContent = d.field.replace("_", " ") + ": " + d.value + (d.kept ? "" : " (dropped: " + (d.why || "unsupported") + ")");
        list.appendChild(li);
      });
      es.addEventListener("enrich.done", function (ev) {
        var d = mine(ev);
        if (!d) return;
        es.close();
        var li = document.createElement("li");
        li.className = "enrich-done";
        li.textContent = d.stored ? "Stored in the note." : ("Nothing stored: " + (d.reason || ""));
        list.appendChild(li);
      });
      var sent = false;
      es.addEventListener("open", function () {
        if (sent) return;  /* a reconnect does not enrich again */
        sent = true;
        send("/notes/enrich", new FormData(form))
          .catch(function (err) { showError(err.message); es.close(); })
          .then(function () { button.disabled = false; });
      });
    });
  }

  function send(url, body) {
    return fetch(url, { method: "POST", body: body, headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) {
        /* the words first: {"error": code, "message": words} is the server's refusal; a page
           without JSON (a proxy's error page) is named by its status, never parsed */
        return r.json().catch(function () { return {}; }).then(function (j) {
          if (!r.ok) throw new Error(j.message || j.error || j.detail || ("refused (" + r.status + ")"));
          return j;
        });
      });
  }

  function showError(msg) {
    var main = document.getElementById("main");
    var old = main.querySelector(".msg-error");
    if (old) old.remove();
    var p = document.createElement("div");
    p.className = "msg msg-error";
    p.setAttribute("role", "alert");
    p.textContent = msg;
    main.insertBefore(p, main.querySelector("h1").nextSibling);
  }

  /* A run the server took: an earlier refusal shown above (a bad address, a file too large)
     no longer applies and goes. */
  function started(t) {
    var old = document.querySelector("#main .msg-error");
    if (old) old.remove();
    paint(t); poll(t.id);
  }

  function setupIngest() {
    var zone = document.getElementById("dropzone");
    if (!zone) return;
    var input = zone.querySelector("input[type=file]");
    function upload(files) {
      if (!files || !files.length) return;
      var fd = new FormData();
      for (var i = 0; i < files.length; i++) fd.append("files", files[i], files[i].name);
      send("/ingest/upload", fd).then(started).catch(function (err) { showError(err.message); });
      input.value = "";
    }
    ["dragenter", "dragover"].forEach(function (n) {
      zone.addEventListener(n, function (e) { e.preventDefault(); zone.classList.add("over"); });
    });
    ["dragleave", "drop"].forEach(function (n) {
      zone.addEventListener(n, function () { zone.classList.remove("over"); });
    });
    zone.addEventListener("drop", function (e) { e.preventDefault(); upload(e.dataTransfer.files); });
    zone.addEventListener("submit", function (e) { e.preventDefault(); upload(input.files); });
    input.addEventListener("change", function () { upload(input.files); });
    var urlform = document.getElementById("urlform");
    urlform.addEventListener("submit", function (e) {
      e.preventDefault();
      var fd = new FormData(urlform);
      send("/ingest/url", fd).then(function (t) { urlform.reset(); started(t); })
        .catch(function (err) { showError(err.message); });
    });
    document.querySelectorAll("[data-live]").forEach(function (li) { poll(li.getAttribute("data-task")); });
    listenEvents();
  }

  function ready() { showCite(); setupAsk(); setupIngest(); setupEnrich(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
