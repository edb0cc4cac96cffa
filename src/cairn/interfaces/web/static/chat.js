/* Cairn web page: the conversation (GET /chat). Written for this project; no third-party code.
   Posts the message to POST /chat and reads its server-sent events from the response body
   (session, delta*, notice*, then result or error); a pending call gets Approve / Deny
   buttons that call POST /chat/approvals/{id}. Enter sends, Shift+Enter is a new line. */
(function () {
  "use strict";
  var form = document.getElementById("chatform");
  if (!form) return;
  var box = document.getElementById("message");
  var convo = document.getElementById("convo");
  var state = document.getElementById("chatstate");
  var why = document.getElementById("why");
  var session = form.getAttribute("data-session") || "";
  var busy = false;

  /* A waiting call's typed decision in a reply ("...: /approve ID or /deny ID."): this page has
     buttons instead (the same pattern as render.web_reply). */
  var TYPED_DECISION = /: \/approve (\S+) or \/deny \1\./g;
  function shown(text) { return String(text || "").replace(TYPED_DECISION, " (Approve or Deny below)."); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function turn(role, text) {
    var hint = convo.querySelector(".turn-hint");
    if (hint) hint.remove();
    var li = el("li", "turn turn-" + role);
    li.appendChild(el("span", "who", { user: "You", assistant: "Cairn", tool: "Tool" }[role] || role));
    var said = el("div", "said", text || "");
    li.appendChild(said);
    convo.appendChild(li);
    li.scrollIntoView({ block: "end" });
    return said;
  }
  function callLine(c) {
    var t = c.name + " · " + c.outcome + (c.error ? " (" + c.error + ")" : "");
    turn("tool", t).parentNode.setAttribute("data-call", c.name);
  }
  function pending(p) {
    if (convo.querySelector('li[data-approval="' + CSS.escape(p.id) + '"]')) return;  /* listed once, however many replies list it */
    var said = turn("tool", "");
    var li = said.parentNode;
    li.classList.add("pending");
    li.setAttribute("data-approval", p.id);
    li.querySelector(".who").textContent = "Waiting for you";
    var code = el("code", "", p.name);
    said.appendChild(code);
    said.appendChild(document.createTextNode(" " + JSON.stringify(p.arguments) + " · " + p.risk + " risk"));
    if (p.diff) said.appendChild(el("pre", "diff", p.diff));  /* a file tool's change, shown before approval */
    var row = el("div", "row decide");
    var yes = el("button", "", "Approve"); yes.type = "button"; yes.setAttribute("data-approve", p.id);
    var no = el("button", "secondary danger", "Deny"); no.type = "button"; no.setAttribute("data-deny", p.id);
    row.appendChild(yes); row.appendChild(no); li.appendChild(row);
    yes.focus();
  }
  function showResult(r) {
    (r.tool_calls || []).forEach(function (c) { if (c.outcome !== "pending") callLine(c); });
    (r.pending_approvals || []).forEach(pending);
  }
  /* A conversation the page just started is listed beside it at once (the list was
     rendered before it existed and said "No conversation yet."). */
  function listSession(id, opening) {
    var list = document.getElementById("sesslist");
    if (!list || list.querySelector('a[href="/chat?session=' + encodeURIComponent(id) + '"]')) return;
    list.querySelectorAll("li.muted").forEach(function (li) { li.remove(); });
    list.querySelectorAll("li[aria-current]").forEach(function (li) { li.removeAttribute("aria-current"); });
    var li = el("li");
    li.setAttribute("aria-current", "true");
    var a = el("a", "", opening.slice(0, 80));
    a.href = "/chat?session=" + encodeURIComponent(id);
    li.appendChild(a);
    li.appendChild(el("span", "meta", "web · now"));
    list.insertBefore(li, list.firstChild);
  }
  function setSession(id, opening) {
    if (!id || id === session) return;
    listSession(id, opening || id);
    session = id;
    form.setAttribute("data-session", id);
    if (why) why.hidden = false;
    try { history.replaceState(null, "", "/chat?session=" + encodeURIComponent(id)); } catch (e) { /* file: */ }
  }
  function post(url, body) {
    return fetch(url, { method: "POST", credentials: "same-origin",
                        headers: { "Content-Type": "application/json", Accept: "text/event-stream, application/json" },
                        body: JSON.stringify(body) });
  }
  function failed(msg) { turn("tool", "Error: " + msg).parentNode.classList.add("failed"); }

  function send(text) {
    busy = true;
    state.textContent = "Cairn is thinking…";
    turn("user", text);
    var said = null, reply = "";
    var body = { message: text };
    if (session) body.session = session;
    else body["new"] = true;  /* a page without a session is a new conversation, as it shows */
    return post("/chat", body).then(function (resp) {
      if (!resp.ok) return resp.text().then(function (t) {
        var m = t; try { var j = JSON.parse(t); m = j.message || j.error || (j.detail && JSON.stringify(j.detail)) || t; } catch (e) { /* text */ }
        throw new Error(m);
      });
      var reader = resp.body.getReader(), dec = new TextDecoder(), buf = "";
      function handle(name, data) {
        if (name === "session") setSession(data.session, text);
        else if (name === "delta") {
          if (!said) { said = turn("assistant", ""); said.parentNode.classList.add("streaming"); }
          reply += data.text; said.textContent = shown(reply);
        } else if (name === "notice") turn("tool", data.text);
        else if (name === "result") {
          if (!said) said = turn("assistant", "");
          said.parentNode.classList.remove("streaming");
          if (data.reply && data.reply !== reply) said.textContent = shown(data.reply);
          showResult(data);
        } else if (name === "error") failed(data.error);
      }
      function pump() {
        return reader.read().then(function (r) {
          if (r.done) return;
          buf += dec.decode(r.value, { stream: true });
          var i;
          while ((i = buf.indexOf("\n\n")) >= 0) {
            var block = buf.slice(0, i); buf = buf.slice(i + 2);
            var name = "message", data = "";
            block.split("\n").forEach(function (line) {
              if (line.indexOf("event: ") === 0) name = line.slice(7);
              else if (line.indexOf("data: ") === 0) data += line.slice(6);
            });
            if (data) handle(name, JSON.parse(data));
          }
          return pump();
        });
      }
      return pump();
    }).catch(function (err) { failed(err.message); })
      .then(function () { busy = false; state.textContent = ""; box.focus(); });
  }

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var text = box.value.trim();
    if (!text || busy) return;
    box.value = "";
    send(text);
  });
  box.addEventListener("keydown", function (e) {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      if (form.requestSubmit) form.requestSubmit(); else form.dispatchEvent(new Event("submit", { cancelable: true }));
    }
  });

  convo.addEventListener("click", function (e) {
    var b = e.target.closest("button[data-approve], button[data-deny]");
    if (!b) return;
    var id = b.getAttribute("data-approve") || b.getAttribute("data-deny");
    var li = b.closest("li");
    li.querySelectorAll("button").forEach(function (x) { x.disabled = true; });
    state.textContent = "Working…";
    post("/chat/approvals/" + encodeURIComponent(id), { approve: b.hasAttribute("data-approve") })
      .then(function (r) { return r.json().then(function (j) { if (!r.ok) throw new Error(j.message || j.error || r.status); return j; }); })
      .then(function (j) {
        li.classList.remove("pending");
        li.querySelector(".row.decide").remove();
        li.querySelector(".who").textContent = "Tool";
        if (j.reply) turn("assistant", shown(j.reply));
        showResult(j);
      })
      .catch(function (err) { failed(err.message); li.querySelectorAll("button").forEach(function (x) { x.disabled = false; }); })
      .then(function () { state.textContent = ""; });
  });

  if (why) why.addEventListener("toggle", function () {
    if (!why.open || !session) return;
    var body = document.getElementById("whybody");
    fetch("/chat/why?session=" + encodeURIComponent(session), { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (r) { return r.json(); })
      .then(function (j) {
        body.textContent = "";
        if (j.error) { body.textContent = j.error; return; }
        /* a budget of 0 is no limit (no language model): "356 tokens", not "356 of 0 tokens" */
        var head = el("p", "", (j.total_tokens || 0) + (j.budget ? " of " + j.budget : "") + " tokens");
        body.appendChild(head);
        (j.bands || []).forEach(function (b) {
          body.appendChild(el("h3", "h3", (b.name || b.band || "band") + " · " + (b.tokens || 0) + " tokens"));
          var ul = el("ul", "whylist");
          (b.units || []).forEach(function (u) { ul.appendChild(el("li", "", (u.kind || "") + " " + (u.why || "") + ": " + String(u.text || "").slice(0, 160))); });
          body.appendChild(ul);
        });
      }).catch(function (err) { body.textContent = err.message; });
  });

  if ("serviceWorker" in navigator) {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).catch(function () { /* not over http(s) */ });
  }
})();
